// A single-row matmul (a batch-1 fully connected layer) reads every element
// of B once: its default config streams B - k tiles of 8 rows, unrolled,
// four vectors wide (32 floats with AVX2's 8 lanes, 64 with AVX-512's 16) -
// and the result matches the untuned lowering, split over 1 or 2 threads.
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" | FileCheck %s --check-prefix=AVX2
// RUN: dltune-opt %s --dltune-annotate="threads=2 default-config=true cpu-lanes=16 cpu-registers=32" | FileCheck %s --check-prefix=AVX512
// RUN: dltune run %s --entry one_row --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry one_row --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
// AVX2: pack_a = 0, pack_b = 0, reg_m = 1, reg_n = 32, threads = 1, tile_k = 8, tile_m = 1, tile_n = 512, unroll = 8
// AVX512: pack_a = 0, pack_b = 0, reg_m = 1, reg_n = 64, threads = 2, tile_k = 8, tile_m = 1, tile_n = 512, unroll = 8
func.func @one_row(%a: tensor<1x1024xf32>, %b: tensor<1024x2048xf32>, %c: tensor<1x2048xf32>) -> tensor<1x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1x1024xf32>, tensor<1024x2048xf32>) outs(%c : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  return %r : tensor<1x2048xf32>
}
