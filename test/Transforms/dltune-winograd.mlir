// --dltune-winograd: 3x3 stride-1 convolutions with a constant filter become
// an input transform (vector code), a batched matmul against the filter
// transformed at compile time, and an output transform.
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4" --verify-diagnostics %s | FileCheck %s

// The same numbers as the direct convolution, F(2x2, 3x3) and F(4x4, 3x3):
// each function run untuned (direct) and after the rewrite, outputs compared.
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4" %s -o %t.f2.mlir 2>/dev/null
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4 output-tile=4" %s -o %t.f4.mlir 2>/dev/null
// With threads=2 the transforms' tile rows are an scf.forall (run by two
// OpenMP threads): the same numbers again.
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4 threads=2" %s -o %t.f2t.mlir 2>/dev/null
// RUN: dltune run %s --entry odd_accumulate --repeat 1 --warmup 0 --save-output %t.acc.ref.npy
// RUN: dltune run %t.f2.mlir --entry odd_accumulate --repeat 1 --warmup 0 --save-output %t.acc.f2.npy
// RUN: dltune run %t.f4.mlir --entry odd_accumulate --repeat 1 --warmup 0 --save-output %t.acc.f4.npy
// RUN: dltune run %t.f2t.mlir --entry odd_accumulate --repeat 1 --warmup 0 --save-output %t.acc.f2t.npy
// RUN: dltune run %s --entry zero_init --repeat 1 --warmup 0 --save-output %t.zero.ref.npy
// RUN: dltune run %t.f2.mlir --entry zero_init --repeat 1 --warmup 0 --save-output %t.zero.f2.npy
// RUN: dltune run %t.f4.mlir --entry zero_init --repeat 1 --warmup 0 --save-output %t.zero.f4.npy
// RUN: dltune run %t.f2t.mlir --entry zero_init --repeat 1 --warmup 0 --save-output %t.zero.f2t.npy
// RUN: %python %S/Inputs/allclose.py %t.acc.ref.npy %t.acc.f2.npy %t.acc.f4.npy %t.acc.f2t.npy
// RUN: %python %S/Inputs/allclose.py %t.zero.ref.npy %t.zero.f2.npy %t.zero.f4.npy %t.zero.f2t.npy
// RUN: dltune run %s --entry epilogue --repeat 1 --warmup 0 --save-output %t.epi.ref.npy
// RUN: dltune run %t.f2.mlir --entry epilogue --repeat 1 --warmup 0 --save-output %t.epi.f2.npy
// RUN: dltune run %t.f4.mlir --entry epilogue --repeat 1 --warmup 0 --save-output %t.epi.f4.npy
// RUN: dltune run %t.f2t.mlir --entry epilogue --repeat 1 --warmup 0 --save-output %t.epi.f2t.npy
// RUN: %python %S/Inputs/allclose.py %t.epi.ref.npy %t.epi.f2.npy %t.epi.f4.npy %t.epi.f2t.npy
// RUN: dltune run %s --entry accumulate_epilogue --repeat 1 --warmup 0 --save-output %t.ae.ref.npy
// RUN: dltune run %t.f2.mlir --entry accumulate_epilogue --repeat 1 --warmup 0 --save-output %t.ae.f2.npy
// RUN: dltune run %t.f4.mlir --entry accumulate_epilogue --repeat 1 --warmup 0 --save-output %t.ae.f4.npy
// RUN: dltune run %t.f2t.mlir --entry accumulate_epilogue --repeat 1 --warmup 0 --save-output %t.ae.f2t.npy
// RUN: %python %S/Inputs/allclose.py %t.ae.ref.npy %t.ae.f2.npy %t.ae.f4.npy %t.ae.f2t.npy
// And scheduled with default configs (the matmul tiled, packed, vectorized).
// RUN: dltune run %t.f2.mlir --entry odd_accumulate --default-config --repeat 1 --warmup 0 --save-output %t.acc.f2d.npy
// RUN: %python %S/Inputs/allclose.py %t.acc.ref.npy %t.acc.f2d.npy

// Output 5x7 in 2x2 tiles: 3x4 = 12 tiles (16 rows of V and M, the last 4
// zero), input padded to 8x10, output computed 6x8 and cropped; the init
// is an argument, so the output transform adds to it.
// CHECK-LABEL: func.func @odd_accumulate
// CHECK-DAG: %[[U:.*]] = arith.constant dense_resource<dltune_winograd_filter> : tensor<16x6x5xf32>
// CHECK-DAG: %[[XP:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: %[[TAIL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x4x6xf32>)
// CHECK: %[[V0:.*]] = tensor.insert_slice %[[TAIL]] into %{{.*}}[0, 12, 0] [16, 4, 6] [1, 1, 1]
// CHECK: %[[V:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[V0]])
// CHECK-COUNT-16: vector.transfer_read %[[XP]]{{.*}} : tensor<1x8x10x6xf32>, vector<4xf32>
// CHECK-COUNT-16: vector.transfer_write {{.*}} : vector<4xf32>, tensor<16x16x6xf32>
// CHECK: %[[M:.*]] = linalg.batch_matmul ins(%[[V]], %[[U]] : tensor<16x16x6xf32>, tensor<16x6x5xf32>)
// CHECK: %[[YP:.*]] = tensor.pad %arg1 low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: %[[Y:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[YP]])
// CHECK-COUNT-16: vector.transfer_read %[[M]]
// CHECK: vector.transfer_read {{.*}} : tensor<1x6x8x5xf32>, vector<4xf32>
// CHECK: arith.addf
// CHECK: vector.transfer_write {{.*}} : vector<4xf32>, tensor<1x6x8x5xf32>
// CHECK: %[[R:.*]] = tensor.extract_slice %[[Y]][0, 0, 0, 0] [1, 5, 7, 5] [1, 1, 1, 1]
// CHECK: return %[[R]]
func.func @odd_accumulate(%x: tensor<1x7x9x6xf32>, %init: tensor<1x5x7x5xf32>) -> tensor<1x5x7x5xf32> {
  %w = arith.constant dense<[[[[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]],
      [[-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000]]],
    [[[-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250]],
      [[0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750], [-0.125, 0.250, 0.625, 1.000, -0.750], [0.500, 0.875, -0.875, -0.500, -0.125], [-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000]],
      [[0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375]]],
    [[[-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125]],
      [[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]]]]> : tensor<3x3x6x5xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x9x6xf32>, tensor<3x3x6x5xf32>) outs(%init : tensor<1x5x7x5xf32>) -> tensor<1x5x7x5xf32>
  return %y : tensor<1x5x7x5xf32>
}

// A zero-filled init is not read: the output transform writes a fresh
// tensor. Batch 2, 4x4 output: 2 x 2 x 2 = 8 tiles, no padding anywhere.
// CHECK-LABEL: func.func @zero_init
// CHECK-NOT: tensor.pad
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<16x8x6xf32>, tensor<16x6x5xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4x4x5xf32>
// CHECK: %[[Y:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[E]])
// CHECK-NOT: vector.transfer_read {{.*}} : tensor<2x4x4x5xf32>
// CHECK: return %[[Y]]
func.func @zero_init(%x: tensor<2x6x6x6xf32>) -> tensor<2x4x4x5xf32> {
  %w = arith.constant dense<[[[[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]],
      [[-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000]]],
    [[[-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250]],
      [[0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750], [-0.125, 0.250, 0.625, 1.000, -0.750], [0.500, 0.875, -0.875, -0.500, -0.125], [-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000]],
      [[0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375]]],
    [[[-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125]],
      [[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]]]]> : tensor<3x3x6x5xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x6x6x6xf32>, tensor<3x3x6x5xf32>) outs(%init : tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32>
  return %y : tensor<2x4x4x5xf32>
}

// The conv's epilogue (bias, a residual read through a slice made after
// the conv, ReLU: one generic once chains are merged) is computed in the
// output transform on each vector before it is written; padded tiles read
// the residual at clamped positions. Nothing elementwise is left.
// CHECK-LABEL: func.func @epilogue
// CHECK: %[[RES:.*]] = tensor.extract_slice %arg2[0, 1, 1, 0] [1, 3, 5, 5] [1, 1, 1, 1]
// CHECK: linalg.batch_matmul
// CHECK: scf.for
// CHECK: arith.minsi
// CHECK: vector.transfer_read %[[RES]]
// CHECK: arith.maximumf {{.*}} : vector<4xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @epilogue(%x: tensor<1x5x7x6xf32>, %bias: tensor<5xf32>, %big: tensor<1x4x6x5xf32>) -> tensor<1x3x5x5xf32> {
  %w = arith.constant dense<[[[[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]],
      [[-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000]]],
    [[[-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250]],
      [[0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750], [-0.125, 0.250, 0.625, 1.000, -0.750], [0.500, 0.875, -0.875, -0.500, -0.125], [-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000]],
      [[0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375]]],
    [[[-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125]],
      [[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]]]]> : tensor<3x3x6x5xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x5x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x5x7x6xf32>, tensor<3x3x6x5xf32>) outs(%init : tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32>
  %res = tensor.extract_slice %big[0, 1, 1, 0] [1, 3, 5, 5] [1, 1, 1, 1] : tensor<1x4x6x5xf32> to tensor<1x3x5x5xf32>
  %e2 = tensor.empty() : tensor<1x3x5x5xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<1x3x5x5xf32>, tensor<5xf32>) outs(%e2 : tensor<1x3x5x5xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x3x5x5xf32>
  %e3 = tensor.empty() : tensor<1x3x5x5xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%biased, %res : tensor<1x3x5x5xf32>, tensor<1x3x5x5xf32>) outs(%e3 : tensor<1x3x5x5xf32>) {
  ^bb0(%v: f32, %r: f32, %o: f32):
    %t = arith.addf %v, %r : f32
    %z = arith.constant 0.0 : f32
    %u = arith.maximumf %t, %z : f32
    linalg.yield %u : f32
  } -> tensor<1x3x5x5xf32>
  return %out : tensor<1x3x5x5xf32>
}

// An accumulated init and an epilogue together; an input taller than the
// windows need (linalg allows it: 7 rows where 6 are read) is not cut,
// only widened (5 -> 6 columns).
// CHECK-LABEL: func.func @accumulate_epilogue
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: tensor<1x7x5x6xf32> to tensor<1x7x6x6xf32>
// CHECK: linalg.batch_matmul
// CHECK: tensor.pad %arg1 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: arith.maximumf {{.*}} : vector<4xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @accumulate_epilogue(%x: tensor<1x7x5x6xf32>, %init: tensor<1x4x3x5xf32>) -> tensor<1x4x3x5xf32> {
  %w = arith.constant dense<[[[[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]],
      [[-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000]]],
    [[[-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250]],
      [[0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750], [-0.125, 0.250, 0.625, 1.000, -0.750], [0.500, 0.875, -0.875, -0.500, -0.125], [-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000]],
      [[0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375]]],
    [[[-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125]],
      [[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]]]]> : tensor<3x3x6x5xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x5x6xf32>, tensor<3x3x6x5xf32>) outs(%init : tensor<1x4x3x5xf32>) -> tensor<1x4x3x5xf32>
  %e = tensor.empty() : tensor<1x4x3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x4x3x5xf32>) outs(%e : tensor<1x4x3x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %u = arith.maximumf %v, %z : f32
    linalg.yield %u : f32
  } -> tensor<1x4x3x5xf32>
  return %r : tensor<1x4x3x5xf32>
}

// Left alone, with the reason.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.batch_matmul
func.func @left_alone(%x: tensor<1x9x9x6xf32>, %w: tensor<3x3x6x5xf32>, %w5: tensor<5x5x6x5xf32>,
                      %i4: tensor<1x4x4x5xf32>, %i7: tensor<1x7x7x5xf32>, %i5: tensor<1x5x5x5xf32>)
    -> (tensor<1x4x4x5xf32>, tensor<1x7x7x5xf32>, tensor<1x5x5x5xf32>, tensor<1x7x7x5xf32>) {
  %c = arith.constant dense<[[[[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]],
      [[-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000]]],
    [[[-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250]],
      [[0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750], [-0.125, 0.250, 0.625, 1.000, -0.750], [0.500, 0.875, -0.875, -0.500, -0.125], [-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000]],
      [[0.000, 0.375, 0.750, -1.000, -0.625], [0.625, 1.000, -0.750, -0.375, 0.000], [-0.875, -0.500, -0.125, 0.250, 0.625], [-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375]]],
    [[[-0.250, 0.125, 0.500, 0.875, -0.875], [0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125]],
      [[-1.000, -0.625, -0.250, 0.125, 0.500], [-0.375, 0.000, 0.375, 0.750, -1.000], [0.250, 0.625, 1.000, -0.750, -0.375], [0.875, -0.875, -0.500, -0.125, 0.250], [-0.625, -0.250, 0.125, 0.500, 0.875], [0.000, 0.375, 0.750, -1.000, -0.625]],
      [[0.375, 0.750, -1.000, -0.625, -0.250], [1.000, -0.750, -0.375, 0.000, 0.375], [-0.500, -0.125, 0.250, 0.625, 1.000], [0.125, 0.500, 0.875, -0.875, -0.500], [0.750, -1.000, -0.625, -0.250, 0.125], [-0.750, -0.375, 0.000, 0.375, 0.750]]]]> : tensor<3x3x6x5xf32>
  // expected-remark @+1 {{dltune-winograd: left alone: strides or dilations are not 1}}
  %a = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %c : tensor<1x9x9x6xf32>, tensor<3x3x6x5xf32>) outs(%i4 : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  // expected-remark @+1 {{dltune-winograd: left alone: the filter is not a constant}}
  %b = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x6xf32>, tensor<3x3x6x5xf32>) outs(%i7 : tensor<1x7x7x5xf32>) -> tensor<1x7x7x5xf32>
  // expected-remark @+1 {{dltune-winograd: left alone: the conv carries dltune.target}}
  %t = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, dltune.target = "cpu"}
         ins(%x, %c : tensor<1x9x9x6xf32>, tensor<3x3x6x5xf32>) outs(%i7 : tensor<1x7x7x5xf32>) -> tensor<1x7x7x5xf32>
  // expected-remark @+1 {{dltune-winograd: left alone: the filter is not 3x3}}
  %d = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w5 : tensor<1x9x9x6xf32>, tensor<5x5x6x5xf32>) outs(%i5 : tensor<1x5x5x5xf32>) -> tensor<1x5x5x5xf32>
  return %a, %b, %d, %t : tensor<1x4x4x5xf32>, tensor<1x7x7x5xf32>, tensor<1x5x5x5xf32>, tensor<1x7x7x5xf32>
}

// The thresholds: by default fewer than 16 channels stay direct; min-tiles.
// RUN: dltune-opt --dltune-winograd %s 2>&1 >/dev/null | FileCheck %s --check-prefix=FEW
// FEW: remark: dltune-winograd: left alone: fewer than 16 channels
// RUN: dltune-opt --dltune-winograd="min-channels=1 min-tiles=13" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TILES
// TILES: remark: dltune-winograd: left alone: 12 tiles, fewer than 13
// TILES: remark: dltune-winograd: left alone: 8 tiles, fewer than 13

// F(4x4, 3x3): 6x6 input tiles, 36 matmuls.
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4 output-tile=4" %s 2>/dev/null | FileCheck %s --check-prefix=F4
// F4: arith.constant dense_resource<dltune_winograd_filter> : tensor<36x6x5xf32>
// F4: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<36x8x6xf32>, tensor<36x6x5xf32>)

// fuse-epilogues=false leaves the epilogue a generic of its own.
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4 fuse-epilogues=false" %s 2>/dev/null | FileCheck %s --check-prefix=UNFUSED
// UNFUSED-LABEL: func.func @accumulate_epilogue
// UNFUSED: linalg.batch_matmul
// UNFUSED: linalg.generic

// threads=2: each transform is one scf.forall over the n x tilesH tile rows
// (zero_init: batch 2, 4x4 outputs: 4 rows), writing its row's slice.
// RUN: FileCheck %s --check-prefix=THREADS < %t.f2t.mlir
// THREADS-LABEL: func.func @zero_init
// THREADS: scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<16x8x6xf32>)
// THREADS: arith.divui
// THREADS: arith.remui
// THREADS: tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [16, 2, 6] [1, 1, 1]
// THREADS: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}, 0] [16, 2, 6] [1, 1, 1]
// THREADS: dltune.num_threads = 2 : i64
// THREADS: linalg.batch_matmul
// THREADS: scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x4x4x5xf32>)
// THREADS: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, 0, 0] [1, 2, 4, 5] [1, 1, 1, 1]
// THREADS: dltune.num_threads = 2 : i64
// The team size reaches OpenMP: both transforms of @zero_init become
// omp.parallel regions of 2 threads (its matmul runs on 1 here).
// RUN: dltune-opt %s --dltune-winograd="min-channels=1 lanes=4 threads=2" \
// RUN:   --dltune-annotate="default-config=true threads=1" --dltune-apply --dltune-strip \
// RUN:   --dltune-lower-cpu 2>/dev/null | FileCheck %s --check-prefix=OMP
// OMP-LABEL: llvm.func @zero_init
// OMP: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// OMP: omp.parallel num_threads(%[[TWO]] : i32)
// OMP: omp.parallel num_threads(%[[TWO]] : i32)
// OMP-NOT: omp.parallel
// OMP: llvm.return
// RUN: not dltune-opt --dltune-winograd="threads=-1" %s 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: dltune-winograd: lanes, threads, min-channels, min-tiles and large-tile-min-tiles must not be negative
// RUN: not dltune-opt --dltune-winograd="large-tile-min-tiles=-1" %s 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// RUN: not dltune-opt --dltune-winograd="output-tile=3" %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: dltune-winograd: output-tile must be 0 (per convolution), 2 or 4, got 3
