// REQUIRES: ptxas
// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="chip=sm_90 format=bin" | FileCheck %s

// With ptxas available the kernel is assembled into a cubin for sm_90.
// CHECK: gpu.binary @matmul_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-NOT: assembly =
// CHECK-SAME: bin = "
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, promote = 0, unroll = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
