// Two threads, 13 output rows and 40 filters: the rows do not divide
// between the threads and neither do the filters into whole vectors (20
// each), so the threads split the rows unevenly (7 + 6), with one row per
// cache tile so that every tile inside stays static.
// RUN: dltune-opt %s --dltune-annotate="threads=2 default-config=true cpu-lanes=8 cpu-registers=16" | FileCheck %s
// RUN: dltune-opt %s --dltune-annotate="threads=2 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-apply | FileCheck %s --check-prefix=APPLY
// RUN: dltune run %s --entry rows13 --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
// CHECK-LABEL: func.func @rows13
// CHECK: dltune.config = #dltune.config<{{.*}}threads = 2, {{.*}}tile_oh = 1,
// CHECK-SAME: "threads == 1 || tile_oh == 1"
// APPLY-LABEL: func.func @rows13
// APPLY: scf.forall (%{{.*}}) in (2)
// APPLY: affine.min
func.func @rows13(%x: tensor<1x13x13x32xf32>, %w: tensor<1x1x32x40xf32>, %bias: tensor<40xf32>) -> tensor<1x13x13x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x13x13x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x13x13x40xf32>) -> tensor<1x13x13x40xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x13x13x32xf32>, tensor<1x1x32x40xf32>) outs(%f : tensor<1x13x13x40xf32>) -> tensor<1x13x13x40xf32>
  %e2 = tensor.empty() : tensor<1x13x13x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x13x13x40xf32>, tensor<40xf32>) outs(%e2 : tensor<1x13x13x40xf32>) {
  ^bb0(%in: f32, %b: f32, %o: f32):
    %a = arith.addf %in, %b : f32
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x13x13x40xf32>
  return %r : tensor<1x13x13x40xf32>
}
