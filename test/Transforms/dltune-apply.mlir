// RUN: dltune-opt %s --split-input-file --dltune-apply | FileCheck %s

// Two-level tiling, FMA contraction and the thread-level scf.forall.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall ({{.*}}) in (2)
// CHECK-COUNT-5: scf.for
// CHECK: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: linalg.matmul
// CHECK: } {dltune.num_threads = 2 : i64}
// CHECK-NOT: dltune.config
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 16, tile_n = 64, tile_k = 16,
                        reg_m = 4, reg_n = 32, unroll = 1, threads = 2, vectorize = 1>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// vectorize = 0 keeps a tiled scalar linalg op; unroll 2 on the k loop.
// CHECK-LABEL: func.func @no_vector
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK: linalg.matmul ins({{.*}} : tensor<2x1xf32>, tensor<1x8xf32>)
// CHECK: linalg.matmul ins({{.*}} : tensor<2x1xf32>, tensor<1x8xf32>)
// CHECK-NOT: vector.
func.func @no_vector(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 4, tile_n = 8, tile_k = 8,
                        reg_m = 2, reg_n = 8, unroll = 2, threads = 1, vectorize = 0>}
       ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Convolutions are decomposed to 1-D and vectorized.
// CHECK-LABEL: func.func @conv
// CHECK-NOT: linalg.conv
// CHECK: vector.fma
func.func @conv(%in: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %out: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
         dltune.config = #dltune.config<tile_oh = 1, tile_ow = 8, reg_ow = 4, tile_f = 16, reg_f = 16,
                                        tile_c = 8, reg_c = 1, unroll = 1, threads = 1, vectorize = 1>}
         ins(%in, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%out : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

// Ops without a config are not touched.
// CHECK-LABEL: func.func @untouched
// CHECK: linalg.matmul ins
func.func @untouched(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
