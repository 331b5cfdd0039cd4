//===- GpuMatmulEpilogue.h - Element-wise ops run by a matmul kernel -*- C++ -*-===//
//
// Private to lib/Transforms: the element-wise op after a GPU matmul (an
// imported convolution's bias and activation, a residual add) computed on
// the matmul kernel's accumulators as they are stored, instead of in a
// kernel of its own that reads the product back from memory.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUMATMULEPILOGUE_H
#define DLTUNE_LIB_TRANSFORMS_GPUMATMULEPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::dltune {

/// An all-parallel linalg.generic that reads the output buffer of a GPU
/// matmul (through a crop and an expand_shape of its rows) and is that
/// buffer's only reader: the matmul kernel then computes the generic's body
/// on its accumulators and stores into the generic's output, and never
/// stores the product. A window kernel (GpuWindowKernel.h) uses it too: its
/// op's output read as it is, the rows its leading dimensions (a 2-D
/// output, split-K's sum, also through a crop and a row expansion).
class MatmulEpilogue {
public:
  /// The epilogue of `matmul` (buffer semantics, unbatched, writing all of
  /// `c`, a buffer allocated in the function; or another linalg op with one
  /// output, writing all of it) when the op right after it
  /// (past views, allocations and constants) is such a generic and the
  /// kernel stores `lanes` consecutive columns at a time; nullopt otherwise.
  /// Changes nothing.
  static std::optional<MatmulEpilogue> match(linalg::LinalgOp matmul, int64_t lanes);

  /// Moves what the kernel will read or write of the generic's operands
  /// (allocations, constants, views defined after the matmul) before it.
  void hoistOperandsBefore(Operation *matmul) const;

  /// Stores `acc` (a vector of `lanes` accumulators of C's row `row`,
  /// columns `col` onwards): the generic's body applied lane by lane, its
  /// other inputs loaded at the same element, the result stored into its
  /// output; rows and columns the crop drops are skipped.
  void emitStore(OpBuilder &b, Location loc, Value acc, Value row, Value col) const;

  /// The buffer the kernel writes the generic's result into (a view's
  /// source).
  Value getOutputBuffer() const;

  /// Erases the generic and the views of the product only it read.
  void eraseAbsorbed(RewriterBase &rewriter) const;

private:
  MatmulEpilogue() = default;

  mutable linalg::GenericOp generic; // op handles are not const-correct
  /// The generic's input that is the matmul's product.
  unsigned productInput = 0;
  /// The product's shape as the generic sees it: its rows expanded into
  /// `rowShape`, its columns (cropped to `cols`) the last dimension.
  SmallVector<int64_t> rowShape;
  int64_t rows = 0, cols = 0;
  /// The matmul's full M and N (rows and columns beyond the crop exist).
  int64_t matmulRows = 0, matmulCols = 0;
  /// Views between the product and the generic's input, last first.
  SmallVector<Operation *> views;
};

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUMATMULEPILOGUE_H
