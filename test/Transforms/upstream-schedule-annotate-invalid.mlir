// RUN: dltune-opt %s --split-input-file --dltune-annotate --verify-diagnostics

// Upstream schedule templates the annotate pass cannot take a space from.

module attributes {transform.with_named_sequence} {
  func.func @no_knobs(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
    // expected-error @below {{schedule @fixed has no transform.tune.knob ops}}
    %r = linalg.matmul {dltune.schedule = @fixed}
         ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %r : tensor<32x32xf32>
  }
  transform.named_sequence @fixed(%op: !transform.any_op {transform.consumed}) {
    %t, %l = transform.structured.tile_using_for %op tile_sizes [8, 0, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----
func.func @missing(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @below {{dltune.schedule refers to @nowhere, which is not a transform.named_sequence in this module}}
  %r = linalg.matmul {dltune.schedule = @nowhere}
       ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
