// RUN: dltune-opt %s --dltune-apply --dltune-strip --dltune-lower-cpu | FileCheck %s
// RUN: dltune-opt %s --dltune-apply --dltune-strip --dltune-lower-cpu=openmp=false | FileCheck %s --check-prefix=SERIAL

// Everything ends in the LLVM dialect; the thread-level loop becomes an
// OpenMP parallel region unless openmp=false.
// CHECK-LABEL: llvm.func @matmul
// CHECK: omp.parallel
// CHECK: llvm.intr.fmuladd
// CHECK-NOT: linalg.
// CHECK-NOT: scf.
// SERIAL-LABEL: llvm.func @matmul
// SERIAL-NOT: omp.
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 16, tile_n = 64, tile_k = 16,
                        reg_m = 4, reg_n = 32, unroll = 1, threads = 2, vectorize = 1>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
