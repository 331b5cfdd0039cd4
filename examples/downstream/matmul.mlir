// The example's input: one small matmul (tuned in seconds) and its ReLU,
// which dltune fuses into the matmul's loops (one tuning task).
func.func @main(%a: tensor<96x64xf32>, %b: tensor<64x128xf32>) -> tensor<96x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<96x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<96x128xf32>) -> tensor<96x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<96x64xf32>, tensor<64x128xf32>)
                     outs(%init : tensor<96x128xf32>) -> tensor<96x128xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<96x128xf32>) outs(%empty : tensor<96x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<96x128xf32>
  return %relu : tensor<96x128xf32>
}
