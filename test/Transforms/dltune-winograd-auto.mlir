// By default (output-tile=0) each convolution gets its own F(m x m, 3 x 3):
// m = 4 where its output holds at least large-tile-min-tiles (49) tiles of
// 4 x 4, else m = 2.
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4" %s 2>/dev/null | FileCheck %s
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4 large-tile-min-tiles=36" %s 2>/dev/null | FileCheck %s --check-prefix=LOWER
// RUN: dltune-opt --dltune-winograd="min-channels=1 lanes=4 output-tile=2" %s 2>/dev/null | FileCheck %s --check-prefix=FORCED
// Both choices compute the convolution (checked against the untuned lowering).
// RUN: dltune run %s --entry two_sizes --default-config --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok

// 28 x 28: 7 x 7 = 49 tiles of 4 x 4: F(4x4, 3x3), 36 matmuls over 49 tiles
// (rounded up to 56). 24 x 24: 36 tiles: F(2x2, 3x3), 16 matmuls over 144.
// CHECK-LABEL: func.func @two_sizes
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<36x56x16xf32>, tensor<36x16x16xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<16x144x16xf32>, tensor<16x16x16xf32>)
// LOWER: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<36x56x16xf32>, tensor<36x16x16xf32>)
// LOWER: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<36x40x16xf32>, tensor<36x16x16xf32>)
// FORCED: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<16x200x16xf32>, tensor<16x16x16xf32>)
// FORCED: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<16x144x16xf32>, tensor<16x16x16xf32>)
func.func @two_sizes(%x: tensor<1x30x30x16xf32>, %y: tensor<1x26x26x16xf32>) -> (tensor<1x28x28x16xf32>, tensor<1x24x24x16xf32>) {
  %w = arith.constant dense<0.25> : tensor<3x3x16x16xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x28x28x16xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x28x28x16xf32>) -> tensor<1x28x28x16xf32>
  %a = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x30x30x16xf32>, tensor<3x3x16x16xf32>) outs(%i0 : tensor<1x28x28x16xf32>) -> tensor<1x28x28x16xf32>
  %e1 = tensor.empty() : tensor<1x24x24x16xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x24x24x16xf32>) -> tensor<1x24x24x16xf32>
  %b = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%y, %w : tensor<1x26x26x16xf32>, tensor<3x3x16x16xf32>) outs(%i1 : tensor<1x24x24x16xf32>) -> tensor<1x24x24x16xf32>
  return %a, %b : tensor<1x28x28x16xf32>, tensor<1x24x24x16xf32>
}
