//===- GpuSplitK.h - A GPU matmul's K in slices ----------------*- C++ -*-===//
//
// Private to lib/Transforms: a matmul whose C has few tiles and whose K is
// long (ResNet-18's last convolutions at batch 1: 49 x 512 over K = 4608)
// gives the GPU fewer blocks than it has SMs. With split_k = S the blocks
// of S slices of K each compute a partial product (one batch matmul over
// the slices, views of A and B, no copies) and a second kernel sums the
// partials into C in slice order (a window kernel, GpuWindowKernel.h, that
// starts from C's fill and computes the matmul's epilogue).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUSPLITK_H
#define DLTUNE_LIB_TRANSFORMS_GPUSPLITK_H

#include "dltune/Transforms/GpuMatmulKernel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::dltune {

/// Replaces `matmul` (linalg.matmul on static memrefs, tiles.splitK > 1
/// dividing K into slices of whole tile_k, no wgmma) by
///   partial[s] = 0;  partial[s] += A[:, slice s] x B[slice s, :]  (a
///   linalg.batch_matmul with `tiles`, split_k 1, as its kernel's tiles)
///   C += sum over s of partial[s]                     (a linalg.generic
///   with window tiles: vectors of up to 4 columns, 256 threads a block)
/// and returns the batch matmul. Fails with an error on the op where it
/// cannot.
FailureOr<linalg::LinalgOp> splitGpuMatmulK(RewriterBase &rewriter, linalg::LinalgOp matmul,
                                            const GpuMatmulTiles &tiles);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUSPLITK_H
