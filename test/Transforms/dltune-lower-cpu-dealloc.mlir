// Buffers that bufferization allocates for intermediates are freed after
// their last use (a whole model's activations; without it every call leaked
// them and the next one page-faulted fresh memory in); the returned buffer
// is the caller's.
// RUN: dltune-opt %s --dltune-lower-cpu | FileCheck %s
// CHECK-LABEL: llvm.func @two_steps
// CHECK: llvm.call @malloc
// CHECK: llvm.call @malloc
// CHECK: llvm.call @free
// CHECK-NOT: llvm.call @free
// CHECK: llvm.return
// The JIT runs it: the result is right after the intermediate is freed.
// RUN: dltune run %s --entry two_steps --check --repeat 3 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
func.func @two_steps(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %e0 = tensor.empty() : tensor<256x256xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x256xf32>) outs(%e0 : tensor<256x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<256x256xf32>) outs(%e1 : tensor<256x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %b : tensor<256x256xf32>
}
