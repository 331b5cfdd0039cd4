// A library from `dltune compile` keeps freed memory for the next call
// (MallocPolicy.h): its buffers (a 4 MiB intermediate and a 4 MiB result
// per call) do not page-fault in again on every call, and the library
// imports mallopt for the constructor that sets this up.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune compile %s --entry f -o %t/f.so --default-config --threads 1
// RUN: cc %dltune_src/test/Inputs/library-page-faults.c -o %t/faults -ldl
// RUN: %t/faults %t/f.so | FileCheck %s
// CHECK: freed memory reused
// RUN: nm -D %t/f.so | FileCheck %s --check-prefix=SYMBOL
// SYMBOL: U mallopt

#map = affine_map<(i, j) -> (i, j)>
func.func @f(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<1024x1024xf32>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1024x1024xf32>) outs(%e0 : tensor<1024x1024xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %one : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  %e1 = tensor.empty() : tensor<1024x1024xf32>
  %b = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a, %x : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%e1 : tensor<1024x1024xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %m = arith.mulf %v, %w : f32
    linalg.yield %m : f32
  } -> tensor<1024x1024xf32>
  return %b : tensor<1024x1024xf32>
}
