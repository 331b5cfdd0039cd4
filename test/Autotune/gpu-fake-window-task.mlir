// REQUIRES: ptxas
// A depthwise convolution's GPU tuning task is the kernel the model runs:
// the pad it reads (read in place with a bounds check by the lowering) and
// its output's fill (the accumulators' start value) go into the task with
// it, so that the window kernel is timed reading the unpadded input and
// never loading its output. Host side only, against %fake_cuda (nothing
// computes: every candidate is a wrong result).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --db %t/t.db --work-dir %t/w 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: linalg.depthwise_conv_2d_nhwc_hwc 1x12x12x32,3x3x32,1x10x10x32: trial 1/1
// RUN: cat %t/w/*/kernel-*.mlir | FileCheck %s
// The unpadded input and the weights are the arguments.
// CHECK: func.func @dltune_task(%{{.*}}: tensor<1x10x10x32xf32>, %{{.*}}: tensor<3x3x32xf32>) -> tensor<1x10x10x32xf32>
// CHECK: tensor.pad
// CHECK: linalg.fill
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc

func.func @depthwise(%x: tensor<1x10x10x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x10x10x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x10x10x32xf32> to tensor<1x12x12x32xf32>
  %e = tensor.empty() : tensor<1x10x10x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10x10x32xf32>) -> tensor<1x10x10x32xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x12x12x32xf32>, tensor<3x3x32xf32>) outs(%z : tensor<1x10x10x32xf32>) -> tensor<1x10x10x32xf32>
  return %y : tensor<1x10x10x32xf32>
}
