// A small matmul for tuning tests (fast to build and to run).
func.func @mm(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>)
                     outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>)
                     outs(%r : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}
