// Result checks follow the element type: f16 kernels (reassociated sums
// differ in the last bits) pass with f16's tolerance, integer kernels must
// match exactly, and a user tolerance applies when given.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/e.db trials=6 min-time-ms=1 confirm-top=1 confirm-repeats=3 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/e.db | FileCheck %s
// CHECK-DAG: linalg.matmul {{ *}}32x256;256x32;32x32 {{ *}}6 {{ *}}0 {{ *[0-9.]+ *$}}
// CHECK-DAG: linalg.matmul {{ *}}16x64;64x16;16x16 {{ *}}6 {{ *}}0 {{ *[0-9.]+ *$}}
// CHECK-DAG: linalg.matmul {{ *}}32x128;128x32;32x32 {{ *}}6 {{ *}}0 {{ *[0-9.]+ *$}}
// CHECK-DAG: elementwise muli {{ *}}16x64;16x64;16x64 {{ *}}6 {{ *}}0 {{ *[0-9.]+ *$}}
// With a user tolerance of 0, an f32 matmul's vectorized candidates (fused
// multiply-add: one rounding instead of two) no longer pass the check.
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/strict.db trials=6 min-time-ms=1 confirm-top=0 quiet=true rtol=0" -o /dev/null
// RUN: dltune db summary --db %t/strict.db | FileCheck %s --check-prefix=STRICT
// STRICT: linalg.matmul {{ *}}32x128;128x32;32x32 {{.*}}wrong_result=

func.func @mm_f16(%a: tensor<32x256xf16>, %b: tensor<256x32xf16>, %c: tensor<32x32xf16>) -> tensor<32x32xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<32x256xf16>, tensor<256x32xf16>)
                     outs(%c : tensor<32x32xf16>) -> tensor<32x32xf16>
  return %r : tensor<32x32xf16>
}

func.func @mm_f32(%a: tensor<32x128xf32>, %b: tensor<128x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x128xf32>, tensor<128x32xf32>)
                     outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

func.func @mm_i8(%a: tensor<16x64xi8>, %b: tensor<64x16xi8>, %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x64xi8>, tensor<64x16xi8>)
                     outs(%c : tensor<16x16xi32>) -> tensor<16x16xi32>
  return %r : tensor<16x16xi32>
}

func.func @mul_i32(%x: tensor<16x64xi32>, %y: tensor<16x64xi32>, %o: tensor<16x64xi32>) -> tensor<16x64xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<16x64xi32>, tensor<16x64xi32>) outs(%o : tensor<16x64xi32>) {
  ^bb0(%a: i32, %b: i32, %out: i32):
    %m = arith.muli %a, %b : i32
    linalg.yield %m : i32
  } -> tensor<16x64xi32>
  return %r : tensor<16x64xi32>
}
