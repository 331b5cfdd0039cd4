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
