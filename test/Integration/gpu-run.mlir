// Without a CUDA driver, GPU runs fail cleanly with a message that says why.
// RUN: env DLTUNE_CUDA_DRIVER=libcuda-does-not-exist.so.1 not dltune run %s --entry f --target gpu 2>&1 | FileCheck %s
// CHECK: dltune: error: --target gpu: no CUDA driver: cannot load libcuda-does-not-exist.so.1

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
