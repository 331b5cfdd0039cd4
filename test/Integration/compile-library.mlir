// dltune compile builds a function, scheduled with dltune's defaults, into a
// shared library with the C interface; a C program loads it and calls it
// (A[i][k] = i + k times the 8x4 identity: C[i][j] = i + j).
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune compile %s --entry mm -o %t/mm.so --default-config --threads 1 | FileCheck %s
// CHECK: wrote {{.*}}mm.so ({{[0-9.]+}} s): void _mlir_ciface_mm(memref<4x4xf32> *result, memref<4x8xf32> *, memref<8x4xf32> *)
// RUN: cc %dltune_src/test/Inputs/call-library.c -o %t/call -ldl
// RUN: %t/call %t/mm.so | FileCheck %s --check-prefix=CALL
// CALL: result 4x4: 0 1 2 3 1 2 3 4 2 3 4 5 3 4 5 6

// RUN: not dltune compile %s --entry nope -o %t/x.so 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: dltune: error: no function 'nope'
// RUN: not dltune compile %s --entry two -o %t/x.so 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: dltune: error: 'two' returns 2 values; the C interface of a library returns at most one
// RUN: not dltune compile %s --entry mm -o %t/x.so --threads 2 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: dltune: error: --threads sets the default configurations' threads: it needs --default-config
// RUN: not dltune compile %s --entry mm 2>&1 | FileCheck %s --check-prefix=NOOUT
// NOOUT: for the -o option: must be specified at least once
// RUN: not dltune compile %s --entry mm -o %t/missing-dir/x.so 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: dltune: error: cannot write '{{.*}}missing-dir/x.so.o'

func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

func.func @two(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  return %a, %a : tensor<4x8xf32>, tensor<4x8xf32>
}
