// REQUIRES: ptxas
// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=bin" | FileCheck %s

// With ptxas available the kernel is assembled into a cubin for sm_90, and
// what ptxas reports (ptxas -v) is kept on the binary.
// CHECK: gpu.binary @matmul_kernel {dltune.kernel_resources = [{barriers = 0 : i64, kernel = "matmul_kernel", registers = {{[1-9][0-9]*}} : i64, shared_bytes = 0 : i64, spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64, stack_bytes = 0 : i64, threads_per_block = 256 : i64}]}
// CHECK-SAME: [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-NOT: assembly =
// CHECK-SAME: bin = "
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, promote = 0, unroll = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Promoted: 2 x 4 KiB of shared memory and a barrier, by ptxas's own count.
// CHECK: gpu.binary @promoted_kernel {dltune.kernel_resources = [{barriers = 1 : i64, kernel = "promoted_kernel", registers = {{[1-9][0-9]*}} : i64, shared_bytes = 8192 : i64,
// CHECK-SAME: threads_per_block = 256 : i64}]}
func.func @promoted(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, promote = 1, unroll = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
