// RUN: dltune-opt %s --dltune-strip | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK: linalg.matmul {other.attr = 1 : i64} ins
// CHECK-NOT: dltune.
func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.matmul {dltune.space = #dltune.space<knobs {a = [1, 2]}>,
                      dltune.config = #dltune.config<a = 2>, dltune.target = "cpu",
                      other.attr = 1}
       ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// The team size of a parallelized loop is scheduled code, not an
// annotation: it stays for the lowering.
// CHECK-LABEL: func.func @g
// CHECK: } {dltune.num_threads = 2 : i64}
func.func @g() {
  scf.forall (%i) in (2) {
  } {dltune.num_threads = 2 : i64}
  return
}
