// RUN: dltune-opt %s --dltune-apply --dltune-strip --dltune-lower-cpu | FileCheck %s
// RUN: dltune-opt %s --dltune-apply --dltune-strip --dltune-lower-cpu=openmp=false | FileCheck %s --check-prefix=SERIAL

// Everything ends in the LLVM dialect; the thread-level loop becomes an
// OpenMP parallel region unless openmp=false, with the team size of the
// `threads` knob (num_threads 2), not the runtime's default.
// CHECK-LABEL: llvm.func @matmul
// CHECK: %[[N:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: omp.parallel num_threads(%[[N]] : i32)
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

// A module whose ops ask for different team sizes gets each its own.
// CHECK-LABEL: llvm.func @two_sizes
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: omp.parallel num_threads(%[[FOUR]] : i32)
// CHECK: omp.parallel num_threads(%[[TWO]] : i32)
func.func @two_sizes(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 16, tile_n = 64, tile_k = 16,
                        reg_m = 4, reg_n = 32, unroll = 1, threads = 4, vectorize = 1>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul {dltune.config = #dltune.config<tile_m = 16, tile_n = 64, tile_k = 16,
                        reg_m = 4, reg_n = 32, unroll = 1, threads = 2, vectorize = 1>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%r : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}
