// A convolution and a matmul: a model for bench/suspension_live.py.
func.func @main(%i: tensor<1x30x30x32xf32>, %w: tensor<3x3x32x64xf32>, %a: tensor<64x1024xf32>, %b: tensor<1024x64xf32>) -> (tensor<1x28x28x64xf32>, tensor<64x64xf32>) {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x28x28x64xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %w : tensor<1x30x30x32xf32>, tensor<3x3x32x64xf32>) outs(%f0 : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x64xf32>) outs(%f1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0, %1 : tensor<1x28x28x64xf32>, tensor<64x64xf32>
}
