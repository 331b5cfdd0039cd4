// RUN: dltune-opt %s --split-input-file --dltune-forall-to-openmp | FileCheck %s

// A loop with dltune.num_threads gets that team size on its omp.parallel.
// CHECK-LABEL: func.func @team
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: omp.parallel num_threads(%[[C4]] : i32) {
// CHECK: omp.wsloop {
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%[[C0]]) to (%[[C64]])
// CHECK: memref.store %{{.*}}, %[[A]][%[[I]]] : memref<64xf32>
// CHECK-NOT: scf.forall
func.func @team(%a: memref<64xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i) in (64) {
    memref.store %cst, %a[%i] : memref<64xf32>
  } {dltune.num_threads = 4 : i64}
  return
}

// -----

// Without the attribute the OpenMP runtime picks the team.
// CHECK-LABEL: func.func @default_team
// CHECK: omp.parallel {
// CHECK: omp.wsloop {
// CHECK-NOT: num_threads
func.func @default_team(%a: memref<64xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i) in (64) {
    memref.store %cst, %a[%i] : memref<64xf32>
  }
  return
}
