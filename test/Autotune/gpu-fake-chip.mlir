// `dltune tune --chip sm_80` builds the spaces for that chip, not for the
// driver's (the fake driver says compute capability 9.0): a large f16
// matmul's space has cc = 80 and no warpgroup MMA, whose default on 9.0
// would not build for sm_80. Before 2026-11-30 the spaces followed the
// driver (or 9.0) whatever --chip said. No GPU was involved.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --chip sm_80 --trials 1 --confirm-top 0 --db %t/a.db --work-dir %t/a -o %t/sm80.mlir --quiet
// RUN: FileCheck %s --check-prefix=SM80 < %t/sm80.mlir
// SM80: wgmma = [0]}
// SM80-SAME: cc = 80
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --confirm-top 0 --db %t/b.db --work-dir %t/b -o %t/driver.mlir --quiet
// RUN: FileCheck %s --check-prefix=DRIVER < %t/driver.mlir
// DRIVER: wgmma = [0, 1]}
// DRIVER-SAME: cc = 90

func.func @f(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
