// REQUIRES: ptxas
// The GPU tuning flow on the host side, against %fake_cuda - a libcuda
// stand-in that keeps "device" memory on the host and never runs a kernel:
// references, cubin builds for the chip given, measure workers that upload
// the arguments, call the entry and copy the outputs back all go through,
// and every candidate ends as a wrong result because nothing computed it.
// No GPU was involved.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune-opt %s --dltune-annotate=target=gpu --dltune-autotune="db=%t/g.db target=gpu trials=2 chip=sm_80 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/g.db | FileCheck %s
// `dltune run --target gpu` the same way: it runs, times with events, and
// its check fails because the fake computes nothing.
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda not dltune run %s --entry mm --target gpu --default-config --check --json --repeat 2 | FileCheck %s --check-prefix=CLI

// CHECK: linalg.matmul {{.*}} 2 2 - wrong_result=2
// CLI: {"check":"failed","entry":"mm",{{.*}}"repeats":2
func.func @mm(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
