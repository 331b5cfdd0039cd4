// GPU tuning: candidates are built for the GPU by the same workers (a
// cubin where ptxas exists, PTX otherwise); without a driver the tuner says
// so once instead of failing every candidate.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate=target=gpu -o %t/kernel.mlir
// RUN: dltune worker build --kernel %t/kernel.mlir --config "block_m=64,block_n=64,thread_m=4,thread_n=4,tile_k=16,vector=4,pad=0,stages=1,interleave=0" --out %t/c.so | FileCheck %s --check-prefix=BUILD
// RUN: env DLTUNE_CUDA_DRIVER=libcuda-missing.so.1 not dltune worker measure --kernel %t/kernel.mlir --so %t/c.so --reference %t/none.bin 2>/dev/null | FileCheck %s --check-prefix=MEASURE
// RUN: env DLTUNE_CUDA_DRIVER=libcuda-missing.so.1 not dltune-opt %s --dltune-annotate=target=gpu --dltune-autotune="db=%t/g.db target=gpu trials=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TUNE

// BUILD: {"built":"{{.*}}c.so"
// MEASURE: {"error":"no CUDA driver: cannot load libcuda-missing.so.1
// TUNE: error: dltune-autotune: autotuning for the GPU needs a CUDA driver: no CUDA driver: cannot load libcuda-missing.so.1

func.func @dltune_task(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
