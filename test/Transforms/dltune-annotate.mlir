// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2" --verify-diagnostics | FileCheck %s
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2 default-config=true cpu-lanes=16 cpu-registers=32 l1-kb=32 l2-kb=1024" --verify-diagnostics | FileCheck %s --check-prefix=DEFAULT
// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu default-config=true" | FileCheck %s --check-prefix=GPU
// The CPU default derives from the machine: for AVX2 (8 lanes, 16
// registers) the register tile shrinks to 4x16 so the accumulators fit.
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2 default-config=true cpu-lanes=8 cpu-registers=16 l1-kb=32 l2-kb=512" | FileCheck %s --check-prefix=AVX2
// AVX2-LABEL: func.func @matmul
// AVX2: dltune.config = #dltune.config<pack_a = 1, pack_b = 1, reg_m = 4, reg_n = 16,

// CHECK-LABEL: func.func @matmul
// CHECK: linalg.matmul
// CHECK-NOT: dltune.config
// CHECK-SAME: dltune.space = #dltune.space<knobs {tile_m = pow2<1, 128>, reg_m = [1, 2, 4, 6, 8, 16], tile_n = pow2<1, 64>, reg_n = [1, 4, 8, 16, 32, 64], tile_k = pow2<1, 256>, unroll = pow2<1, 8>, pack_a = [0, 1], pack_b = [0, 1], threads = [1, 2], vectorize = [0, 1]}
// CHECK-SAME: params {D_k = 256, D_m = 128, D_n = 64, max_acc = 512}
// CHECK-SAME: "D_m % tile_m == 0", "tile_m % reg_m == 0 || ((pack_a == 1 || pack_b == 1) && reg_m < tile_m && (tile_m < D_m || tile_n < D_n))"
// CHECK-SAME: "reg_m * reg_n <= max_acc", "D_m % threads == 0", "(D_m / threads) % tile_m == 0"
// CHECK-SAME: dltune.target = "cpu"
// DEFAULT-LABEL: func.func @matmul
// DEFAULT: dltune.config = #dltune.config<pack_a = 1, pack_b = 1, reg_m = 8, reg_n = 32, threads = 2, tile_k = 256, tile_m = 64, tile_n = 64, unroll = 4, vectorize = 1>
// GPU-LABEL: func.func @matmul
// GPU: dltune.config = #dltune.config<block_m = 64, block_n = 64, interleave = 1, pad = 4, stages = 2, thread_m = 4, thread_n = 4, tile_k = 16, vector = 4>
// GPU-SAME: "((block_m / thread_m) * (block_n / thread_n)) <= max_threads"
// GPU-SAME: "stages * tile_k * (block_m + block_n + 2 * pad) * elem_bytes <= smem_bytes"
// GPU-SAME: dltune.target = "gpu"
func.func @matmul(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// -----

// Transposed-B matmul: same loops, same knobs.
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK: linalg.matmul
// CHECK-SAME: dltune.space = #dltune.space<knobs {tile_m
// A transposed B is not packed by default (its panels would be read with a
// stride), A still is.
// DEFAULT-LABEL: func.func @matmul_transpose_b
// DEFAULT: dltune.config = #dltune.config<pack_a = 1, pack_b = 0,
func.func @matmul_transpose_b(%a: tensor<64x32xf32>, %b: tensor<48x32xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%a, %b : tensor<64x32xf32>, tensor<48x32xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// -----

// Threads split the batch where it divides among them (each thread reads
// only its own batches' B).
// CHECK-LABEL: func.func @batch_matmul
// CHECK: linalg.batch_matmul
// CHECK-SAME: params {D_b = 2, D_k = 16, D_m = 32, D_n = 8, max_acc = 512}
// CHECK-SAME: "reg_m * reg_n <= max_acc", "D_b % threads == 0"]
// DEFAULT-LABEL: func.func @batch_matmul
// DEFAULT: threads = 2
func.func @batch_matmul(%a: tensor<2x32x16xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x32x8xf32>) -> tensor<2x32x8xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x32x16xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
  return %r : tensor<2x32x8xf32>
}

// -----

// A batch that does not divide among the threads: they split M.
// CHECK-LABEL: func.func @batch_matmul_odd_batch
// CHECK: linalg.batch_matmul
// CHECK-SAME: params {D_k = 16, D_m = 32, D_n = 8, max_acc = 512}
// CHECK-SAME: "D_m % threads == 0", "(D_m / threads) % tile_m == 0"]
func.func @batch_matmul_odd_batch(%a: tensor<3x32x16xf32>, %b: tensor<3x16x8xf32>, %c: tensor<3x32x8xf32>) -> tensor<3x32x8xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x32x16xf32>, tensor<3x16x8xf32>) outs(%c : tensor<3x32x8xf32>) -> tensor<3x32x8xf32>
  return %r : tensor<3x32x8xf32>
}

// -----

// CHECK-LABEL: func.func @conv_nhwc
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-SAME: dltune.space = #dltune.space<knobs {tile_oh = [1, 2, 7, 14], tile_ow = [1, 2, 7, 14], reg_ow = [1, 2, 4, 6, 7, 14], tile_f = pow2<1, 32>, reg_f = [1, 4, 8, 16, 32]
// CHECK-SAME: params {D_c = 16, D_f = 32, D_oh = 14, D_ow = 14, max_acc = 512}
// DEFAULT-LABEL: func.func @conv_nhwc
// DEFAULT: dltune.config = #dltune.config<pack_f = 1, reg_c
// GPU-LABEL: func.func @conv_nhwc
// GPU-NOT: dltune.space
// GPU: return
func.func @conv_nhwc(%in: tensor<1x16x16x16xf32>, %w: tensor<3x3x16x32xf32>, %out: tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x16x16x16xf32>, tensor<3x3x16x32xf32>) outs(%out : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  return %r : tensor<1x14x14x32xf32>
}

// -----

// CHECK-LABEL: func.func @conv_nchw
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: params {D_c = 16, D_f = 32, D_oh = 14, D_ow = 14, max_acc = 512}
func.func @conv_nchw(%in: tensor<1x16x16x16xf32>, %w: tensor<32x16x3x3xf32>, %out: tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x16x16x16xf32>, tensor<32x16x3x3xf32>) outs(%out : tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  return %r : tensor<1x32x14x14xf32>
}

// -----

// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-SAME: params {D_c = 32, D_oh = 14, D_ow = 14, max_acc = 512}
// CHECK-LABEL: func.func @pool
// CHECK: linalg.pooling_nhwc_max
// CHECK-SAME: params {D_c = 32, D_oh = 7, D_ow = 7, max_acc = 512}
func.func @depthwise(%in: tensor<1x16x16x32xf32>, %w: tensor<3x3x32xf32>, %out: tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x16x16x32xf32>, tensor<3x3x32xf32>) outs(%out : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  return %r : tensor<1x14x14x32xf32>
}
func.func @pool(%in: tensor<1x14x14x32xf32>, %out: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  %win = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%in, %win : tensor<1x14x14x32xf32>, tensor<2x2xf32>) outs(%out : tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

// CHECK-LABEL: func.func @elementwise
// CHECK: linalg.generic
// CHECK-SAME: dltune.space = #dltune.space<knobs {tile_d1 =
// CHECK-SAME: params {D_d0 = 16, D_d1 = 64}
func.func @elementwise(%x: tensor<16x64xf32>, %out: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%out : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// Unsupported ops and dynamic shapes are left alone with a remark.
// CHECK-LABEL: func.func @unsupported
// CHECK: linalg.fill
// CHECK-NOT: dltune.space
func.func @unsupported(%x: tensor<?x8xf32>, %c: tensor<4x4xf32>) -> (tensor<?x8xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{dltune-annotate: left alone: op kind is not supported}}
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-remark @below {{dltune-annotate: left alone: has dynamic loop bounds}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%x : tensor<?x8xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  } -> tensor<?x8xf32>
  return %r, %f : tensor<?x8xf32>, tensor<4x4xf32>
}

// -----

// An op that already has a space keeps it.
// CHECK-LABEL: func.func @kept
// CHECK: dltune.space = #dltune.space<knobs {x = [1]}>
func.func @kept(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.matmul {dltune.space = #dltune.space<knobs {x = [1]}>}
       ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}


// -----

// A width of 54 (a multiple of 6): six rows of two vectors on AVX2 (12
// accumulators), not nine rows of one.
// CHECK-LABEL: func.func @conv_width_54
// AVX2-LABEL: func.func @conv_width_54
// AVX2: reg_f = 16, reg_ow = 6,
func.func @conv_width_54(%x: tensor<1x54x54x16xf32>, %w: tensor<1x1x16x64xf32>, %c: tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x54x54x16xf32>, tensor<1x1x16x64xf32>) outs(%c : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
  return %r : tensor<1x54x54x64xf32>
}
