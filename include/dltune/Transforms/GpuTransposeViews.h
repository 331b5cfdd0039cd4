//===- GpuTransposeViews.h - Transposes as strided views -------*- C++ -*-===//
//
// A `linalg.transpose` on buffers copies its input into a fresh buffer in
// another order: on the GPU a kernel of its own, reading and writing the
// whole tensor. Where the copy's readers (or the writers of what it
// copies) can take a strided view instead, the copy vanishes: the
// attention's head transposes (Q and V out of the QKV product, the heads'
// results back into rows) become views that the batch matmul kernels read
// and write directly.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_GPUTRANSPOSEVIEWS_H
#define DLTUNE_TRANSFORMS_GPUTRANSPOSEVIEWS_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dltune {

/// Rewrites, in the functions of `module` (buffer semantics, outside GPU
/// kernels), each `linalg.transpose` whose permutation keeps the innermost
/// dimension innermost (the views stay contiguous along it, which the
/// matmul kernels need), or moves it but is read only as the B of SIMT or
/// TF32 warpgroup matmuls that see it contiguous along k (the first
/// rewrite only), and
///  - whose output is a fresh allocation that, after it and until an op
///    writes all of it anew, only linalg ops read (through reshapes) while
///    nothing writes memory its input may share: those readers read a
///    `memref.transpose` view of the input; or
///  - whose input is (a reshape of) a fresh allocation that, in the life T
///    ends (since the last op that wrote all of it anew), only linalg ops
///    write as outputs and nothing reads after T, and whose output nothing
///    uses during that life: those writers write a view of the output (the
///    transpose's inverse) instead.
/// Zero fills of fresh allocations move first to just before the next use
/// of their buffer (the bufferization leaves them a layer ahead).
/// Returns how many transposes became views.
int64_t foldTransposesIntoViews(ModuleOp module);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_GPUTRANSPOSEVIEWS_H
