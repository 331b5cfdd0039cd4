// RUN: dltune-opt %s --split-input-file --dltune-apply --verify-diagnostics

// Invalid uses of upstream schedule templates.

module attributes {transform.with_named_sequence} {
  func.func @bad_value(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
    // expected-error @below {{value 5 of tune knob 'tm' is not among its options}}
    %r = linalg.matmul {dltune.schedule = @tile_m, dltune.config = #dltune.config<tm = 5>}
         ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %r : tensor<32x32xf32>
  }
  transform.named_sequence @tile_m(%op: !transform.any_op {transform.consumed}) {
    %tm = transform.tune.knob<"tm"> options = [4, 8, 16] -> !transform.param<i64>
    %t, %l = transform.structured.tile_using_for %op tile_sizes [%tm, 0, 0]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----
func.func @missing(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @below {{dltune.schedule refers to @nowhere, which is not a transform.named_sequence in this module}}
  %r = linalg.matmul {dltune.schedule = @nowhere, dltune.config = #dltune.config<tm = 4>}
       ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
