//===- GpuWarpgroupMatmul.h - Hopper warpgroup-MMA matmul kernels -*- C++ -*-===//
//
// Private to lib/Transforms: the matmul kernel of `wgmma = 1` (compute
// capability 9.0, f16 and bf16 inputs, f32 C). Each block is one or more
// warpgroups of 128 threads; the Tensor Memory Accelerator copies k slices
// of A and B into shared memory (cp.async.bulk.tensor, 128-byte swizzle),
// completion is tracked by mbarriers, and each warpgroup multiplies its rows
// with asynchronous wgmma.mma_async reading both operands from shared
// memory. The accumulators go through shared memory to coalesced vector
// stores, where a fill, C itself or a fused element-wise epilogue is applied.
//
// It follows MLIR's own sm_90 integration tests (the nvgpu ops, the
// descriptor layout the nvgpu-to-nvvm lowering assumes, the mbarrier
// phases), since nothing here can run it: ptxas checks it, a GPU never has.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUWARPGROUPMATMUL_H
#define DLTUNE_LIB_TRANSFORMS_GPUWARPGROUPMATMUL_H

#include "GpuMatmulOperands.h"

#include "dltune/Transforms/GpuMatmulKernel.h"

#include <string>

namespace mlir::dltune {

class MatmulEpilogue;

/// Why the warpgroup kernel cannot multiply `o` with `t` (whose wgmma is
/// 1); empty when it can.
std::string whyNotWarpgroupMatmul(const MatmulOperands &o, const GpuMatmulTiles &t);

/// Emits, at `b`'s insertion point (host code), the tensor maps of A and B
/// and the kernel's launch. `fillValue` (may be null) is the value C starts
/// from; without it the product is added to C. With `epilogue`, the
/// epilogue stores instead of C.
void buildWarpgroupMatmul(OpBuilder &b, Location loc, const MatmulOperands &o,
                          const GpuMatmulTiles &t, const MatmulEpilogue *epilogue,
                          Value fillValue);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUWARPGROUPMATMUL_H
