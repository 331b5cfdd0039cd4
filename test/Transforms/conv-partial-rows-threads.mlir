// Partial register rows (109 = 27 x 4 + 1) with two threads splitting the
// filters, 16 each: each thread's filter block is whole (tile_f = reg_f =
// 16, tile_c = C), so nothing is copied into panels, and the last column is
// its own register tile; the result matches the untuned lowering.
// RUN: dltune-opt %s --dltune-apply | FileCheck %s
// RUN: dltune run %s --entry stem109_threads --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
// CHECK-LABEL: func.func @stem109_threads
// CHECK: scf.forall
// CHECK: scf.for %{{.*}} = %c0 to %c108 step %c4
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: tensor.extract_slice {{.*}}[0, 0, 108, 0] [1, 1, 1, 16]
// CHECK: vector.fma {{.*}} : vector<16xf32>
func.func @stem109_threads(%i: tensor<1x224x224x3xf32>, %f: tensor<7x7x3x32xf32>, %bias: tensor<32xf32>) -> tensor<1x109x109x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x109x109x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x109x109x32xf32>) -> tensor<1x109x109x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>,
         dltune.config = #dltune.config<pack_f = 1, reg_c = 1, reg_f = 16, reg_ow = 4, threads = 2, tile_c = 3,
                                        tile_f = 16, tile_oh = 1, tile_ow = 109, unroll = 1, vectorize = 1>}
      ins(%i, %f : tensor<1x224x224x3xf32>, tensor<7x7x3x32xf32>) outs(%acc : tensor<1x109x109x32xf32>) -> tensor<1x109x109x32xf32>
  %e1 = tensor.empty() : tensor<1x109x109x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x109x109x32xf32>, tensor<32xf32>) outs(%e1 : tensor<1x109x109x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x109x109x32xf32>
  return %r : tensor<1x109x109x32xf32>
}
