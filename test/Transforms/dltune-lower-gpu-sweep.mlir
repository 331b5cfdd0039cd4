// REQUIRES: ptxas
// RUN: dltune-gpu-sweep %s --count 16 --seed 7 | FileCheck %s

// A sample of every default GPU space that --dltune-annotate="target=gpu"
// produces, half of it with two shared buffers (stages=2), is lowered and
// assembled by ptxas; every matmul configuration must become one kernel
// with its tiles' block size, shared memory, barriers and at most 32 spilled
// bytes; every window kernel's (pooling, depthwise convolutions, a column
// reduction) one
// kernel of block_threads threads without shared memory, barriers or
// spills; every row kernel's (a layer norm, a row sum) one kernel of lanes
// x rows threads without shared memory or spills. Ops without a GPU space (element-wise ones; convolutions reach
// the matmul through --dltune-conv-to-matmul, not run here) are listed for
// when they get one.

// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// CHECK-DAG: summary linalg.batch_matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// CHECK-DAG: summary linalg.pooling_nhwc_sum stride 2x2: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one window kernel of block_threads, no shared memory, no barriers, no spills, 0 over
// CHECK-DAG: summary linalg.depthwise_conv_2d_nhwc_hwc stride 2x2: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one window kernel of block_threads, no shared memory, no barriers, no spills, 0 over
// CHECK-DAG: summary reduction addf: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one window kernel of block_threads, no shared memory, no barriers, no spills, 0 over
// CHECK-DAG: summary reduction addf + divf+subf, fill, mulf+addf, divf+addf+rsqrt+mulf: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one row kernel of lanes x rows threads, no shared memory, no spills, 0 over
// CHECK-DAG: summary reduction addf: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one row kernel of lanes x rows threads, no shared memory, no spills, 0 over
// CHECK-NOT: FAILED

func.func @matmul(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @matmul_odd(%a: tensor<96x48xf32>, %b: tensor<48x80xf32>, %c: tensor<96x80xf32>) -> tensor<96x80xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<96x48xf32>, tensor<48x80xf32>) outs(%c : tensor<96x80xf32>) -> tensor<96x80xf32>
  return %r : tensor<96x80xf32>
}

// Skinny (C: 64 x 512, fewer 64 x 64 tiles than SMs; K = 4608): the space
// offers split_k, whose configurations are two kernels.
func.func @skinny(%a: tensor<64x4608xf32>, %b: tensor<4608x512xf32>, %c: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x4608xf32>, tensor<4608x512xf32>) outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// Skinny with a ragged M (49 rows: a 7 x 7 layer's pixels): a thread
// whose rows straddle M's end, and K slices of two steps, need more
// registers (SchedulePlan.cpp); before those constraints, sampled
// configurations spilled 92-252 bytes.
func.func @skinny_ragged(%a: tensor<49x512xf32>, %b: tensor<512x4608xf32>, %c: tensor<49x4608xf32>) -> tensor<49x4608xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<49x512xf32>, tensor<512x4608xf32>) outs(%c : tensor<49x4608xf32>) -> tensor<49x4608xf32>
  return %r : tensor<49x4608xf32>
}

func.func @batch(%a: tensor<4x64x32xf32>, %b: tensor<4x32x64xf32>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  return %r : tensor<4x64x64xf32>
}

func.func @conv(%in: tensor<1x16x16x16xf32>, %w: tensor<3x3x16x32xf32>, %out: tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x16x16x16xf32>, tensor<3x3x16x32xf32>) outs(%out : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  return %r : tensor<1x14x14x32xf32>
}

func.func @pool(%in: tensor<1x16x16x32xf32>, %k: tensor<2x2xf32>, %out: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%in, %k : tensor<1x16x16x32xf32>, tensor<2x2xf32>) outs(%out : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

func.func @depthwise(%in: tensor<2x16x16x48xf32>, %w: tensor<3x3x48xf32>, %out: tensor<2x7x7x48xf32>) -> tensor<2x7x7x48xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%in, %w : tensor<2x16x16x48xf32>, tensor<3x3x48xf32>) outs(%out : tensor<2x7x7x48xf32>) -> tensor<2x7x7x48xf32>
  return %r : tensor<2x7x7x48xf32>
}

func.func @global_pool(%in: tensor<4x7x7x96xf32>, %out: tensor<4x96xf32>) -> tensor<4x96xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, c)>],
                       iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
         ins(%in : tensor<4x7x7x96xf32>) outs(%out : tensor<4x96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x96xf32>
  return %r : tensor<4x96xf32>
}

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<64x256xf32>) outs(%y : tensor<64x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// Row kernels (GpuRowReduction.h): a layer norm over 50 rows of 192 in a
// 3-d tensor (its mean's run: the centring, the variance and the
// normalisation; 50 rows: the last block ragged for most frames) and an
// f16 row sum of 40 (vectors up to 8; 16 lanes at most).
#ln3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ln2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @layer_norm(%x: tensor<2x25x192xf32>) -> tensor<2x25x192xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 192.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<2x25xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x25xf32>) -> tensor<2x25xf32>
  %sum = linalg.generic {indexing_maps = [#ln3, #ln2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x25x192xf32>) outs(%z : tensor<2x25xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x25xf32>
  %ee = tensor.empty() : tensor<2x25x192xf32>
  %c = linalg.generic {indexing_maps = [#ln3, #ln2, #ln3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum : tensor<2x25x192xf32>, tensor<2x25xf32>) outs(%ee : tensor<2x25x192xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x25x192xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<2x25xf32>) -> tensor<2x25xf32>
  %var = linalg.generic {indexing_maps = [#ln3, #ln2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c : tensor<2x25x192xf32>) outs(%z2 : tensor<2x25xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x25xf32>
  %y = linalg.generic {indexing_maps = [#ln3, #ln2, #ln3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %var : tensor<2x25x192xf32>, tensor<2x25xf32>) outs(%ee : tensor<2x25x192xf32>) {
  ^bb0(%in: f32, %v: f32, %out: f32):
    %m = arith.divf %v, %n : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    %o = arith.mulf %in, %r : f32
    linalg.yield %o : f32
  } -> tensor<2x25x192xf32>
  return %y : tensor<2x25x192xf32>
}

func.func @row_sum_f16(%x: tensor<33x40xf16>, %out: tensor<33xf16>) -> tensor<33xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
         ins(%x : tensor<33x40xf16>) outs(%out : tensor<33xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %o : f16
    linalg.yield %s : f16
  } -> tensor<33xf16>
  return %r : tensor<33xf16>
}
