// Without a CUDA driver, GPU runs fail cleanly with a message that says why.
// RUN: env DLTUNE_CUDA_DRIVER=libcuda-does-not-exist.so.1 not dltune run %s --entry f --target gpu 2>&1 | FileCheck %s
// CHECK: dltune: error: --target gpu: no CUDA driver: cannot load libcuda-does-not-exist.so.1

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// The toolkit's stub driver loads but cannot initialise: also a clear error.
// RUN: test ! -e /usr/local/cuda/lib64/stubs/libcuda.so || env DLTUNE_CUDA_DRIVER=/usr/local/cuda/lib64/stubs/libcuda.so not dltune run %s --entry f --target gpu 2>&1 | FileCheck %s --check-prefix=STUB
// STUB: dltune: error: --target gpu: cuInit failed: CUDA error
