// One task for the study tests (test/Study/study.test).
func.func @one(%a: tensor<32x32xf32>, %b: tensor<32x48xf32>, %c: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x48xf32>) outs(%c : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %0 : tensor<32x48xf32>
}
