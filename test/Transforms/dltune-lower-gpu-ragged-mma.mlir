// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s

// A tensor-core kernel (cp.async copies, three stages) on 196 rows, blocks
// of 64: the last row of blocks reads rows past M as row 195 (min.u on the
// row index of its copies) and stores only the rows inside (a branch
// around the stores). It runs only on a GPU (gpu-mma-device.mlir,
// half_ragged_three_stages); the SIMT kernel's rows are checked in the CPU
// emulation (gpu-ragged-rows-emulated.mlir).
// CHECK: gpu.binary @half_mma_ragged_kernel
// CHECK-SAME: min.u
// CHECK-SAME: cp.async.cg.shared.global
// CHECK-SAME: mma.sync.aligned.m16n8k16
// CHECK-SAME: setp.gt.u64 {{[^;]*}}, 195;
func.func @half_mma_ragged(%a: tensor<196x64xf16>, %b: tensor<64x64xf16>) -> tensor<196x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<196x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<196x64xf32>) -> tensor<196x64xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 32, vector = 8, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<196x64xf16>, tensor<64x64xf16>) outs(%c : tensor<196x64xf32>) -> tensor<196x64xf32>
  return %r : tensor<196x64xf32>
}
