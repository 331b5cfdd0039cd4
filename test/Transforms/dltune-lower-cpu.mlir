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

// A vectorized exp (a softmax's) becomes a polynomial of FMAs, not one libm
// expf call per lane (LLVM scalarizes llvm.exp on vectors into such calls).
// CHECK-LABEL: llvm.func @softmax_exp
// CHECK-NOT: llvm.intr.exp
// CHECK-NOT: @expf
// CHECK: llvm.intr.fma{{.*}}vector<16xf32>
// CHECK-NOT: llvm.intr.exp
// CHECK: llvm.return
func.func @softmax_exp(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
       ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>)
       attrs = {dltune.config = #dltune.config<reg_d1 = 16, threads = 1, tile_d0 = 4, tile_d1 = 64,
                                               unroll = 1, vectorize = 1>} {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
