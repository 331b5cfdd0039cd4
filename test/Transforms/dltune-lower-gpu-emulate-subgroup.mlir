// RUN: dltune-opt %s --dltune-lower-gpu="emulate=true" | FileCheck %s

// A gpu.subgroup_reduce that every thread of the block reaches, emulated:
// each thread stores its value into a shared buffer, waits, folds
// its cluster's slots (4 lanes here) and waits again.
// CHECK-LABEL: llvm.func @clustered_sum
// CHECK: omp.parallel
// CHECK: llvm.store
// CHECK: omp.barrier
// CHECK: llvm.fadd
// CHECK: omp.barrier
// CHECK: omp.terminator
func.func @clustered_sum(%out: memref<32xf32>, %x: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %sum = gpu.subgroup_reduce add %x cluster(size = 4) : (f32) -> f32
    memref.store %sum, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
