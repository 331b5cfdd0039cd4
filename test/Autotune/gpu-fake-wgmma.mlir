// REQUIRES: ptxas
// The host side of a warpgroup MMA kernel against %fake_cuda (no kernel
// runs): the JIT finds the runtime's tensor-map encoder, and the fake
// driver accepts the maps it encodes (checked as the driver documents:
// 16-byte aligned start and row strides, boxes of at most 256 elements
// whose rows fit the 128-byte swizzle), so the call completes and only the
// result check fails (nothing computed it). With the box dimensions passed
// in memref order instead of CUDA's innermost-first, the driver refuses the
// map and the run stops with its error. No GPU was involved.
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda not dltune run %s --entry matmul --target gpu --check --json 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: {"check":"failed","entry":"matmul"
// The same for TF32 (f32 maps: A in boxes of 128 x 32, B transposed by a
// kernel into a buffer the host allocates and frees, in boxes of 128 x 32).
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda not dltune run %s --entry matmul_tf32 --target gpu --check --json 2>&1 | FileCheck %s --check-prefix=TF32
// TF32-NOT: error
// TF32: {"check":"failed","entry":"matmul_tf32"

func.func @matmul(%a: tensor<4x256x128xf16>, %b: tensor<4x128x256xf16>) -> tensor<4x256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x256x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %r = linalg.batch_matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 128, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<4x256x128xf16>, tensor<4x128x256xf16>) outs(%c : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  return %r : tensor<4x256x256xf32>
}

func.func @matmul_tf32(%a: tensor<4x256x128xf32>, %b: tensor<4x128x256xf32>) -> tensor<4x256x256xf32>
    attributes {dltune.allow_tf32} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x256x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %r = linalg.batch_matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 32, vector = 4, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 128, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<4x256x128xf32>, tensor<4x128x256xf32>) outs(%c : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  return %r : tensor<4x256x256xf32>
}
