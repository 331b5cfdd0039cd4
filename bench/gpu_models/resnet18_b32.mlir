#loc1 = loc(unknown)
#loc2 = loc("resnet18.onnx":17:0)
#loc3 = loc("resnet18.onnx":18:0)
#loc4 = loc("resnet18.onnx":19:0)
#loc5 = loc("resnet18.onnx":20:0)
#loc6 = loc("resnet18.onnx":21:0)
#loc7 = loc("resnet18.onnx":22:0)
#loc8 = loc("resnet18.onnx":23:0)
#loc9 = loc("resnet18.onnx":24:0)
#loc10 = loc("resnet18.onnx":25:0)
#loc11 = loc("resnet18.onnx":26:0)
#loc12 = loc("resnet18.onnx":27:0)
#loc13 = loc("resnet18.onnx":28:0)
#loc14 = loc("resnet18.onnx":29:0)
#loc15 = loc("resnet18.onnx":30:0)
#loc16 = loc("resnet18.onnx":31:0)
#loc17 = loc("resnet18.onnx":32:0)
#loc18 = loc("resnet18.onnx":33:0)
#loc19 = loc("resnet18.onnx":34:0)
#loc20 = loc("resnet18.onnx":35:0)
#loc21 = loc("resnet18.onnx":36:0)
#loc22 = loc("resnet18.onnx":37:0)
#loc23 = loc("resnet18.onnx":38:0)
#loc24 = loc("resnet18.onnx":39:0)
#loc25 = loc("resnet18.onnx":40:0)
#loc26 = loc("resnet18.onnx":41:0)
#loc27 = loc("resnet18.onnx":42:0)
#loc28 = loc("resnet18.onnx":43:0)
#loc29 = loc("resnet18.onnx":44:0)
#loc30 = loc("resnet18.onnx":45:0)
#loc31 = loc("resnet18.onnx":46:0)
#loc32 = loc("resnet18.onnx":47:0)
#loc33 = loc("resnet18.onnx":48:0)
#loc34 = loc("resnet18.onnx":49:0)
#loc35 = loc("resnet18.onnx":50:0)
#loc36 = loc("resnet18.onnx":51:0)
#loc37 = loc("resnet18.onnx":52:0)
#loc38 = loc("resnet18.onnx":53:0)
#loc39 = loc("resnet18.onnx":54:0)
#loc40 = loc("resnet18.onnx":55:0)
#loc41 = loc("resnet18.onnx":56:0)
#loc42 = loc("resnet18.onnx":57:0)
#loc43 = loc("resnet18.onnx":58:0)
#loc44 = loc("resnet18.onnx":59:0)
#loc45 = loc("resnet18.onnx":60:0)
#loc46 = loc("resnet18.onnx":61:0)
#loc47 = loc("resnet18.onnx":62:0)
#loc48 = loc("resnet18.onnx":63:0)
#loc50 = loc("resnet18.onnx":65:0)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#loc51 = loc("/conv1/Conv"(#loc2))
#loc52 = loc("/relu/Relu"(#loc3))
#loc53 = loc("/maxpool/MaxPool"(#loc4))
#loc54 = loc("/layer1/layer1.0/conv1/Conv"(#loc5))
#loc55 = loc("/layer1/layer1.0/relu/Relu"(#loc6))
#loc56 = loc("/layer1/layer1.0/conv2/Conv"(#loc7))
#loc57 = loc("/layer1/layer1.0/Add"(#loc8))
#loc58 = loc("/layer1/layer1.0/relu_1/Relu"(#loc9))
#loc59 = loc("/layer1/layer1.1/conv1/Conv"(#loc10))
#loc60 = loc("/layer1/layer1.1/relu/Relu"(#loc11))
#loc61 = loc("/layer1/layer1.1/conv2/Conv"(#loc12))
#loc62 = loc("/layer1/layer1.1/Add"(#loc13))
#loc63 = loc("/layer1/layer1.1/relu_1/Relu"(#loc14))
#loc64 = loc("/layer2/layer2.0/conv1/Conv"(#loc15))
#loc65 = loc("/layer2/layer2.0/relu/Relu"(#loc16))
#loc66 = loc("/layer2/layer2.0/conv2/Conv"(#loc17))
#loc67 = loc("/layer2/layer2.0/downsample/downsample.0/Conv"(#loc18))
#loc68 = loc("/layer2/layer2.0/Add"(#loc19))
#loc69 = loc("/layer2/layer2.0/relu_1/Relu"(#loc20))
#loc70 = loc("/layer2/layer2.1/conv1/Conv"(#loc21))
#loc71 = loc("/layer2/layer2.1/relu/Relu"(#loc22))
#loc72 = loc("/layer2/layer2.1/conv2/Conv"(#loc23))
#loc73 = loc("/layer2/layer2.1/Add"(#loc24))
#loc74 = loc("/layer2/layer2.1/relu_1/Relu"(#loc25))
#loc75 = loc("/layer3/layer3.0/conv1/Conv"(#loc26))
#loc76 = loc("/layer3/layer3.0/relu/Relu"(#loc27))
#loc77 = loc("/layer3/layer3.0/conv2/Conv"(#loc28))
#loc78 = loc("/layer3/layer3.0/downsample/downsample.0/Conv"(#loc29))
#loc79 = loc("/layer3/layer3.0/Add"(#loc30))
#loc80 = loc("/layer3/layer3.0/relu_1/Relu"(#loc31))
#loc81 = loc("/layer3/layer3.1/conv1/Conv"(#loc32))
#loc82 = loc("/layer3/layer3.1/relu/Relu"(#loc33))
#loc83 = loc("/layer3/layer3.1/conv2/Conv"(#loc34))
#loc84 = loc("/layer3/layer3.1/Add"(#loc35))
#loc85 = loc("/layer3/layer3.1/relu_1/Relu"(#loc36))
#loc86 = loc("/layer4/layer4.0/conv1/Conv"(#loc37))
#loc87 = loc("/layer4/layer4.0/relu/Relu"(#loc38))
#loc88 = loc("/layer4/layer4.0/conv2/Conv"(#loc39))
#loc89 = loc("/layer4/layer4.0/downsample/downsample.0/Conv"(#loc40))
#loc90 = loc("/layer4/layer4.0/Add"(#loc41))
#loc91 = loc("/layer4/layer4.0/relu_1/Relu"(#loc42))
#loc92 = loc("/layer4/layer4.1/conv1/Conv"(#loc43))
#loc93 = loc("/layer4/layer4.1/relu/Relu"(#loc44))
#loc94 = loc("/layer4/layer4.1/conv2/Conv"(#loc45))
#loc95 = loc("/layer4/layer4.1/Add"(#loc46))
#loc96 = loc("/layer4/layer4.1/relu_1/Relu"(#loc47))
#loc97 = loc("/avgpool/GlobalAveragePool"(#loc48))
#loc99 = loc("/fc/Gemm"(#loc50))
module {
  func.func @main(%arg0: tensor<32x3x224x224xf32> {onnx.name = "input"} loc(unknown)) -> (tensor<32x1000xf32> {onnx.name = "output"}) {
    %cst = arith.constant dense<6.802721088e-03> : tensor<7x7x3x64xf32> loc(#loc51)
    %0 = tensor.empty() : tensor<32x224x224x3xf32> loc(#loc51)
    %transposed = linalg.transpose ins(%arg0 : tensor<32x3x224x224xf32>) outs(%0 : tensor<32x224x224x3xf32>) permutation = [0, 2, 3, 1]  loc(#loc51)
    %cst_0 = arith.constant 0.000000e+00 : f32 loc(#loc51)
    %padded = tensor.pad %transposed low[0, 3, 3, 0] high[0, 3, 3, 0] {
    ^bb0(%arg1: index loc("/conv1/Conv"(#loc2)), %arg2: index loc("/conv1/Conv"(#loc2)), %arg3: index loc("/conv1/Conv"(#loc2)), %arg4: index loc("/conv1/Conv"(#loc2))):
      tensor.yield %cst_0 : f32 loc(#loc51)
    } : tensor<32x224x224x3xf32> to tensor<32x230x230x3xf32> loc(#loc51)
    %1 = tensor.empty() : tensor<32x112x112x64xf32> loc(#loc51)
    %cst_1 = arith.constant 0.000000e+00 : f32 loc(#loc51)
    %2 = linalg.fill ins(%cst_1 : f32) outs(%1 : tensor<32x112x112x64xf32>) -> tensor<32x112x112x64xf32> loc(#loc51)
    %3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %cst : tensor<32x230x230x3xf32>, tensor<7x7x3x64xf32>) outs(%2 : tensor<32x112x112x64xf32>) -> tensor<32x112x112x64xf32> loc(#loc51)
    %cst_2 = arith.constant dense<0.000000000e+00> : tensor<64xf32> loc(#loc51)
    %4 = tensor.empty() : tensor<32x112x112x64xf32> loc(#loc51)
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %cst_2 : tensor<32x112x112x64xf32>, tensor<64xf32>) outs(%4 : tensor<32x112x112x64xf32>) {
    ^bb0(%in: f32 loc("/conv1/Conv"(#loc2)), %in_100: f32 loc("/conv1/Conv"(#loc2)), %out: f32 loc("/conv1/Conv"(#loc2))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc51)
      linalg.yield %165 : f32 loc(#loc51)
    } -> tensor<32x112x112x64xf32> loc(#loc51)
    %6 = tensor.empty() : tensor<32x112x112x64xf32> loc(#loc52)
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<32x112x112x64xf32>) outs(%6 : tensor<32x112x112x64xf32>) {
    ^bb0(%in: f32 loc("/conv1/Conv"(#loc2)), %out: f32 loc("/relu/Relu"(#loc3))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc52)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc52)
      linalg.yield %165 : f32 loc(#loc52)
    } -> tensor<32x112x112x64xf32> loc(#loc52)
    %cst_3 = arith.constant 0xFF800000 : f32 loc(#loc53)
    %padded_4 = tensor.pad %7 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/maxpool/MaxPool"(#loc4)), %arg2: index loc("/maxpool/MaxPool"(#loc4)), %arg3: index loc("/maxpool/MaxPool"(#loc4)), %arg4: index loc("/maxpool/MaxPool"(#loc4))):
      tensor.yield %cst_3 : f32 loc(#loc53)
    } : tensor<32x112x112x64xf32> to tensor<32x114x114x64xf32> loc(#loc53)
    %8 = tensor.empty() : tensor<3x3xf32> loc(#loc53)
    %9 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc53)
    %cst_5 = arith.constant 0xFF800000 : f32 loc(#loc53)
    %10 = linalg.fill ins(%cst_5 : f32) outs(%9 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc53)
    %11 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded_4, %8 : tensor<32x114x114x64xf32>, tensor<3x3xf32>) outs(%10 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc53)
    %cst_6 = arith.constant dense<1.736111111e-03> : tensor<3x3x64x64xf32> loc(#loc54)
    %cst_7 = arith.constant 0.000000e+00 : f32 loc(#loc54)
    %padded_8 = tensor.pad %11 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer1/layer1.0/conv1/Conv"(#loc5)), %arg2: index loc("/layer1/layer1.0/conv1/Conv"(#loc5)), %arg3: index loc("/layer1/layer1.0/conv1/Conv"(#loc5)), %arg4: index loc("/layer1/layer1.0/conv1/Conv"(#loc5))):
      tensor.yield %cst_7 : f32 loc(#loc54)
    } : tensor<32x56x56x64xf32> to tensor<32x58x58x64xf32> loc(#loc54)
    %12 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc54)
    %cst_9 = arith.constant 0.000000e+00 : f32 loc(#loc54)
    %13 = linalg.fill ins(%cst_9 : f32) outs(%12 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc54)
    %14 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_8, %cst_6 : tensor<32x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%13 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc54)
    %cst_10 = arith.constant dense<0.000000000e+00> : tensor<64xf32> loc(#loc54)
    %15 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc54)
    %16 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %cst_10 : tensor<32x56x56x64xf32>, tensor<64xf32>) outs(%15 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.0/conv1/Conv"(#loc5)), %in_100: f32 loc("/layer1/layer1.0/conv1/Conv"(#loc5)), %out: f32 loc("/layer1/layer1.0/conv1/Conv"(#loc5))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc54)
      linalg.yield %165 : f32 loc(#loc54)
    } -> tensor<32x56x56x64xf32> loc(#loc54)
    %17 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc55)
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<32x56x56x64xf32>) outs(%17 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.0/conv1/Conv"(#loc5)), %out: f32 loc("/layer1/layer1.0/relu/Relu"(#loc6))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc55)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc55)
      linalg.yield %165 : f32 loc(#loc55)
    } -> tensor<32x56x56x64xf32> loc(#loc55)
    %cst_11 = arith.constant dense<1.736111111e-03> : tensor<3x3x64x64xf32> loc(#loc56)
    %cst_12 = arith.constant 0.000000e+00 : f32 loc(#loc56)
    %padded_13 = tensor.pad %18 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer1/layer1.0/conv2/Conv"(#loc7)), %arg2: index loc("/layer1/layer1.0/conv2/Conv"(#loc7)), %arg3: index loc("/layer1/layer1.0/conv2/Conv"(#loc7)), %arg4: index loc("/layer1/layer1.0/conv2/Conv"(#loc7))):
      tensor.yield %cst_12 : f32 loc(#loc56)
    } : tensor<32x56x56x64xf32> to tensor<32x58x58x64xf32> loc(#loc56)
    %19 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc56)
    %cst_14 = arith.constant 0.000000e+00 : f32 loc(#loc56)
    %20 = linalg.fill ins(%cst_14 : f32) outs(%19 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc56)
    %21 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_13, %cst_11 : tensor<32x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%20 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc56)
    %cst_15 = arith.constant dense<0.000000000e+00> : tensor<64xf32> loc(#loc56)
    %22 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc56)
    %23 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %cst_15 : tensor<32x56x56x64xf32>, tensor<64xf32>) outs(%22 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.0/conv2/Conv"(#loc7)), %in_100: f32 loc("/layer1/layer1.0/conv2/Conv"(#loc7)), %out: f32 loc("/layer1/layer1.0/conv2/Conv"(#loc7))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc56)
      linalg.yield %165 : f32 loc(#loc56)
    } -> tensor<32x56x56x64xf32> loc(#loc56)
    %24 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc57)
    %25 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %11 : tensor<32x56x56x64xf32>, tensor<32x56x56x64xf32>) outs(%24 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.0/conv2/Conv"(#loc7)), %in_100: f32 loc("/maxpool/MaxPool"(#loc4)), %out: f32 loc("/layer1/layer1.0/Add"(#loc8))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc57)
      linalg.yield %165 : f32 loc(#loc57)
    } -> tensor<32x56x56x64xf32> loc(#loc57)
    %26 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc58)
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<32x56x56x64xf32>) outs(%26 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.0/Add"(#loc8)), %out: f32 loc("/layer1/layer1.0/relu_1/Relu"(#loc9))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc58)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc58)
      linalg.yield %165 : f32 loc(#loc58)
    } -> tensor<32x56x56x64xf32> loc(#loc58)
    %cst_16 = arith.constant dense<1.736111111e-03> : tensor<3x3x64x64xf32> loc(#loc59)
    %cst_17 = arith.constant 0.000000e+00 : f32 loc(#loc59)
    %padded_18 = tensor.pad %27 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer1/layer1.1/conv1/Conv"(#loc10)), %arg2: index loc("/layer1/layer1.1/conv1/Conv"(#loc10)), %arg3: index loc("/layer1/layer1.1/conv1/Conv"(#loc10)), %arg4: index loc("/layer1/layer1.1/conv1/Conv"(#loc10))):
      tensor.yield %cst_17 : f32 loc(#loc59)
    } : tensor<32x56x56x64xf32> to tensor<32x58x58x64xf32> loc(#loc59)
    %28 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc59)
    %cst_19 = arith.constant 0.000000e+00 : f32 loc(#loc59)
    %29 = linalg.fill ins(%cst_19 : f32) outs(%28 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc59)
    %30 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_18, %cst_16 : tensor<32x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%29 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc59)
    %cst_20 = arith.constant dense<0.000000000e+00> : tensor<64xf32> loc(#loc59)
    %31 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc59)
    %32 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %cst_20 : tensor<32x56x56x64xf32>, tensor<64xf32>) outs(%31 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.1/conv1/Conv"(#loc10)), %in_100: f32 loc("/layer1/layer1.1/conv1/Conv"(#loc10)), %out: f32 loc("/layer1/layer1.1/conv1/Conv"(#loc10))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc59)
      linalg.yield %165 : f32 loc(#loc59)
    } -> tensor<32x56x56x64xf32> loc(#loc59)
    %33 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc60)
    %34 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32 : tensor<32x56x56x64xf32>) outs(%33 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.1/conv1/Conv"(#loc10)), %out: f32 loc("/layer1/layer1.1/relu/Relu"(#loc11))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc60)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc60)
      linalg.yield %165 : f32 loc(#loc60)
    } -> tensor<32x56x56x64xf32> loc(#loc60)
    %cst_21 = arith.constant dense<1.736111111e-03> : tensor<3x3x64x64xf32> loc(#loc61)
    %cst_22 = arith.constant 0.000000e+00 : f32 loc(#loc61)
    %padded_23 = tensor.pad %34 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer1/layer1.1/conv2/Conv"(#loc12)), %arg2: index loc("/layer1/layer1.1/conv2/Conv"(#loc12)), %arg3: index loc("/layer1/layer1.1/conv2/Conv"(#loc12)), %arg4: index loc("/layer1/layer1.1/conv2/Conv"(#loc12))):
      tensor.yield %cst_22 : f32 loc(#loc61)
    } : tensor<32x56x56x64xf32> to tensor<32x58x58x64xf32> loc(#loc61)
    %35 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc61)
    %cst_24 = arith.constant 0.000000e+00 : f32 loc(#loc61)
    %36 = linalg.fill ins(%cst_24 : f32) outs(%35 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc61)
    %37 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_23, %cst_21 : tensor<32x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%36 : tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc61)
    %cst_25 = arith.constant dense<0.000000000e+00> : tensor<64xf32> loc(#loc61)
    %38 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc61)
    %39 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%37, %cst_25 : tensor<32x56x56x64xf32>, tensor<64xf32>) outs(%38 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.1/conv2/Conv"(#loc12)), %in_100: f32 loc("/layer1/layer1.1/conv2/Conv"(#loc12)), %out: f32 loc("/layer1/layer1.1/conv2/Conv"(#loc12))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc61)
      linalg.yield %165 : f32 loc(#loc61)
    } -> tensor<32x56x56x64xf32> loc(#loc61)
    %40 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc62)
    %41 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %27 : tensor<32x56x56x64xf32>, tensor<32x56x56x64xf32>) outs(%40 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.1/conv2/Conv"(#loc12)), %in_100: f32 loc("/layer1/layer1.0/relu_1/Relu"(#loc9)), %out: f32 loc("/layer1/layer1.1/Add"(#loc13))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc62)
      linalg.yield %165 : f32 loc(#loc62)
    } -> tensor<32x56x56x64xf32> loc(#loc62)
    %42 = tensor.empty() : tensor<32x56x56x64xf32> loc(#loc63)
    %43 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41 : tensor<32x56x56x64xf32>) outs(%42 : tensor<32x56x56x64xf32>) {
    ^bb0(%in: f32 loc("/layer1/layer1.1/Add"(#loc13)), %out: f32 loc("/layer1/layer1.1/relu_1/Relu"(#loc14))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc63)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc63)
      linalg.yield %165 : f32 loc(#loc63)
    } -> tensor<32x56x56x64xf32> loc(#loc63)
    %cst_26 = arith.constant dense<1.736111111e-03> : tensor<3x3x64x128xf32> loc(#loc64)
    %cst_27 = arith.constant 0.000000e+00 : f32 loc(#loc64)
    %padded_28 = tensor.pad %43 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer2/layer2.0/conv1/Conv"(#loc15)), %arg2: index loc("/layer2/layer2.0/conv1/Conv"(#loc15)), %arg3: index loc("/layer2/layer2.0/conv1/Conv"(#loc15)), %arg4: index loc("/layer2/layer2.0/conv1/Conv"(#loc15))):
      tensor.yield %cst_27 : f32 loc(#loc64)
    } : tensor<32x56x56x64xf32> to tensor<32x58x58x64xf32> loc(#loc64)
    %44 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc64)
    %cst_29 = arith.constant 0.000000e+00 : f32 loc(#loc64)
    %45 = linalg.fill ins(%cst_29 : f32) outs(%44 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc64)
    %46 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded_28, %cst_26 : tensor<32x58x58x64xf32>, tensor<3x3x64x128xf32>) outs(%45 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc64)
    %cst_30 = arith.constant dense<0.000000000e+00> : tensor<128xf32> loc(#loc64)
    %47 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc64)
    %48 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%46, %cst_30 : tensor<32x28x28x128xf32>, tensor<128xf32>) outs(%47 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.0/conv1/Conv"(#loc15)), %in_100: f32 loc("/layer2/layer2.0/conv1/Conv"(#loc15)), %out: f32 loc("/layer2/layer2.0/conv1/Conv"(#loc15))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc64)
      linalg.yield %165 : f32 loc(#loc64)
    } -> tensor<32x28x28x128xf32> loc(#loc64)
    %49 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc65)
    %50 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48 : tensor<32x28x28x128xf32>) outs(%49 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.0/conv1/Conv"(#loc15)), %out: f32 loc("/layer2/layer2.0/relu/Relu"(#loc16))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc65)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc65)
      linalg.yield %165 : f32 loc(#loc65)
    } -> tensor<32x28x28x128xf32> loc(#loc65)
    %cst_31 = arith.constant dense<8.680555556e-04> : tensor<3x3x128x128xf32> loc(#loc66)
    %cst_32 = arith.constant 0.000000e+00 : f32 loc(#loc66)
    %padded_33 = tensor.pad %50 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer2/layer2.0/conv2/Conv"(#loc17)), %arg2: index loc("/layer2/layer2.0/conv2/Conv"(#loc17)), %arg3: index loc("/layer2/layer2.0/conv2/Conv"(#loc17)), %arg4: index loc("/layer2/layer2.0/conv2/Conv"(#loc17))):
      tensor.yield %cst_32 : f32 loc(#loc66)
    } : tensor<32x28x28x128xf32> to tensor<32x30x30x128xf32> loc(#loc66)
    %51 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc66)
    %cst_34 = arith.constant 0.000000e+00 : f32 loc(#loc66)
    %52 = linalg.fill ins(%cst_34 : f32) outs(%51 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc66)
    %53 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_33, %cst_31 : tensor<32x30x30x128xf32>, tensor<3x3x128x128xf32>) outs(%52 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc66)
    %cst_35 = arith.constant dense<0.000000000e+00> : tensor<128xf32> loc(#loc66)
    %54 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc66)
    %55 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%53, %cst_35 : tensor<32x28x28x128xf32>, tensor<128xf32>) outs(%54 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.0/conv2/Conv"(#loc17)), %in_100: f32 loc("/layer2/layer2.0/conv2/Conv"(#loc17)), %out: f32 loc("/layer2/layer2.0/conv2/Conv"(#loc17))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc66)
      linalg.yield %165 : f32 loc(#loc66)
    } -> tensor<32x28x28x128xf32> loc(#loc66)
    %cst_36 = arith.constant dense<1.562500000e-02> : tensor<1x1x64x128xf32> loc(#loc67)
    %56 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc67)
    %cst_37 = arith.constant 0.000000e+00 : f32 loc(#loc67)
    %57 = linalg.fill ins(%cst_37 : f32) outs(%56 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc67)
    %58 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%43, %cst_36 : tensor<32x56x56x64xf32>, tensor<1x1x64x128xf32>) outs(%57 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc67)
    %cst_38 = arith.constant dense<0.000000000e+00> : tensor<128xf32> loc(#loc67)
    %59 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc67)
    %60 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%58, %cst_38 : tensor<32x28x28x128xf32>, tensor<128xf32>) outs(%59 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.0/downsample/downsample.0/Conv"(#loc18)), %in_100: f32 loc("/layer2/layer2.0/downsample/downsample.0/Conv"(#loc18)), %out: f32 loc("/layer2/layer2.0/downsample/downsample.0/Conv"(#loc18))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc67)
      linalg.yield %165 : f32 loc(#loc67)
    } -> tensor<32x28x28x128xf32> loc(#loc67)
    %61 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc68)
    %62 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55, %60 : tensor<32x28x28x128xf32>, tensor<32x28x28x128xf32>) outs(%61 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.0/conv2/Conv"(#loc17)), %in_100: f32 loc("/layer2/layer2.0/downsample/downsample.0/Conv"(#loc18)), %out: f32 loc("/layer2/layer2.0/Add"(#loc19))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc68)
      linalg.yield %165 : f32 loc(#loc68)
    } -> tensor<32x28x28x128xf32> loc(#loc68)
    %63 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc69)
    %64 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%62 : tensor<32x28x28x128xf32>) outs(%63 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.0/Add"(#loc19)), %out: f32 loc("/layer2/layer2.0/relu_1/Relu"(#loc20))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc69)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc69)
      linalg.yield %165 : f32 loc(#loc69)
    } -> tensor<32x28x28x128xf32> loc(#loc69)
    %cst_39 = arith.constant dense<8.680555556e-04> : tensor<3x3x128x128xf32> loc(#loc70)
    %cst_40 = arith.constant 0.000000e+00 : f32 loc(#loc70)
    %padded_41 = tensor.pad %64 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer2/layer2.1/conv1/Conv"(#loc21)), %arg2: index loc("/layer2/layer2.1/conv1/Conv"(#loc21)), %arg3: index loc("/layer2/layer2.1/conv1/Conv"(#loc21)), %arg4: index loc("/layer2/layer2.1/conv1/Conv"(#loc21))):
      tensor.yield %cst_40 : f32 loc(#loc70)
    } : tensor<32x28x28x128xf32> to tensor<32x30x30x128xf32> loc(#loc70)
    %65 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc70)
    %cst_42 = arith.constant 0.000000e+00 : f32 loc(#loc70)
    %66 = linalg.fill ins(%cst_42 : f32) outs(%65 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc70)
    %67 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_41, %cst_39 : tensor<32x30x30x128xf32>, tensor<3x3x128x128xf32>) outs(%66 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc70)
    %cst_43 = arith.constant dense<0.000000000e+00> : tensor<128xf32> loc(#loc70)
    %68 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc70)
    %69 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%67, %cst_43 : tensor<32x28x28x128xf32>, tensor<128xf32>) outs(%68 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.1/conv1/Conv"(#loc21)), %in_100: f32 loc("/layer2/layer2.1/conv1/Conv"(#loc21)), %out: f32 loc("/layer2/layer2.1/conv1/Conv"(#loc21))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc70)
      linalg.yield %165 : f32 loc(#loc70)
    } -> tensor<32x28x28x128xf32> loc(#loc70)
    %70 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc71)
    %71 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%69 : tensor<32x28x28x128xf32>) outs(%70 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.1/conv1/Conv"(#loc21)), %out: f32 loc("/layer2/layer2.1/relu/Relu"(#loc22))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc71)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc71)
      linalg.yield %165 : f32 loc(#loc71)
    } -> tensor<32x28x28x128xf32> loc(#loc71)
    %cst_44 = arith.constant dense<8.680555556e-04> : tensor<3x3x128x128xf32> loc(#loc72)
    %cst_45 = arith.constant 0.000000e+00 : f32 loc(#loc72)
    %padded_46 = tensor.pad %71 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer2/layer2.1/conv2/Conv"(#loc23)), %arg2: index loc("/layer2/layer2.1/conv2/Conv"(#loc23)), %arg3: index loc("/layer2/layer2.1/conv2/Conv"(#loc23)), %arg4: index loc("/layer2/layer2.1/conv2/Conv"(#loc23))):
      tensor.yield %cst_45 : f32 loc(#loc72)
    } : tensor<32x28x28x128xf32> to tensor<32x30x30x128xf32> loc(#loc72)
    %72 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc72)
    %cst_47 = arith.constant 0.000000e+00 : f32 loc(#loc72)
    %73 = linalg.fill ins(%cst_47 : f32) outs(%72 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc72)
    %74 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_46, %cst_44 : tensor<32x30x30x128xf32>, tensor<3x3x128x128xf32>) outs(%73 : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32> loc(#loc72)
    %cst_48 = arith.constant dense<0.000000000e+00> : tensor<128xf32> loc(#loc72)
    %75 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc72)
    %76 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%74, %cst_48 : tensor<32x28x28x128xf32>, tensor<128xf32>) outs(%75 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.1/conv2/Conv"(#loc23)), %in_100: f32 loc("/layer2/layer2.1/conv2/Conv"(#loc23)), %out: f32 loc("/layer2/layer2.1/conv2/Conv"(#loc23))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc72)
      linalg.yield %165 : f32 loc(#loc72)
    } -> tensor<32x28x28x128xf32> loc(#loc72)
    %77 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc73)
    %78 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76, %64 : tensor<32x28x28x128xf32>, tensor<32x28x28x128xf32>) outs(%77 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.1/conv2/Conv"(#loc23)), %in_100: f32 loc("/layer2/layer2.0/relu_1/Relu"(#loc20)), %out: f32 loc("/layer2/layer2.1/Add"(#loc24))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc73)
      linalg.yield %165 : f32 loc(#loc73)
    } -> tensor<32x28x28x128xf32> loc(#loc73)
    %79 = tensor.empty() : tensor<32x28x28x128xf32> loc(#loc74)
    %80 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%78 : tensor<32x28x28x128xf32>) outs(%79 : tensor<32x28x28x128xf32>) {
    ^bb0(%in: f32 loc("/layer2/layer2.1/Add"(#loc24)), %out: f32 loc("/layer2/layer2.1/relu_1/Relu"(#loc25))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc74)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc74)
      linalg.yield %165 : f32 loc(#loc74)
    } -> tensor<32x28x28x128xf32> loc(#loc74)
    %cst_49 = arith.constant dense<8.680555556e-04> : tensor<3x3x128x256xf32> loc(#loc75)
    %cst_50 = arith.constant 0.000000e+00 : f32 loc(#loc75)
    %padded_51 = tensor.pad %80 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer3/layer3.0/conv1/Conv"(#loc26)), %arg2: index loc("/layer3/layer3.0/conv1/Conv"(#loc26)), %arg3: index loc("/layer3/layer3.0/conv1/Conv"(#loc26)), %arg4: index loc("/layer3/layer3.0/conv1/Conv"(#loc26))):
      tensor.yield %cst_50 : f32 loc(#loc75)
    } : tensor<32x28x28x128xf32> to tensor<32x30x30x128xf32> loc(#loc75)
    %81 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc75)
    %cst_52 = arith.constant 0.000000e+00 : f32 loc(#loc75)
    %82 = linalg.fill ins(%cst_52 : f32) outs(%81 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc75)
    %83 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded_51, %cst_49 : tensor<32x30x30x128xf32>, tensor<3x3x128x256xf32>) outs(%82 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc75)
    %cst_53 = arith.constant dense<0.000000000e+00> : tensor<256xf32> loc(#loc75)
    %84 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc75)
    %85 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83, %cst_53 : tensor<32x14x14x256xf32>, tensor<256xf32>) outs(%84 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.0/conv1/Conv"(#loc26)), %in_100: f32 loc("/layer3/layer3.0/conv1/Conv"(#loc26)), %out: f32 loc("/layer3/layer3.0/conv1/Conv"(#loc26))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc75)
      linalg.yield %165 : f32 loc(#loc75)
    } -> tensor<32x14x14x256xf32> loc(#loc75)
    %86 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc76)
    %87 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%85 : tensor<32x14x14x256xf32>) outs(%86 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.0/conv1/Conv"(#loc26)), %out: f32 loc("/layer3/layer3.0/relu/Relu"(#loc27))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc76)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc76)
      linalg.yield %165 : f32 loc(#loc76)
    } -> tensor<32x14x14x256xf32> loc(#loc76)
    %cst_54 = arith.constant dense<4.340277778e-04> : tensor<3x3x256x256xf32> loc(#loc77)
    %cst_55 = arith.constant 0.000000e+00 : f32 loc(#loc77)
    %padded_56 = tensor.pad %87 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer3/layer3.0/conv2/Conv"(#loc28)), %arg2: index loc("/layer3/layer3.0/conv2/Conv"(#loc28)), %arg3: index loc("/layer3/layer3.0/conv2/Conv"(#loc28)), %arg4: index loc("/layer3/layer3.0/conv2/Conv"(#loc28))):
      tensor.yield %cst_55 : f32 loc(#loc77)
    } : tensor<32x14x14x256xf32> to tensor<32x16x16x256xf32> loc(#loc77)
    %88 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc77)
    %cst_57 = arith.constant 0.000000e+00 : f32 loc(#loc77)
    %89 = linalg.fill ins(%cst_57 : f32) outs(%88 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc77)
    %90 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_56, %cst_54 : tensor<32x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%89 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc77)
    %cst_58 = arith.constant dense<0.000000000e+00> : tensor<256xf32> loc(#loc77)
    %91 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc77)
    %92 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%90, %cst_58 : tensor<32x14x14x256xf32>, tensor<256xf32>) outs(%91 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.0/conv2/Conv"(#loc28)), %in_100: f32 loc("/layer3/layer3.0/conv2/Conv"(#loc28)), %out: f32 loc("/layer3/layer3.0/conv2/Conv"(#loc28))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc77)
      linalg.yield %165 : f32 loc(#loc77)
    } -> tensor<32x14x14x256xf32> loc(#loc77)
    %cst_59 = arith.constant dense<7.812500000e-03> : tensor<1x1x128x256xf32> loc(#loc78)
    %93 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc78)
    %cst_60 = arith.constant 0.000000e+00 : f32 loc(#loc78)
    %94 = linalg.fill ins(%cst_60 : f32) outs(%93 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc78)
    %95 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%80, %cst_59 : tensor<32x28x28x128xf32>, tensor<1x1x128x256xf32>) outs(%94 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc78)
    %cst_61 = arith.constant dense<0.000000000e+00> : tensor<256xf32> loc(#loc78)
    %96 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc78)
    %97 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%95, %cst_61 : tensor<32x14x14x256xf32>, tensor<256xf32>) outs(%96 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.0/downsample/downsample.0/Conv"(#loc29)), %in_100: f32 loc("/layer3/layer3.0/downsample/downsample.0/Conv"(#loc29)), %out: f32 loc("/layer3/layer3.0/downsample/downsample.0/Conv"(#loc29))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc78)
      linalg.yield %165 : f32 loc(#loc78)
    } -> tensor<32x14x14x256xf32> loc(#loc78)
    %98 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc79)
    %99 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%92, %97 : tensor<32x14x14x256xf32>, tensor<32x14x14x256xf32>) outs(%98 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.0/conv2/Conv"(#loc28)), %in_100: f32 loc("/layer3/layer3.0/downsample/downsample.0/Conv"(#loc29)), %out: f32 loc("/layer3/layer3.0/Add"(#loc30))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc79)
      linalg.yield %165 : f32 loc(#loc79)
    } -> tensor<32x14x14x256xf32> loc(#loc79)
    %100 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc80)
    %101 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%99 : tensor<32x14x14x256xf32>) outs(%100 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.0/Add"(#loc30)), %out: f32 loc("/layer3/layer3.0/relu_1/Relu"(#loc31))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc80)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc80)
      linalg.yield %165 : f32 loc(#loc80)
    } -> tensor<32x14x14x256xf32> loc(#loc80)
    %cst_62 = arith.constant dense<4.340277778e-04> : tensor<3x3x256x256xf32> loc(#loc81)
    %cst_63 = arith.constant 0.000000e+00 : f32 loc(#loc81)
    %padded_64 = tensor.pad %101 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer3/layer3.1/conv1/Conv"(#loc32)), %arg2: index loc("/layer3/layer3.1/conv1/Conv"(#loc32)), %arg3: index loc("/layer3/layer3.1/conv1/Conv"(#loc32)), %arg4: index loc("/layer3/layer3.1/conv1/Conv"(#loc32))):
      tensor.yield %cst_63 : f32 loc(#loc81)
    } : tensor<32x14x14x256xf32> to tensor<32x16x16x256xf32> loc(#loc81)
    %102 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc81)
    %cst_65 = arith.constant 0.000000e+00 : f32 loc(#loc81)
    %103 = linalg.fill ins(%cst_65 : f32) outs(%102 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc81)
    %104 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_64, %cst_62 : tensor<32x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%103 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc81)
    %cst_66 = arith.constant dense<0.000000000e+00> : tensor<256xf32> loc(#loc81)
    %105 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc81)
    %106 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%104, %cst_66 : tensor<32x14x14x256xf32>, tensor<256xf32>) outs(%105 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.1/conv1/Conv"(#loc32)), %in_100: f32 loc("/layer3/layer3.1/conv1/Conv"(#loc32)), %out: f32 loc("/layer3/layer3.1/conv1/Conv"(#loc32))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc81)
      linalg.yield %165 : f32 loc(#loc81)
    } -> tensor<32x14x14x256xf32> loc(#loc81)
    %107 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc82)
    %108 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%106 : tensor<32x14x14x256xf32>) outs(%107 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.1/conv1/Conv"(#loc32)), %out: f32 loc("/layer3/layer3.1/relu/Relu"(#loc33))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc82)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc82)
      linalg.yield %165 : f32 loc(#loc82)
    } -> tensor<32x14x14x256xf32> loc(#loc82)
    %cst_67 = arith.constant dense<4.340277778e-04> : tensor<3x3x256x256xf32> loc(#loc83)
    %cst_68 = arith.constant 0.000000e+00 : f32 loc(#loc83)
    %padded_69 = tensor.pad %108 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer3/layer3.1/conv2/Conv"(#loc34)), %arg2: index loc("/layer3/layer3.1/conv2/Conv"(#loc34)), %arg3: index loc("/layer3/layer3.1/conv2/Conv"(#loc34)), %arg4: index loc("/layer3/layer3.1/conv2/Conv"(#loc34))):
      tensor.yield %cst_68 : f32 loc(#loc83)
    } : tensor<32x14x14x256xf32> to tensor<32x16x16x256xf32> loc(#loc83)
    %109 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc83)
    %cst_70 = arith.constant 0.000000e+00 : f32 loc(#loc83)
    %110 = linalg.fill ins(%cst_70 : f32) outs(%109 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc83)
    %111 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_69, %cst_67 : tensor<32x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%110 : tensor<32x14x14x256xf32>) -> tensor<32x14x14x256xf32> loc(#loc83)
    %cst_71 = arith.constant dense<0.000000000e+00> : tensor<256xf32> loc(#loc83)
    %112 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc83)
    %113 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%111, %cst_71 : tensor<32x14x14x256xf32>, tensor<256xf32>) outs(%112 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.1/conv2/Conv"(#loc34)), %in_100: f32 loc("/layer3/layer3.1/conv2/Conv"(#loc34)), %out: f32 loc("/layer3/layer3.1/conv2/Conv"(#loc34))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc83)
      linalg.yield %165 : f32 loc(#loc83)
    } -> tensor<32x14x14x256xf32> loc(#loc83)
    %114 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc84)
    %115 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%113, %101 : tensor<32x14x14x256xf32>, tensor<32x14x14x256xf32>) outs(%114 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.1/conv2/Conv"(#loc34)), %in_100: f32 loc("/layer3/layer3.0/relu_1/Relu"(#loc31)), %out: f32 loc("/layer3/layer3.1/Add"(#loc35))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc84)
      linalg.yield %165 : f32 loc(#loc84)
    } -> tensor<32x14x14x256xf32> loc(#loc84)
    %116 = tensor.empty() : tensor<32x14x14x256xf32> loc(#loc85)
    %117 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%115 : tensor<32x14x14x256xf32>) outs(%116 : tensor<32x14x14x256xf32>) {
    ^bb0(%in: f32 loc("/layer3/layer3.1/Add"(#loc35)), %out: f32 loc("/layer3/layer3.1/relu_1/Relu"(#loc36))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc85)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc85)
      linalg.yield %165 : f32 loc(#loc85)
    } -> tensor<32x14x14x256xf32> loc(#loc85)
    %cst_72 = arith.constant dense<4.340277778e-04> : tensor<3x3x256x512xf32> loc(#loc86)
    %cst_73 = arith.constant 0.000000e+00 : f32 loc(#loc86)
    %padded_74 = tensor.pad %117 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer4/layer4.0/conv1/Conv"(#loc37)), %arg2: index loc("/layer4/layer4.0/conv1/Conv"(#loc37)), %arg3: index loc("/layer4/layer4.0/conv1/Conv"(#loc37)), %arg4: index loc("/layer4/layer4.0/conv1/Conv"(#loc37))):
      tensor.yield %cst_73 : f32 loc(#loc86)
    } : tensor<32x14x14x256xf32> to tensor<32x16x16x256xf32> loc(#loc86)
    %118 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc86)
    %cst_75 = arith.constant 0.000000e+00 : f32 loc(#loc86)
    %119 = linalg.fill ins(%cst_75 : f32) outs(%118 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc86)
    %120 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded_74, %cst_72 : tensor<32x16x16x256xf32>, tensor<3x3x256x512xf32>) outs(%119 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc86)
    %cst_76 = arith.constant dense<0.000000000e+00> : tensor<512xf32> loc(#loc86)
    %121 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc86)
    %122 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%120, %cst_76 : tensor<32x7x7x512xf32>, tensor<512xf32>) outs(%121 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.0/conv1/Conv"(#loc37)), %in_100: f32 loc("/layer4/layer4.0/conv1/Conv"(#loc37)), %out: f32 loc("/layer4/layer4.0/conv1/Conv"(#loc37))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc86)
      linalg.yield %165 : f32 loc(#loc86)
    } -> tensor<32x7x7x512xf32> loc(#loc86)
    %123 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc87)
    %124 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%122 : tensor<32x7x7x512xf32>) outs(%123 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.0/conv1/Conv"(#loc37)), %out: f32 loc("/layer4/layer4.0/relu/Relu"(#loc38))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc87)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc87)
      linalg.yield %165 : f32 loc(#loc87)
    } -> tensor<32x7x7x512xf32> loc(#loc87)
    %cst_77 = arith.constant dense<2.170138889e-04> : tensor<3x3x512x512xf32> loc(#loc88)
    %cst_78 = arith.constant 0.000000e+00 : f32 loc(#loc88)
    %padded_79 = tensor.pad %124 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer4/layer4.0/conv2/Conv"(#loc39)), %arg2: index loc("/layer4/layer4.0/conv2/Conv"(#loc39)), %arg3: index loc("/layer4/layer4.0/conv2/Conv"(#loc39)), %arg4: index loc("/layer4/layer4.0/conv2/Conv"(#loc39))):
      tensor.yield %cst_78 : f32 loc(#loc88)
    } : tensor<32x7x7x512xf32> to tensor<32x9x9x512xf32> loc(#loc88)
    %125 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc88)
    %cst_80 = arith.constant 0.000000e+00 : f32 loc(#loc88)
    %126 = linalg.fill ins(%cst_80 : f32) outs(%125 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc88)
    %127 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_79, %cst_77 : tensor<32x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%126 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc88)
    %cst_81 = arith.constant dense<0.000000000e+00> : tensor<512xf32> loc(#loc88)
    %128 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc88)
    %129 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%127, %cst_81 : tensor<32x7x7x512xf32>, tensor<512xf32>) outs(%128 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.0/conv2/Conv"(#loc39)), %in_100: f32 loc("/layer4/layer4.0/conv2/Conv"(#loc39)), %out: f32 loc("/layer4/layer4.0/conv2/Conv"(#loc39))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc88)
      linalg.yield %165 : f32 loc(#loc88)
    } -> tensor<32x7x7x512xf32> loc(#loc88)
    %cst_82 = arith.constant dense<3.906250000e-03> : tensor<1x1x256x512xf32> loc(#loc89)
    %130 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc89)
    %cst_83 = arith.constant 0.000000e+00 : f32 loc(#loc89)
    %131 = linalg.fill ins(%cst_83 : f32) outs(%130 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc89)
    %132 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%117, %cst_82 : tensor<32x14x14x256xf32>, tensor<1x1x256x512xf32>) outs(%131 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc89)
    %cst_84 = arith.constant dense<0.000000000e+00> : tensor<512xf32> loc(#loc89)
    %133 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc89)
    %134 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%132, %cst_84 : tensor<32x7x7x512xf32>, tensor<512xf32>) outs(%133 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.0/downsample/downsample.0/Conv"(#loc40)), %in_100: f32 loc("/layer4/layer4.0/downsample/downsample.0/Conv"(#loc40)), %out: f32 loc("/layer4/layer4.0/downsample/downsample.0/Conv"(#loc40))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc89)
      linalg.yield %165 : f32 loc(#loc89)
    } -> tensor<32x7x7x512xf32> loc(#loc89)
    %135 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc90)
    %136 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%129, %134 : tensor<32x7x7x512xf32>, tensor<32x7x7x512xf32>) outs(%135 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.0/conv2/Conv"(#loc39)), %in_100: f32 loc("/layer4/layer4.0/downsample/downsample.0/Conv"(#loc40)), %out: f32 loc("/layer4/layer4.0/Add"(#loc41))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc90)
      linalg.yield %165 : f32 loc(#loc90)
    } -> tensor<32x7x7x512xf32> loc(#loc90)
    %137 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc91)
    %138 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%136 : tensor<32x7x7x512xf32>) outs(%137 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.0/Add"(#loc41)), %out: f32 loc("/layer4/layer4.0/relu_1/Relu"(#loc42))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc91)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc91)
      linalg.yield %165 : f32 loc(#loc91)
    } -> tensor<32x7x7x512xf32> loc(#loc91)
    %cst_85 = arith.constant dense<2.170138889e-04> : tensor<3x3x512x512xf32> loc(#loc92)
    %cst_86 = arith.constant 0.000000e+00 : f32 loc(#loc92)
    %padded_87 = tensor.pad %138 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer4/layer4.1/conv1/Conv"(#loc43)), %arg2: index loc("/layer4/layer4.1/conv1/Conv"(#loc43)), %arg3: index loc("/layer4/layer4.1/conv1/Conv"(#loc43)), %arg4: index loc("/layer4/layer4.1/conv1/Conv"(#loc43))):
      tensor.yield %cst_86 : f32 loc(#loc92)
    } : tensor<32x7x7x512xf32> to tensor<32x9x9x512xf32> loc(#loc92)
    %139 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc92)
    %cst_88 = arith.constant 0.000000e+00 : f32 loc(#loc92)
    %140 = linalg.fill ins(%cst_88 : f32) outs(%139 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc92)
    %141 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_87, %cst_85 : tensor<32x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%140 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc92)
    %cst_89 = arith.constant dense<0.000000000e+00> : tensor<512xf32> loc(#loc92)
    %142 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc92)
    %143 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%141, %cst_89 : tensor<32x7x7x512xf32>, tensor<512xf32>) outs(%142 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.1/conv1/Conv"(#loc43)), %in_100: f32 loc("/layer4/layer4.1/conv1/Conv"(#loc43)), %out: f32 loc("/layer4/layer4.1/conv1/Conv"(#loc43))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc92)
      linalg.yield %165 : f32 loc(#loc92)
    } -> tensor<32x7x7x512xf32> loc(#loc92)
    %144 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc93)
    %145 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%143 : tensor<32x7x7x512xf32>) outs(%144 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.1/conv1/Conv"(#loc43)), %out: f32 loc("/layer4/layer4.1/relu/Relu"(#loc44))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc93)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc93)
      linalg.yield %165 : f32 loc(#loc93)
    } -> tensor<32x7x7x512xf32> loc(#loc93)
    %cst_90 = arith.constant dense<2.170138889e-04> : tensor<3x3x512x512xf32> loc(#loc94)
    %cst_91 = arith.constant 0.000000e+00 : f32 loc(#loc94)
    %padded_92 = tensor.pad %145 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index loc("/layer4/layer4.1/conv2/Conv"(#loc45)), %arg2: index loc("/layer4/layer4.1/conv2/Conv"(#loc45)), %arg3: index loc("/layer4/layer4.1/conv2/Conv"(#loc45)), %arg4: index loc("/layer4/layer4.1/conv2/Conv"(#loc45))):
      tensor.yield %cst_91 : f32 loc(#loc94)
    } : tensor<32x7x7x512xf32> to tensor<32x9x9x512xf32> loc(#loc94)
    %146 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc94)
    %cst_93 = arith.constant 0.000000e+00 : f32 loc(#loc94)
    %147 = linalg.fill ins(%cst_93 : f32) outs(%146 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc94)
    %148 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded_92, %cst_90 : tensor<32x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%147 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32> loc(#loc94)
    %cst_94 = arith.constant dense<0.000000000e+00> : tensor<512xf32> loc(#loc94)
    %149 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc94)
    %150 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%148, %cst_94 : tensor<32x7x7x512xf32>, tensor<512xf32>) outs(%149 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.1/conv2/Conv"(#loc45)), %in_100: f32 loc("/layer4/layer4.1/conv2/Conv"(#loc45)), %out: f32 loc("/layer4/layer4.1/conv2/Conv"(#loc45))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc94)
      linalg.yield %165 : f32 loc(#loc94)
    } -> tensor<32x7x7x512xf32> loc(#loc94)
    %151 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc95)
    %152 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%150, %138 : tensor<32x7x7x512xf32>, tensor<32x7x7x512xf32>) outs(%151 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.1/conv2/Conv"(#loc45)), %in_100: f32 loc("/layer4/layer4.0/relu_1/Relu"(#loc42)), %out: f32 loc("/layer4/layer4.1/Add"(#loc46))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc95)
      linalg.yield %165 : f32 loc(#loc95)
    } -> tensor<32x7x7x512xf32> loc(#loc95)
    %153 = tensor.empty() : tensor<32x7x7x512xf32> loc(#loc96)
    %154 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%152 : tensor<32x7x7x512xf32>) outs(%153 : tensor<32x7x7x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.1/Add"(#loc46)), %out: f32 loc("/layer4/layer4.1/relu_1/Relu"(#loc47))):
      %cst_100 = arith.constant 0.000000e+00 : f32 loc(#loc96)
      %165 = arith.maximumf %in, %cst_100 fastmath<nsz> : f32 loc(#loc96)
      linalg.yield %165 : f32 loc(#loc96)
    } -> tensor<32x7x7x512xf32> loc(#loc96)
    %155 = tensor.empty() : tensor<32x512xf32> loc(#loc97)
    %cst_95 = arith.constant 0.000000e+00 : f32 loc(#loc97)
    %156 = linalg.fill ins(%cst_95 : f32) outs(%155 : tensor<32x512xf32>) -> tensor<32x512xf32> loc(#loc97)
    %157 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction", "reduction", "parallel"]} ins(%154 : tensor<32x7x7x512xf32>) outs(%156 : tensor<32x512xf32>) {
    ^bb0(%in: f32 loc("/layer4/layer4.1/relu_1/Relu"(#loc47)), %out: f32 loc("/avgpool/GlobalAveragePool"(#loc48))):
      %165 = arith.addf %in, %out : f32 loc(#loc97)
      linalg.yield %165 : f32 loc(#loc97)
    } -> tensor<32x512xf32> loc(#loc97)
    %158 = tensor.empty() : tensor<32x512xf32> loc(#loc97)
    %159 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%157 : tensor<32x512xf32>) outs(%158 : tensor<32x512xf32>) {
    ^bb0(%in: f32 loc("/avgpool/GlobalAveragePool"(#loc48)), %out: f32 loc("/avgpool/GlobalAveragePool"(#loc48))):
      %cst_100 = arith.constant 4.900000e+01 : f32 loc(#loc97)
      %165 = arith.divf %in, %cst_100 : f32 loc(#loc97)
      linalg.yield %165 : f32 loc(#loc97)
    } -> tensor<32x512xf32> loc(#loc97)
    %expanded = tensor.expand_shape %159 [[0], [1, 2, 3]] output_shape [32, 512, 1, 1] : tensor<32x512xf32> into tensor<32x512x1x1xf32> loc(#loc97)
    %collapsed = tensor.collapse_shape %expanded [[0], [1, 2, 3]] : tensor<32x512x1x1xf32> into tensor<32x512xf32> loc(#loc98)
    %cst_96 = arith.constant dense<1.000000000e-03> : tensor<1000x512xf32> loc(#loc99)
    %cst_97 = arith.constant dense<1.000000000e-03> : tensor<512x1000xf32> loc(#loc99)
    %160 = tensor.empty() : tensor<32x1000xf32> loc(#loc99)
    %cst_98 = arith.constant 0.000000e+00 : f32 loc(#loc99)
    %161 = linalg.fill ins(%cst_98 : f32) outs(%160 : tensor<32x1000xf32>) -> tensor<32x1000xf32> loc(#loc99)
    %162 = linalg.matmul ins(%collapsed, %cst_97 : tensor<32x512xf32>, tensor<512x1000xf32>) outs(%161 : tensor<32x1000xf32>) -> tensor<32x1000xf32> loc(#loc99)
    %cst_99 = arith.constant dense<0.000000000e+00> : tensor<1000xf32> loc(#loc99)
    %163 = tensor.empty() : tensor<32x1000xf32> loc(#loc99)
    %164 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%162, %cst_99 : tensor<32x1000xf32>, tensor<1000xf32>) outs(%163 : tensor<32x1000xf32>) {
    ^bb0(%in: f32 loc("/fc/Gemm"(#loc50)), %in_100: f32 loc("/fc/Gemm"(#loc50)), %out: f32 loc("/fc/Gemm"(#loc50))):
      %165 = arith.addf %in, %in_100 : f32 loc(#loc99)
      linalg.yield %165 : f32 loc(#loc99)
    } -> tensor<32x1000xf32> loc(#loc99)
    return %164 : tensor<32x1000xf32> loc(#loc1)
  } loc(#loc1)
} loc(#loc)
#loc = loc("resnet18.onnx":0:0)
#loc49 = loc("resnet18.onnx":64:0)
#loc98 = loc("/Flatten"(#loc49))

