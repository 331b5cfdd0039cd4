// On a machine with an NVIDIA GPU and driver: autotuning a GPU matmul
// measures candidates on the GPU, verifies them against the CPU reference
// and attaches the best.
// REQUIRES: cuda-driver
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate=target=gpu --dltune-autotune="db=%t/g.db target=gpu trials=4 quiet=true" | FileCheck %s
// RUN: dltune db summary --db %t/g.db | FileCheck %s --check-prefix=DB
// CHECK: linalg.matmul {dltune.config = #dltune.config<block_m
// DB: 4 records
func.func @mm(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
