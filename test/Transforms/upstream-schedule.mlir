// RUN: dltune-opt %s --dltune-annotate --verify-diagnostics | FileCheck %s --check-prefix=SPACE
// RUN: dltune-opt %s --dltune-apply --verify-diagnostics | FileCheck %s

// An upstream transform sequence with transform.tune.knob ops serves as the
// schedule template of an op: its knobs form the space, and the config fills
// their `selected` values.

module attributes {transform.with_named_sequence} {
  // SPACE-LABEL: func.func @matmul
  // SPACE: dltune.space = #dltune.space<knobs {tm = pow2<4, 16>, tn = [8, 16]}>
  // CHECK-LABEL: func.func @matmul
  // CHECK-COUNT-2: scf.for
  // CHECK: linalg.matmul ins({{.*}} : tensor<8x64xf32>, tensor<64x16xf32>)
  // CHECK-NOT: dltune.
  func.func @matmul(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %r = linalg.matmul {dltune.schedule = @tile_mn, dltune.config = #dltune.config<tm = 8, tn = 16>}
         ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %r : tensor<32x32xf32>
  }
  transform.named_sequence @tile_mn(%op: !transform.any_op {transform.consumed}) {
    %tm = transform.tune.knob<"tm"> options = [4, 8, 16] -> !transform.param<i64>
    %tn = transform.tune.knob<"tn"> options = [8, 16] -> !transform.param<i64>
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [%tm, %tn, 0]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

