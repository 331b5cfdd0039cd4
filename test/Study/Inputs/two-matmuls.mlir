// Two tasks for the study tests (test/Study/study.test).
func.func @first(%a: tensor<32x64xf32>, %b: tensor<64x48xf32>, %c: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x48xf32>) outs(%c : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %0 : tensor<32x48xf32>
}
func.func @second(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
