// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s

// Ops the schedule leaves on the host (here the fill of the output) are
// mapped to the GPU too, so that the host code only launches kernels and
// never touches device memory.
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT: llvm.store
// CHECK: gpu.binary @matmul_kernel
// CHECK: gpu.binary @matmul_kernel_0
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, promote = 0, unroll = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
