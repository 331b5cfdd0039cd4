// A task confirmed before is confirmed again when records arrived after
// that confirmation, even by a run that measures nothing new (a study's
// worker stopping a model whose intervals measured without confirming);
// with no newer record it is not.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: dltune tune %s --db r.db --trials 4 --threads 1 --min-time-ms 1 --confirm-top 1 > /dev/null 2> first.log
// RUN: FileCheck %s --check-prefix=CONFIRMED < first.log
// RUN: dltune tune %s --db r.db --trials 8 --threads 1 --min-time-ms 1 --confirm-top 0 > /dev/null 2> more.log
// RUN: not grep -q "confirming the best" more.log
// RUN: dltune tune %s --db r.db --trials 8 --threads 1 --min-time-ms 1 --confirm-top 1 > /dev/null 2> again.log
// RUN: FileCheck %s --check-prefix=CONFIRMED < again.log
// CONFIRMED: confirming the best
// RUN: dltune tune %s --db r.db --trials 8 --threads 1 --min-time-ms 1 --confirm-top 1 > /dev/null 2> same.log
// RUN: not grep -q "confirming the best" same.log
func.func @mm(%a: tensor<32x64xf32>, %b: tensor<64x48xf32>, %c: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x48xf32>) outs(%c : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %0 : tensor<32x48xf32>
}
