// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu" --verify-diagnostics | FileCheck %s
// RUN: not dltune-opt %s --dltune-annotate="target=tpu" 2>&1 | FileCheck %s --check-prefix=BADTARGET

// BADTARGET: dltune-annotate: target must be cpu or gpu, got 'tpu'

// GPU spaces exist for matmuls only so far; other ops get a remark.
// CHECK-LABEL: func.func @conv
// CHECK-NOT: dltune.space
func.func @conv(%in: tensor<1x16x16x16xf32>, %w: tensor<3x3x16x32xf32>, %out: tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32> {
  // expected-remark @below {{dltune-annotate: left alone: no GPU schedule for this op kind yet}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x16x16x16xf32>, tensor<3x3x16x32xf32>) outs(%out : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  return %r : tensor<1x14x14x32xf32>
}

// -----

// CHECK-LABEL: func.func @batch
// CHECK: linalg.batch_matmul
// CHECK-SAME: dltune.space = #dltune.space<knobs {block_m = pow2<8, 32>, block_n = [8]
// CHECK-SAME: dltune.target = "gpu"
func.func @batch(%a: tensor<2x32x16xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x32x8xf32>) -> tensor<2x32x8xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x32x16xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
  return %r : tensor<2x32x8xf32>
}

// -----

// The GPU kernel's own conditions decide which matmuls get a space: no
// integer matmul, no transposed operand.
// CHECK-LABEL: func.func @integers
// CHECK-NOT: dltune.space
func.func @integers(%a: tensor<64x64xi32>, %b: tensor<64x64xi32>, %c: tensor<64x64xi32>) -> tensor<64x64xi32> {
  // expected-remark @below {{dltune-annotate: left alone: no GPU schedule for this op: A and B must have one float type no wider than C's float type}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xi32>, tensor<64x64xi32>) outs(%c : tensor<64x64xi32>) -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}
