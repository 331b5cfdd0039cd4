// RUN: dltune-opt %s --dltune-pad-in-place | FileCheck %s
// Negative padding (a crop, which upstream's lowering of tensor.pad then
// refuses with its own diagnostic) is left alone: the border slabs would
// have negative sizes.
// CHECK-LABEL: func.func @crop
// CHECK-NOT: alloc_tensor
// CHECK: tensor.pad %{{.*}} low[-1, 1] high[1, 0]
func.func @crop(%x: tensor<4x4xf32>) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %y = linalg.copy ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = tensor.pad %y low[-1, 1] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<4x5xf32>
  return %p : tensor<4x5xf32>
}
