// REQUIRES: ptxas
// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=bin" | FileCheck %s

// With ptxas available the kernel is assembled into a cubin for sm_90, and
// what ptxas reports (ptxas -v) is kept on the binary: one buffer of A
// (16 x 64) and one of B (16 x 64) in shared memory, 8 KiB, and a barrier.
// CHECK: gpu.binary @matmul_kernel {dltune.kernel_resources = [{barriers = 1 : i64, dynamic_shared_bytes = 0 : i64, kernel = "matmul_kernel", registers = {{[1-9][0-9]*}} : i64, shared_bytes = 8192 : i64, spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64, stack_bytes = 0 : i64, threads_per_block = 256 : i64}]}
// CHECK-SAME: [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-NOT: assembly =
// CHECK-SAME: bin = "
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Two stages of padded rows: 2 x 16 x (64 + 4) floats for each of A and B,
// 17,408 bytes by ptxas's own count.
// CHECK: gpu.binary @staged_kernel {dltune.kernel_resources = [{barriers = 1 : i64, dynamic_shared_bytes = 0 : i64, kernel = "staged_kernel", registers = {{[1-9][0-9]*}} : i64, shared_bytes = 17408 : i64,
// CHECK-SAME: threads_per_block = 256 : i64}]}
func.func @staged(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 4, stages = 2>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Tiles above 48 KiB live in dynamic shared memory, which ptxas does not
// see (it counts the one byte LLVM demotes the dynamic array to): the
// launch's 143,360 bytes are recorded beside it.
// CHECK: gpu.binary @four_stages_kernel {dltune.kernel_resources = [{barriers = 1 : i64, dynamic_shared_bytes = 143360 : i64, kernel = "four_stages_kernel",
// CHECK-SAME: spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64, stack_bytes = 0 : i64, threads_per_block = 128 : i64}]}
func.func @four_stages(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 4, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1>}
       ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}

// -----

// Two kernels of one function share their outlined name (@split_kernel in
// two gpu.modules): each binary reports its own launch's block size (the
// slices' matmul 128 threads, the window kernel summing them 256). Until
// 2026-11-29 both reported the larger, keyed by the name alone.
// CHECK-LABEL: gpu.binary @split_kernel {
// CHECK-SAME: kernel = "split_kernel"
// CHECK-SAME: threads_per_block = 128 : i64
// CHECK-LABEL: gpu.binary @split_kernel_0 {
// CHECK-SAME: shared_bytes = 0 : i64
// CHECK-SAME: threads_per_block = 256 : i64
func.func @split(%a: tensor<64x1024xf32>, %b: tensor<1024x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 8, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 1, split_k = 4>}
       ins(%a, %b : tensor<64x1024xf32>, tensor<1024x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
