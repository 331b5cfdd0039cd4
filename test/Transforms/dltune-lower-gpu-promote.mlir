// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s

// promote=1: the block's A (64x16) and B (16x64) tiles are copied into
// shared memory by all threads of the block, with barriers between the
// copies and the loop that reads them.
// CHECK-LABEL: gpu.binary @promoted_kernel
// CHECK-SAME: .shared .align {{[0-9]+}} .b8 __wg_promoted_kernel_0[4096];
// CHECK-SAME: .shared .align {{[0-9]+}} .b8 __wg_promoted_kernel_1[4096];
// CHECK-SAME: st.shared.b32
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared
func.func @promoted(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, promote = 1, unroll = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Unrolling the k loop does not multiply the shared buffers: iterations
// reuse them (a barrier separates the reads of one from the copy of the next).
// CHECK-LABEL: gpu.binary @unrolled_kernel
// CHECK-SAME: __wg_unrolled_kernel_0[2048]
// CHECK-SAME: __wg_unrolled_kernel_1[1024]
// CHECK-NOT: __wg_unrolled_kernel_2
// CHECK-SAME: bar.sync
func.func @unrolled(%a: tensor<2x64x32xf32>, %b: tensor<2x32x32xf32>, %c: tensor<2x64x32xf32>) -> tensor<2x64x32xf32> {
  %r = linalg.batch_matmul {dltune.target = "gpu",
                            dltune.config = #dltune.config<block_m = 64, block_n = 32, thread_m = 2,
                                                           thread_n = 2, tile_k = 8, promote = 1, unroll = 4>}
       ins(%a, %b : tensor<2x64x32xf32>, tensor<2x32x32xf32>) outs(%c : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  return %r : tensor<2x64x32xf32>
}

// -----

// promote=0: no shared memory, and no barrier (each thread works on its own
// tile alone).
// CHECK-LABEL: gpu.binary @plain_kernel
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-SAME: ret;
func.func @plain(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, promote = 0, unroll = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
