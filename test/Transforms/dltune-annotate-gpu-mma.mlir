// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu default-config=true" | FileCheck %s
// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu default-config=true gpu-cc=80" | FileCheck %s --check-prefix=CC80

// Tensor cores are offered where the op may use them, and are then the
// default. f32 without the TF32 opt-in: the SIMT space alone (its knobs end
// with interleave).
// CHECK-LABEL: func.func @fp32
// CHECK: dltune.config = #dltune.config<block_m = 64, block_n = 64, interleave = 1, pad = 4, stages = 2, thread_m = 4, thread_n = 4, tile_k = 16, vector = 4>
// CHECK-SAME: stages = [1, 2], interleave = [0, 1]}, params
// CHECK-NOT: smem_optin_bytes
func.func @fp32(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// The module opts in to TF32: mma, warp_m and warp_n join the space, and
// the default is a tensor-core kernel of 32 x 32 warp tiles (4 warps),
// tile_k 16, no pad, no interleave, cp.async copies. Up to four stages
// (more than two only with cp.async), in up to 227 KiB of shared memory,
// and no more stages than k slices plus one. Warpgroup MMA as TF32 (k
// slices of 32 floats, B read transposed) is offered on compute capability
// 9.0, never the default (no GPU has measured it yet); with it warp_n
// (= block_n) may be 256. Without it (CC80) warp_n stops at 128.
// CHECK-LABEL: func.func @tf32
// CHECK: dltune.config = #dltune.config<async_copy = 1, block_m = 64, block_n = 64, interleave = 0, mma = 1, pad = 0, stages = 2, thread_m = 4, thread_n = 4, tile_k = 16, vector = 4, warp_m = 32, warp_n = 32, wgmma = 0>
// CHECK-SAME: stages = [1, 2, 3, 4]
// CHECK-SAME: mma = [0, 1], warp_m = pow2<16, 128>, warp_n = pow2<8, 256>, async_copy = [0, 1]
// CHECK-SAME: wgmma = [0, 1]
// CHECK-SAME: smem_optin_bytes = 232448
// CHECK-SAME: warp_n <= 128 || wgmma == 1
// CHECK-SAME: + 128 <= smem_optin_bytes
// CHECK-SAME: stages <= 2 || (mma == 1 && async_copy == 1)
// CHECK-SAME: stages <= D_k / tile_k + 1
// CHECK-SAME: wgmma == 0 || (D_m % block_m == 0 && mma == 1 && tile_k == 32 && async_copy == 1 && vector == 4 && (warp_m == 64 || warp_m == 128) && block_m % warp_m == 0 && warp_n == block_n && block_n % 32 == 0 && warp_m * block_n <= 16384)
// CC80-LABEL: func.func @tf32
// CC80: warp_n = 32, wgmma = 0>
// CC80-SAME: warp_n = pow2<8, 128>
// CC80-SAME: wgmma = [0]
module attributes {dltune.allow_tf32} {
  func.func @tf32(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
}

// -----

// f16 inputs need no opt-in; their loads default to 16 bytes (vector 8)
// and tile_k to 32. Warpgroup MMA (wgmma) is offered, not the default, on
// compute capability 9.0 (the default, `cc`), and not offered on 8.0.
// CHECK-LABEL: func.func @half
// CHECK: dltune.config = #dltune.config<async_copy = 1, block_m = 64, block_n = 64, interleave = 0, mma = 1, pad = 0, stages = 2, thread_m = 4, thread_n = 4, tile_k = 32, vector = 8, warp_m = 32, warp_n = 32, wgmma = 0>
// CHECK-SAME: wgmma = [0, 1]
// CHECK-SAME: cc = 90
// CHECK-SAME: wgmma == 0 || (D_m % block_m == 0 && mma == 1 && tile_k == 64
// CC80-LABEL: func.func @half
// CC80: wgmma = 0>
// CC80-SAME: wgmma = [0]
// CC80-SAME: cc = 80
func.func @half(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// A grid of 128 x 128 blocks with one for every SM (gpu-sms, 132 by
// default) takes warpgroup MMA on compute capability 9.0: two warpgroups of
// 64 rows, k slices of 64, three stages (measured at cuBLAS's speed on an
// H200, docs/gpu.md); on 8.0 mma.sync with 64 x 64 warp tiles and three
// cp.async stages.
// CHECK-LABEL: func.func @half_large
// CHECK: dltune.config = #dltune.config<async_copy = 1, block_m = 128, block_n = 128, interleave = 0, mma = 1, pad = 0, stages = 3, thread_m = 8, thread_n = 8, tile_k = 64, vector = 8, warp_m = 64, warp_n = 128, wgmma = 1>
// CC80-LABEL: func.func @half_large
// CC80: dltune.config = #dltune.config<async_copy = 1, block_m = 128, block_n = 128, interleave = 0, mma = 1, pad = 0, stages = 3, thread_m = 8, thread_n = 8, tile_k = 32, vector = 8, warp_m = 64, warp_n = 64, wgmma = 0>
func.func @half_large(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}

// -----

// Operands the Tensor Memory Accelerator may not be able to read once
// bufferized keep mma.sync, and wgmma is not offered (its build would fail;
// the space records `tma = 0`, so that a tuning task, whose op reads
// arguments, gets the same space): a slice of a larger tensor (a strided
// view), a transpose's result (GpuTransposeViews makes it a view), a
// tensor a transpose also reads, a linalg result written into a slice, and
// a copy of a slice (the canonicalizer erases the copy).
// CHECK-LABEL: func.func @half_large_slice
// CHECK: mma = 1, {{.*}}tile_k = 32, vector = 8, warp_m = 64, warp_n = 64, wgmma = 0>
// CHECK-SAME: wgmma = [0]}
// CHECK-SAME: tma = 0
func.func @half_large_slice(%big: tensor<2048x1088xf16>, %b: tensor<1024x2048xf16>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %a = tensor.extract_slice %big[0, 8] [2048, 1024] [1, 1] : tensor<2048x1088xf16> to tensor<2048x1024xf16>
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}

// CHECK-LABEL: func.func @half_large_transposed
// CHECK: warp_n = 64, wgmma = 0>
func.func @half_large_transposed(%a: tensor<2048x1024xf16>, %bt: tensor<2048x1024xf16>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %e = tensor.empty() : tensor<1024x2048xf16>
  %b = linalg.transpose ins(%bt : tensor<2048x1024xf16>) outs(%e : tensor<1024x2048xf16>) permutation = [1, 0]
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}

// CHECK-LABEL: func.func @half_large_also_transposed
// CHECK: warp_n = 64, wgmma = 0>
func.func @half_large_also_transposed(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>, %c: tensor<2048x2048xf32>) -> (tensor<2048x2048xf32>, tensor<2048x1024xf16>) {
  %e = tensor.empty() : tensor<2048x1024xf16>
  %bt = linalg.transpose ins(%b : tensor<1024x2048xf16>) outs(%e : tensor<2048x1024xf16>) permutation = [1, 0]
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r, %bt : tensor<2048x2048xf32>, tensor<2048x1024xf16>
}

// CHECK-LABEL: func.func @half_large_into_slice
// CHECK: warp_n = 64, wgmma = 0>
func.func @half_large_into_slice(%big: tensor<2048x1088xf16>, %b: tensor<1024x2048xf16>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %s = tensor.extract_slice %big[0, 8] [2048, 1024] [1, 1] : tensor<2048x1088xf16> to tensor<2048x1024xf16>
  %zero = arith.constant 0.0 : f16
  %a = linalg.fill ins(%zero : f16) outs(%s : tensor<2048x1024xf16>) -> tensor<2048x1024xf16>
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}

// CHECK-LABEL: func.func @half_large_copied_slice
// CHECK: warp_n = 64, wgmma = 0>
func.func @half_large_copied_slice(%big: tensor<2048x1088xf16>, %b: tensor<1024x2048xf16>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %s = tensor.extract_slice %big[0, 8] [2048, 1024] [1, 1] : tensor<2048x1088xf16> to tensor<2048x1024xf16>
  %e = tensor.empty() : tensor<2048x1024xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2048x1024xf16>) outs(%e : tensor<2048x1024xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2048x1024xf16>
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}

// A linalg result in a new tensor, reshaped, is a whole buffer: wgmma.
// CHECK-LABEL: func.func @half_large_fresh
// CHECK: warp_n = 128, wgmma = 1>
func.func @half_large_fresh(%x: tensor<2x1024x1024xf16>, %b: tensor<1024x2048xf16>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %e = tensor.empty() : tensor<2x1024x1024xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x1024x1024xf16>) outs(%e : tensor<2x1024x1024xf16>) {
  ^bb0(%in: f16, %out: f16):
    %n = arith.negf %in : f16
    linalg.yield %n : f16
  } -> tensor<2x1024x1024xf16>
  %a = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x1024x1024xf16> into tensor<2048x1024xf16>
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}

// -----

// TF32 reads B transposed whatever B is (a view, a constant transposed at
// compile time, or a copy), so only A must be readable: a B that a
// transpose produces (x W^T) is offered wgmma, an A slice is not.
// CHECK-LABEL: func.func @tf32_b_transposed
// CHECK: wgmma = 0>
// CHECK-SAME: wgmma = [0, 1]
// CHECK-NOT: tma = 0
// CHECK-LABEL: func.func @tf32_a_slice
// CHECK: wgmma = 0>
// CHECK-SAME: wgmma = [0]}
// CHECK-SAME: tma = 0
module attributes {dltune.allow_tf32} {
  func.func @tf32_b_transposed(%a: tensor<512x256xf32>, %w: tensor<512x256xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %e = tensor.empty() : tensor<256x512xf32>
    %b = linalg.transpose ins(%w : tensor<512x256xf32>) outs(%e : tensor<256x512xf32>) permutation = [1, 0]
    %r = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %r : tensor<512x512xf32>
  }
  func.func @tf32_a_slice(%big: tensor<512x288xf32>, %b: tensor<256x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %a = tensor.extract_slice %big[0, 8] [512, 256] [1, 1] : tensor<512x288xf32> to tensor<512x256xf32>
    %r = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %r : tensor<512x512xf32>
  }
}
