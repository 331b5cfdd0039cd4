//===- GpuMemRefLayout.h - Buffers and alignment in GPU kernels -*- C++ -*-===//
//
// Private to lib/Transforms: what the GPU kernel builders (the matmul kernel,
// its epilogues) and the GPU lowering ask of a memref: which buffer it is a
// view of, its static strides, and how aligned a vector access to it is.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUMEMREFLAYOUT_H
#define DLTUNE_LIB_TRANSFORMS_GPUMEMREFLAYOUT_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::dltune {

/// The memref `v` is a view of, through view-like ops.
Value getViewSource(Value v);

/// Element strides and offset of `type`, or nullopt for dynamic ones.
std::optional<std::pair<SmallVector<int64_t>, int64_t>> getStaticLayout(MemRefType type);

/// The largest power of two no larger than `want` that divides every entry
/// of `multiples`: the alignment an access can promise when its address is a
/// sum of multiples of these byte counts from a 256-byte-aligned base.
int64_t commonAlignment(int64_t want, ArrayRef<int64_t> multiples);

/// The byte multiples every address of an access to `type` is made of,
/// beyond its indices' own: strides of the outer dimensions and the offset.
SmallVector<int64_t> layoutMultiples(MemRefType type, int64_t elemBytes);

/// The alignment of a vector of `lanes` elements of `type` at a last index
/// that is a multiple of `lanes`, from a 256-byte-aligned base.
int64_t getVectorAlignment(MemRefType type, int64_t lanes);

/// The layout a reshape of a value of type `source` gets, as `reshape` (a
/// collapse_shape or expand_shape of memrefs or of tensors) reshapes its own
/// source; failure where that layout cannot be reshaped so.
FailureOr<MemRefType> getReshapedType(Operation *reshape, MemRefType source);

/// Whether the last dimension of `type` has stride 1 and every stride and
/// the offset are static (a vector may be loaded along it).
bool isContiguousInLastDim(MemRefType type);

/// Whether `map` (an operand's indexing map) indexes the operand by loop
/// `dim` in its innermost result alone, the loop index as it is: where
/// that dimension has unit stride, consecutive points of the loop read
/// consecutive elements.
bool isIndexedInnermostBy(AffineMap map, unsigned dim);

/// Whether two buffers (view sources) may share memory: the same one, the
/// same global, or neither a distinct allocation or constant (two function
/// arguments may alias).
bool mayShareMemory(Value x, Value y);

/// The indices `map` (an operand's indexing map) gives at loop indices
/// `ivs`, one affine.apply per result.
SmallVector<Value> applyIndexingMap(OpBuilder &b, Location loc, AffineMap map, ValueRange ivs);

/// The memref `op` is a view of: its ViewLikeOpInterface source, or a
/// memref.transpose's input (a view, though MLIR 22 does not mark it
/// view-like); null where `op` is not a view.
Value getViewedMemRef(Operation *op);

/// Whether `op` or an op nested in it loads a view of `buffer` (a view's
/// source) with memref.load: a linalg body reading a padded input in place.
bool loadsFrom(Operation *op, Value buffer);

/// The linalg.fill a kernel computing `op` (buffer semantics, one output)
/// can take its output's start value from instead: the last op before `op`
/// in its block to use the output's buffer (a fresh allocation, so that
/// nothing else touches it unseen), filling exactly the output; `op` must
/// not read the buffer through an input or a load in its body (that would
/// read what the fill no longer writes). The caller checks that its kernel
/// writes all of the output. nullptr where there is none.
linalg::FillOp findFillToAbsorb(linalg::LinalgOp op);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUMEMREFLAYOUT_H
