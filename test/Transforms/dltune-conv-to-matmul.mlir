// RUN: dltune-opt %s --dltune-conv-to-matmul=m-align=64 | FileCheck %s
// RUN: dltune-opt %s --dltune-conv-to-matmul | FileCheck %s --check-prefix=DEFAULT
// RUN: dltune-opt %s --dltune-conv-to-matmul="m-align=1 n-align=1 k-align=1" | FileCheck %s --check-prefix=EXACT
// RUN: not dltune-opt %s --dltune-conv-to-matmul="k-align=0" 2>&1 | FileCheck %s --check-prefix=BAD
// The rewritten convolutions compute what the convolutions do (CPU
// lowering, random inputs, every entry):
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-conv-to-matmul -o %t/gemm.mlir
// RUN: dltune-opt %s --dltune-conv-to-matmul="m-align=1 n-align=1 k-align=1" -o %t/exact.mlir
// RUN: dltune run %s --entry stem --repeat 1 --warmup 0 --save-output %t/stem.ref.npy
// RUN: dltune run %t/gemm.mlir --entry stem --repeat 1 --warmup 0 --save-output %t/stem.gemm.npy
// RUN: dltune run %t/exact.mlir --entry stem --repeat 1 --warmup 0 --save-output %t/stem.exact.npy
// RUN: %python %S/Inputs/allclose.py %t/stem.ref.npy %t/stem.gemm.npy %t/stem.exact.npy
// RUN: dltune run %s --entry pointwise --repeat 1 --warmup 0 --save-output %t/pw.ref.npy
// RUN: dltune run %t/gemm.mlir --entry pointwise --repeat 1 --warmup 0 --save-output %t/pw.gemm.npy
// RUN: dltune run %t/exact.mlir --entry pointwise --repeat 1 --warmup 0 --save-output %t/pw.exact.npy
// RUN: %python %S/Inputs/allclose.py %t/pw.ref.npy %t/pw.gemm.npy %t/pw.exact.npy
// RUN: dltune run %s --entry dilated_accumulate --repeat 1 --warmup 0 --save-output %t/da.ref.npy
// RUN: dltune run %t/gemm.mlir --entry dilated_accumulate --repeat 1 --warmup 0 --save-output %t/da.gemm.npy
// RUN: dltune run %t/exact.mlir --entry dilated_accumulate --repeat 1 --warmup 0 --save-output %t/da.exact.npy
// RUN: %python %S/Inputs/allclose.py %t/da.ref.npy %t/da.gemm.npy %t/da.exact.npy
// RUN: dltune run %s --entry strided_pointwise --repeat 1 --warmup 0 --save-output %t/sp.ref.npy
// RUN: dltune run %t/gemm.mlir --entry strided_pointwise --repeat 1 --warmup 0 --save-output %t/sp.gemm.npy
// RUN: %python %S/Inputs/allclose.py %t/sp.ref.npy %t/sp.gemm.npy

// BAD: dltune-conv-to-matmul: m-align, n-align and k-align must be at least 1

// A MobileNet-like stem: 3x3 stride 2 on 3 channels. M = 2*7*7 = 98 -> 128
// (with m-align=64; by default M stays 98: the GPU kernel clamps its last
// rows), K = 27 -> 32, F = 24 -> 32; the patches are gathered, padding rows
// and columns are zero, the fill stays a fill, the result is cropped.
// DEFAULT-LABEL: func.func @stem
// DEFAULT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<98x32xf32>, tensor<32x32xf32>) outs(%{{.*}} : tensor<98x32xf32>)
// CHECK-LABEL: func.func @stem
// CHECK: %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<128x32xf32>)
// CHECK: linalg.index 0
// CHECK: tensor.extract %{{.*}} : tensor<2x15x15x3xf32>
// CHECK: %[[B:.*]] = tensor.pad %{{.*}} low[0, 0] high[5, 8]
// CHECK: } : tensor<27x24xf32> to tensor<32x32xf32>
// CHECK: %[[C:.*]] = linalg.fill ins(%{{.*}}) outs(%{{.*}} : tensor<128x32xf32>)
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<128x32xf32>, tensor<32x32xf32>) outs(%[[C]] : tensor<128x32xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[P]][0, 0] [98, 24] [1, 1]
// CHECK: tensor.expand_shape %[[S]] {{\[\[}}0, 1, 2], [3]] output_shape [2, 7, 7, 24]
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// EXACT-LABEL: func.func @stem
// EXACT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<98x27xf32>, tensor<27x24xf32>) outs(%{{.*}} : tensor<98x24xf32>)
func.func @stem(%x: tensor<2x15x15x3xf32>, %w: tensor<3x3x3x24xf32>) -> tensor<2x7x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x24xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x24xf32>) -> tensor<2x7x7x24xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w : tensor<2x15x15x3xf32>, tensor<3x3x3x24xf32>) outs(%init : tensor<2x7x7x24xf32>) -> tensor<2x7x7x24xf32>
  return %r : tensor<2x7x7x24xf32>
}

// 1x1 stride 1: the pixels are A (a view; with m-align=64 padded 49 -> 64
// rows), nothing gathered. By default A is the view itself.
// DEFAULT-LABEL: func.func @pointwise
// DEFAULT-NOT: tensor.pad
// DEFAULT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<49x16xf32>, tensor<16x32xf32>)
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: linalg.generic
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<1x7x7x16xf32> into tensor<49x16xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x16xf32>, tensor<16x32xf32>)
// EXACT-LABEL: func.func @pointwise
// EXACT-NOT: tensor.pad
// EXACT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<49x16xf32>, tensor<16x32xf32>) outs(%{{.*}} : tensor<49x32xf32>)
func.func @pointwise(%x: tensor<1x7x7x16xf32>, %w: tensor<1x1x16x32xf32>) -> tensor<1x7x7x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x7x7x16xf32>, tensor<1x1x16x32xf32>) outs(%init : tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// A dilated convolution accumulating into an argument: the init is
// collapsed and padded, not refilled.
// CHECK-LABEL: func.func @dilated_accumulate
// CHECK: tensor.collapse_shape %arg2
// CHECK: linalg.matmul
func.func @dilated_accumulate(%x: tensor<1x12x10x5xf32>, %w: tensor<3x2x5x6xf32>, %acc: tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 2]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x12x10x5xf32>, tensor<3x2x5x6xf32>) outs(%acc : tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
  return %r : tensor<1x8x8x6xf32>
}

// 1x1 with stride 2 (ResNet's downsampling shortcut) gathers.
// CHECK-LABEL: func.func @strided_pointwise
// CHECK: linalg.generic
// CHECK: linalg.matmul
func.func @strided_pointwise(%x: tensor<1x8x8x8xf32>, %w: tensor<1x1x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w : tensor<1x8x8x8xf32>, tensor<1x1x8x16xf32>) outs(%init : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %r : tensor<1x4x4x16xf32>
}

// Convolutions a schedule already claims are left alone.
// CHECK-LABEL: func.func @claimed
// CHECK: linalg.conv_2d_nhwc_hwcf {{{.*}}dltune.target = "cpu"
func.func @claimed(%x: tensor<1x7x7x16xf32>, %w: tensor<1x1x16x32xf32>, %acc: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dltune.target = "cpu", dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x7x7x16xf32>, tensor<1x1x16x32xf32>) outs(%acc : tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}
