// A 1x1 stride-1 NHWC convolution becomes a matmul of the collapsed pixels
// by the collapsed filter (a constant filter a constant of the new shape);
// its bias + ReLU6 epilogue is rewritten over the same rows, so that it
// still reads the matmul directly, and an expand_shape gives NHWC back.
// A residual operand is collapsed too. Left alone: a conv whose finished
// result is padded (--dltune-pad-in-place writes it into the padded
// buffer), a strided or 3x3 conv, an op with dltune attributes.
// RUN: dltune-opt %s --dltune-pointwise-to-matmul | FileCheck %s
// RUN: dltune-opt %s --dltune-pointwise-to-matmul --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" | FileCheck %s --check-prefix=ANNOTATE
// CHECK-LABEL: func.func @pointwise
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<8x16xf32>
// CHECK-DAG: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2], [3]] : tensor<1x7x7x8xf32> into tensor<49x8xf32>
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} -> tensor<49x16xf32>
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<49x8xf32>, tensor<8x16xf32>) outs(%[[FILL]] : tensor<49x16xf32>)
// CHECK: %[[EPI:.*]] = linalg.generic {{.*}} ins(%[[MM]], %arg1 : tensor<49x16xf32>, tensor<16xf32>)
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape %[[EPI]] {{\[}}[0, 1, 2], [3]] output_shape [1, 7, 7, 16]
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK-LABEL: func.func @residual
// CHECK: %[[MM2:.*]] = linalg.matmul
// CHECK: %[[R:.*]] = tensor.collapse_shape %arg2 {{\[}}[0, 1, 2], [3]] : tensor<1x7x7x16xf32> into tensor<49x16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[MM2]], %[[R]] : tensor<49x16xf32>, tensor<49x16xf32>)
// CHECK-LABEL: func.func @padded_result
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
// CHECK-LABEL: func.func @strided
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
// CHECK-LABEL: func.func @three_by_three
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
// The matmul gets the matmul space (partial register rows among its
// options: 49 rows), and its epilogue stays one generic on its result.
// ANNOTATE-LABEL: func.func @pointwise
// ANNOTATE: %[[MM:.*]] = linalg.matmul {dltune.config = #dltune.config<pack_a = 1, pack_b = 1,
// ANNOTATE-SAME: reg_m = [1, 4, 6]
// ANNOTATE-SAME: "tile_m % reg_m == 0 || ((pack_a == 1 || pack_b == 1) && reg_m < tile_m && (tile_m < D_m || tile_n < D_n))"
// ANNOTATE: linalg.generic {{.*}} ins(%[[MM]], %arg1

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @pointwise(%x: tensor<1x7x7x8xf32>, %bias: tensor<16xf32>) -> tensor<1x7x7x16xf32> {
  %w = arith.constant dense<0.5> : tensor<1x1x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e0 = tensor.empty() : tensor<1x7x7x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x7x7x8xf32>, tensor<1x1x8x16xf32>) outs(%acc : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %e1 = tensor.empty() : tensor<1x7x7x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x7x7x16xf32>, tensor<16xf32>) outs(%e1 : tensor<1x7x7x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<1x7x7x16xf32>
  return %r : tensor<1x7x7x16xf32>
}
func.func @residual(%x: tensor<1x7x7x8xf32>, %w: tensor<1x1x8x16xf32>, %skip: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x7x7x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x7x7x8xf32>, tensor<1x1x8x16xf32>) outs(%acc : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %e1 = tensor.empty() : tensor<1x7x7x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %skip : tensor<1x7x7x16xf32>, tensor<1x7x7x16xf32>) outs(%e1 : tensor<1x7x7x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x7x7x16xf32>
  return %r : tensor<1x7x7x16xf32>
}
func.func @padded_result(%x: tensor<1x7x7x8xf32>, %w: tensor<1x1x8x16xf32>) -> tensor<1x9x9x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x7x7x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x7x7x8xf32>, tensor<1x1x8x16xf32>) outs(%acc : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %p = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x7x7x16xf32> to tensor<1x9x9x16xf32>
  return %p : tensor<1x9x9x16xf32>
}
func.func @strided(%x: tensor<1x14x14x8xf32>, %w: tensor<1x1x8x16xf32>, %o: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x14x14x8xf32>, tensor<1x1x8x16xf32>) outs(%o : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %c : tensor<1x7x7x16xf32>
}
func.func @three_by_three(%x: tensor<1x9x9x8xf32>, %w: tensor<3x3x8x16xf32>, %o: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %c : tensor<1x7x7x16xf32>
}
