// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu" --verify-diagnostics | FileCheck %s
// RUN: not dltune-opt %s --dltune-annotate="target=tpu" 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu default-config=true" 2>/dev/null | FileCheck %s --check-prefix=DEFAULT

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

// -----

// Depthwise convolutions and pooling: window kernels (GpuWindowKernel.h).
// Channels a thread in vectors of up to 16 bytes dividing C, output
// columns a thread, threads a block. By default the widest vector, one
// column, and 64 threads where 256 would leave under two blocks an SM
// (7 x 7 x 96 / 4 = 1,176 items on 132 SMs).
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-SAME: dltune.space = #dltune.space<knobs {vector = pow2<1, 4>, outputs = pow2<1, 4>, block_threads = pow2<32, 512>}, params {D_c = 96, D_ow = 7, elem_bytes = 4, sms = 132}
// CHECK-SAME: dltune.target = "gpu"
// DEFAULT-LABEL: func.func @depthwise
// DEFAULT: dltune.config = #dltune.config<block_threads = 64, outputs = 1, vector = 4>
func.func @depthwise(%x: tensor<1x9x9x96xf32>, %w: tensor<3x3x96xf32>, %out: tensor<1x7x7x96xf32>) -> tensor<1x7x7x96xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x96xf32>, tensor<3x3x96xf32>) outs(%out : tensor<1x7x7x96xf32>) -> tensor<1x7x7x96xf32>
  return %r : tensor<1x7x7x96xf32>
}

// -----

// f16: vectors of up to 8; C = 20 takes at most 4. A large grid keeps 256
// threads a block.
// CHECK-LABEL: func.func @pool_f16
// CHECK: linalg.pooling_nhwc_max
// CHECK-SAME: dltune.space = #dltune.space<knobs {vector = pow2<1, 4>, outputs = pow2<1, 4>, block_threads = pow2<32, 512>}, params {D_c = 20, D_ow = 56, elem_bytes = 2, sms = 132}
// DEFAULT-LABEL: func.func @pool_f16
// DEFAULT: dltune.config = #dltune.config<block_threads = 256, outputs = 1, vector = 4>
func.func @pool_f16(%x: tensor<8x113x113x20xf16>, %k: tensor<3x3xf16>, %out: tensor<8x56x56x20xf16>) -> tensor<8x56x56x20xf16> {
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %k : tensor<8x113x113x20xf16>, tensor<3x3xf16>) outs(%out : tensor<8x56x56x20xf16>) -> tensor<8x56x56x20xf16>
  return %r : tensor<8x56x56x20xf16>
}
