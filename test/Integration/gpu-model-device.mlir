// On a machine with an NVIDIA GPU and driver: a small model - constant
// weights, a tuned matmul reading them, a padded buffer, a convolution left
// to the element-wise mapping, a result the function allocates - runs on the
// GPU and matches the untuned CPU lowering. Its host code keeps nothing in
// host memory (test/Transforms/dltune-lower-gpu-model.mlir).
// REQUIRES: cuda-driver
// RUN: dltune run %s --entry model --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry model_default --target gpu --default-config --check --repeat 3 --json | FileCheck %s
// CHECK: "check":"ok"
func.func @model(%x: tensor<64x32xf32>) -> tensor<1x10x10x8xf32> {
  %w = arith.constant dense<0.25> : tensor<32x64xf32>
  %k = arith.constant dense<0.5> : tensor<3x3x1x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 2, thread_n = 2,
                                                      tile_k = 8, vector = 1, pad = 0, stages = 1, interleave = 0>}
       ins(%x, %w : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %img = tensor.expand_shape %mm [[0, 1, 2], [3]] output_shape [1, 8, 8, 64] : tensor<64x64xf32> into tensor<1x8x8x64xf32>
  %one = tensor.extract_slice %img[0, 0, 0, 0] [1, 8, 8, 1] [1, 1, 1, 1] : tensor<1x8x8x64xf32> to tensor<1x8x8x1xf32>
  %padded = tensor.pad %one low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %l: index, %m: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x1xf32> to tensor<1x12x12x1xf32>
  %e2 = tensor.empty() : tensor<1x10x10x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x10x10x8xf32>) -> tensor<1x10x10x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%padded, %k : tensor<1x12x12x1xf32>, tensor<3x3x1x8xf32>) outs(%acc : tensor<1x10x10x8xf32>) -> tensor<1x10x10x8xf32>
  return %conv : tensor<1x10x10x8xf32>
}

// The same with dltune's default GPU configuration for the matmul.
func.func @model_default(%x: tensor<64x32xf32>) -> tensor<1x10x10x8xf32> {
  %w = arith.constant dense<0.25> : tensor<32x64xf32>
  %k = arith.constant dense<0.5> : tensor<3x3x1x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %img = tensor.expand_shape %mm [[0, 1, 2], [3]] output_shape [1, 8, 8, 64] : tensor<64x64xf32> into tensor<1x8x8x64xf32>
  %one = tensor.extract_slice %img[0, 0, 0, 0] [1, 8, 8, 1] [1, 1, 1, 1] : tensor<1x8x8x64xf32> to tensor<1x8x8x1xf32>
  %padded = tensor.pad %one low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %l: index, %m: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x1xf32> to tensor<1x12x12x1xf32>
  %e2 = tensor.empty() : tensor<1x10x10x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x10x10x8xf32>) -> tensor<1x10x10x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%padded, %k : tensor<1x12x12x1xf32>, tensor<3x3x1x8xf32>) outs(%acc : tensor<1x10x10x8xf32>) -> tensor<1x10x10x8xf32>
  return %conv : tensor<1x10x10x8xf32>
}
