// Tasks are keyed by the computation in generic form: equal computations
// share a task, different ones never do, whatever their operand shapes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/t.db trials=1 min-time-ms=1 quiet=true" -o /dev/null
// RUN: dltune db best --db %t/t.db | FileCheck %s
// The same computation annotated for another machine (another thread
// range in its space) is the same task: nothing new is created.
// RUN: dltune-opt %s --dltune-annotate="threads=2" --dltune-autotune="db=%t/t.db trials=1 min-time-ms=1 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/t.db | FileCheck %s --check-prefix=SUMMARY

// CHECK-DAG: {{^[0-9a-f]{16} linalg.matmul [0-9]}}
// CHECK-DAG: {{^[0-9a-f]{16} linalg.matmul maps \(d0,d2\) \(d1,d2\) \(d0,d1\) [0-9]}}
// CHECK-DAG: {{^[0-9a-f]{16} elementwise maximumf [0-9]}}
// CHECK-DAG: {{^[0-9a-f]{16} elementwise maximumf [0-9]}}
// CHECK-DAG: {{^[0-9a-f]{16} linalg.conv_2d_nhwc_hwcf dilation 5x5 [0-9]}}
// CHECK-DAG: {{^[0-9a-f]{16} linalg.conv_2d_nhwc_hwcf stride 2x2 [0-9]}}
// SUMMARY: 6 tasks

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

func.func @mm(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// The same computation again: it joins the task of @mm.
func.func @mm_again(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// A * B^T with square operands: the same shapes, another computation.
func.func @mm_bt(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                      affine_map<(d0, d1, d2) -> (d1, d2)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
                     ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// max(x, y) and max(x^T, y): only an input map differs.
func.func @max(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>, %o: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%o : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

func.func @max_t(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>, %o: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.generic {indexing_maps = [#tr, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%o : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// Stride 1 / dilation 5 and stride 2 / dilation 1 give the same shapes.
func.func @conv_dilated(%i: tensor<1x9x9x4xf32>, %f: tensor<2x2x4x4xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<5> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x9x9x4xf32>, tensor<2x2x4x4xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

func.func @conv_strided(%i: tensor<1x9x9x4xf32>, %f: tensor<2x2x4x4xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : tensor<1x9x9x4xf32>, tensor<2x2x4x4xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
