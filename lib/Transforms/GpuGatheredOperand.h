//===- GpuGatheredOperand.h - A matmul operand gathered in its loads -*- C++ -*-===//
//
// Private to lib/Transforms: a GPU matmul's A that a linalg.generic writes
// element by element just before it (the patch gather of an imported
// convolution, --dltune-conv-to-matmul), computed by the matmul kernel in
// its loads of A instead (an implicit GEMM): the patch buffer is never
// written or read, and the gather is not a kernel of its own.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUGATHEREDOPERAND_H
#define DLTUNE_LIB_TRANSFORMS_GPUGATHEREDOPERAND_H

#include "GpuLaneVectorizer.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::dltune {

/// A 2-d linalg.generic without inputs that writes all of a matmul's A (a
/// buffer allocated in the function, read by nothing else), its body pure
/// scalar ops and loads of buffers computed from linalg.index: the kernel
/// evaluates the body where it would load A.
class GatheredOperand {
public:
  /// The gather writing `matmul`'s A (buffer semantics, unbatched) when
  /// nothing between it and the matmul writes what it reads; nullopt
  /// otherwise. Changes nothing.
  static std::optional<GatheredOperand> match(linalg::LinalgOp matmul);

  /// Whether the kernel's writes to `buffer` (a view's source) could change
  /// what the gather reads while other blocks still gather: the same
  /// buffer, or either of them not a distinct allocation or constant.
  bool mayRead(Value buffer) const;

  /// A's elements (`row`, `col` .. `col` + lanes - 1) as a vector; `col` is
  /// a multiple of `lanes` and `row` below A's rows. Where the body's
  /// arithmetic proves those elements consecutive in a buffer it reads (a
  /// patch of channels), one vector load with the index arithmetic done
  /// once; otherwise the body once a lane.
  Value emitLoad(OpBuilder &b, Location loc, Value row, Value col, int64_t lanes) const;

  /// A vector of A as one copy from a buffer the gather reads: its first
  /// element and the copy's validity (null: always; where false, the
  /// vector is zeros, +0.0: the padding). The source is aligned to the
  /// copy's size (copiesWholeVectors checks it).
  using CopySource = LaneCopySource;

  /// Whether emitLoad's vectors are each one load of A's element type from
  /// a buffer, or zero under a uniform condition (a bounds check): then a
  /// cp.async with zero fill can copy them into shared memory directly.
  bool copiesWholeVectors(int64_t lanes) const;

  /// The copy of A's elements (`row`, `col` ..) where copiesWholeVectors.
  CopySource emitCopySource(OpBuilder &b, Location loc, Value row, Value col,
                            int64_t lanes) const;

  /// Erases the gather and A's allocation (now unused).
  void eraseAbsorbed(RewriterBase &rewriter) const;

private:
  GatheredOperand() = default;

  mutable linalg::GenericOp generic; // op handles are not const-correct
  /// The buffers the body loads from (their view sources).
  SmallVector<Value> readBuffers;
};

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUGATHEREDOPERAND_H
