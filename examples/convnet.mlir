// A small conv net block: 3x3 conv (ResNet-18 layer 2 shape, NHWC), bias-free
// ReLU, 3x3 depthwise conv and 2x2 sum pooling. Each function is one kernel.
func.func @conv3x3(%in: tensor<1x30x30x128xf32>, %w: tensor<3x3x128x128xf32>,
                   %out: tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x30x30x128xf32>, tensor<3x3x128x128xf32>)
         outs(%init : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  return %r : tensor<1x28x28x128xf32>
}

func.func @relu(%x: tensor<1x28x28x128xf32>, %out: tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x28x28x128xf32>) outs(%out : tensor<1x28x28x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x28x28x128xf32>
  return %r : tensor<1x28x28x128xf32>
}

func.func @depthwise3x3(%in: tensor<1x30x30x128xf32>, %w: tensor<3x3x128xf32>,
                        %out: tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x30x30x128xf32>, tensor<3x3x128xf32>)
         outs(%init : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  return %r : tensor<1x28x28x128xf32>
}

func.func @sumpool2x2(%in: tensor<1x28x28x128xf32>, %out: tensor<1x14x14x128xf32>) -> tensor<1x14x14x128xf32> {
  %zero = arith.constant 0.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<1x14x14x128xf32>) -> tensor<1x14x14x128xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%in, %win : tensor<1x28x28x128xf32>, tensor<2x2xf32>)
         outs(%init : tensor<1x14x14x128xf32>) -> tensor<1x14x14x128xf32>
  return %r : tensor<1x14x14x128xf32>
}
