// Two matmuls: a model for bench/suspension_live.py.
func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<128x512xf32>, %d: tensor<512x256xf32>) -> (tensor<256x256xf32>, tensor<128x256xf32>) {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x256xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<128x256xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %1 = linalg.matmul ins(%c, %d : tensor<128x512xf32>, tensor<512x256xf32>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %0, %1 : tensor<256x256xf32>, tensor<128x256xf32>
}
