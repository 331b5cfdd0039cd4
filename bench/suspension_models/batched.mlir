// A batch matmul and a matmul: a model for bench/suspension_live.py.
func.func @main(%a: tensor<8x128x64xf32>, %b: tensor<8x64x128xf32>, %c: tensor<512x64xf32>, %d: tensor<64x512xf32>) -> (tensor<8x128x128xf32>, tensor<512x512xf32>) {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x128x128xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<8x128x64xf32>, tensor<8x64x128xf32>) outs(%f0 : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  %e1 = tensor.empty() : tensor<512x512xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %1 = linalg.matmul ins(%c, %d : tensor<512x64xf32>, tensor<64x512xf32>) outs(%f1 : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0, %1 : tensor<8x128x128xf32>, tensor<512x512xf32>
}
