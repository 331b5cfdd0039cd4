// RUN: dltune-opt %s --split-input-file --verify-diagnostics --dltune-lower-gpu="chip=sm_90 format=isa"

// Warpgroup MMA of f32 inputs multiplies them as TF32, an opt-in.
func.func @f32_inputs(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{cannot become a GPU matmul kernel: f32 inputs use tensor cores only as TF32}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 32 : i64, vector = 4 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 64 : i64, warp_n = 64 : i64, async_copy = 1 : i64, wgmma = 1 : i64}}
    ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// A TF32 k slice is one 128-byte row: 32 floats.
module attributes {dltune.allow_tf32} {
  func.func @tf32_tile_k(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
    // expected-error @+1 {{with wgmma, tile_k must be 32 (one 128-byte row of the 128-byte swizzle)}}
    linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                        tile_k = 64 : i64, vector = 4 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                        mma = 1 : i64, warp_m = 64 : i64, warp_n = 64 : i64, async_copy = 1 : i64, wgmma = 1 : i64}}
      ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
    return
  }
}

// -----

// Other inputs stay off warpgroup MMA.
func.func @f64_inputs(%a: memref<128x128xf64>, %b: memref<128x128xf64>, %c: memref<128x128xf64>) {
  // expected-error @+1 {{cannot become a GPU matmul kernel}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 16 : i64, vector = 2 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 64 : i64, warp_n = 64 : i64, async_copy = 1 : i64, wgmma = 1 : i64}}
    ins(%a, %b : memref<128x128xf64>, memref<128x128xf64>) outs(%c : memref<128x128xf64>)
  return
}

// -----

// A k slice is one 128-byte row: 64 f16 elements.
func.func @tile_k(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{with wgmma, tile_k must be 64 (one 128-byte row of the 128-byte swizzle)}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 32 : i64, vector = 8 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 64 : i64, warp_n = 64 : i64, async_copy = 1 : i64, wgmma = 1 : i64}}
    ins(%a, %b : memref<128x128xf16>, memref<128x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// A warpgroup owns all of the block's columns.
func.func @warp_n(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{with wgmma, warp_n must equal block_n, a multiple of 64 up to 256}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 128 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 64 : i64, vector = 8 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 64 : i64, warp_n = 64 : i64, async_copy = 1 : i64, wgmma = 1 : i64}}
    ins(%a, %b : memref<128x128xf16>, memref<128x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// 128 x 256 accumulators in one warpgroup are 256 registers a thread.
func.func @accumulators(%a: memref<128x128xf16>, %b: memref<128x256xf16>, %c: memref<128x256xf32>) {
  // expected-error @+1 {{with wgmma, a thread may hold at most 128 accumulators}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 128 : i64, block_n = 256 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 64 : i64, vector = 8 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 128 : i64, warp_n = 256 : i64, async_copy = 1 : i64, wgmma = 1 : i64}}
    ins(%a, %b : memref<128x128xf16>, memref<128x256xf16>) outs(%c : memref<128x256xf32>)
  return
}

// -----

// The Tensor Memory Accelerator needs 16-byte aligned rows: a row stride of
// 132 f16 (264 bytes) is not.
func.func @unaligned_rows(%a: memref<128x128xf16, strided<[132, 1]>>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{with wgmma, A and B rows and starts must be 16-byte aligned (TMA)}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 64 : i64, vector = 8 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 64 : i64, warp_n = 64 : i64, async_copy = 1 : i64, wgmma = 1 : i64}}
    ins(%a, %b : memref<128x128xf16, strided<[132, 1]>>, memref<128x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Batches are stacked into one 2-D tensor map: each must follow the last.
func.func @batch_gap(%a: memref<2x64x64xf16, strided<[8192, 64, 1]>>, %b: memref<2x64x64xf16>, %c: memref<2x64x64xf32>) {
  // expected-error @+1 {{with wgmma, a batch of A or B must follow the previous one (one tensor map)}}
  linalg.batch_matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 64 : i64, vector = 8 : i64, pad = 0 : i64, stages = 1 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 64 : i64, warp_n = 64 : i64, async_copy = 1 : i64, wgmma = 1 : i64}}
    ins(%a, %b : memref<2x64x64xf16, strided<[8192, 64, 1]>>, memref<2x64x64xf16>) outs(%c : memref<2x64x64xf32>)
  return
}
