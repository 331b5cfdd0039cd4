// RUN: dltune-opt %s --split-input-file --verify-diagnostics --dltune-forall-to-openmp

// The pass runs after bufferization: a loop that still has tensor results
// cannot become a parallel loop.
func.func @tensor_results(%t: tensor<64xf32>) -> tensor<64xf32> {
  %cst = arith.constant 1.0 : f32
  // expected-error @+1 {{dltune-forall-to-openmp: cannot convert this loop}}
  %r = scf.forall (%i) in (64) shared_outs(%o = %t) -> (tensor<64xf32>) {
    %s = tensor.from_elements %cst : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}
