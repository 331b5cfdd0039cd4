// Output widths with odd divisors only (SqueezeNet's 27 and 13) get as many
// register rows of one vector as the registers hold - 9 and 13 - not one
// row (which left those convs at 13-26 GFLOP/s); 14 keeps 7 rows, 56 keeps
// 4 rows of two vectors, 55 gets 5 rows of two vectors. A prime width
// (SqueezeNet's 109-wide stem) gets 4 rows of two vectors with a partial
// last tile (108 = 27 x 4, then 1 row as its own, shorter register tile),
// the whole row as its cache tile; partial rows need the packed schedule.
// (`dltune run --default-config` widens that stem to 112 first,
// --dltune-widen-convs; the JIT runs below check the widened stem,
// conv-partial-rows-threads.mlir the partial rows.)
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" | FileCheck %s
// RUN: dltune run %s --entry conv27 --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry conv55 --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry stem109 --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry stem109 --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-apply | FileCheck %s --check-prefix=APPLY
// With AVX-512's defaults the stem's whole filter is one block (tile_f =
// reg_f = 32, tile_c = 3): nothing is copied into panels, and the last row
// is still its own register tile.
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=16 cpu-registers=32" --dltune-apply | FileCheck %s --check-prefix=APPLY512
// CHECK-LABEL: func.func @conv27
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 8, reg_ow = 9,
// CHECK-LABEL: func.func @conv13
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 8, reg_ow = 13,
// CHECK-LABEL: func.func @conv14
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 8, reg_ow = 7,
// CHECK-LABEL: func.func @conv56
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 16, reg_ow = 4,
// CHECK-LABEL: func.func @conv55
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 16, reg_ow = 5,
// CHECK-LABEL: func.func @stem109
// CHECK: dltune.config = #dltune.config<pack_f = 1, {{.*}}reg_f = 16, reg_ow = 4, {{.*}}tile_ow = 109,
// CHECK-SAME: tile_ow = [1, 109], reg_ow = [1, 4, 6]
// CHECK-SAME: "tile_ow % reg_ow == 0 || (pack_f == 1 && reg_ow < tile_ow && (tile_ow == D_ow || 2 * reg_ow <= tile_ow))"
// The stem's register loop: 4 rows at a time over the first 108 columns,
// then column 108 alone; both vectorized with static shapes (no pad).
// APPLY-LABEL: func.func @stem109
// APPLY-NOT: affine.min
// APPLY: scf.for %{{.*}} = %c0 to %c108 step %c4
// APPLY: vector.fma {{.*}} : vector<16xf32>
// APPLY: tensor.extract_slice {{.*}}[0, 0, 108, 0] [1, 1, 1, 32]
// APPLY: vector.fma {{.*}} : vector<16xf32>
// APPLY512-LABEL: func.func @stem109
// APPLY512: scf.for %{{.*}} = %c0 to %c108 step %c4
// APPLY512: vector.fma {{.*}} : vector<32xf32>
// APPLY512: tensor.extract_slice {{.*}}[0, 0, 108, 0] [1, 1, 1, 32]
// APPLY512: vector.fma {{.*}} : vector<32xf32>
// JIT: check: ok
func.func @conv27(%i: tensor<1x29x29x48xf32>, %f: tensor<3x3x48x64xf32>, %o: tensor<1x27x27x64xf32>) -> tensor<1x27x27x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x29x29x48xf32>, tensor<3x3x48x64xf32>) outs(%o : tensor<1x27x27x64xf32>) -> tensor<1x27x27x64xf32>
  return %r : tensor<1x27x27x64xf32>
}
func.func @conv13(%i: tensor<1x13x13x64xf32>, %f: tensor<1x1x64x64xf32>, %o: tensor<1x13x13x64xf32>) -> tensor<1x13x13x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x13x13x64xf32>, tensor<1x1x64x64xf32>) outs(%o : tensor<1x13x13x64xf32>) -> tensor<1x13x13x64xf32>
  return %r : tensor<1x13x13x64xf32>
}
func.func @conv14(%i: tensor<1x16x16x32xf32>, %f: tensor<3x3x32x64xf32>, %o: tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x16x16x32xf32>, tensor<3x3x32x64xf32>) outs(%o : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  return %r : tensor<1x14x14x64xf32>
}
func.func @conv56(%i: tensor<1x58x58x16xf32>, %f: tensor<3x3x16x64xf32>, %o: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x58x58x16xf32>, tensor<3x3x16x64xf32>) outs(%o : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}
func.func @conv55(%i: tensor<1x57x57x16xf32>, %f: tensor<3x3x16x64xf32>, %o: tensor<1x55x55x64xf32>) -> tensor<1x55x55x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x57x57x16xf32>, tensor<3x3x16x64xf32>) outs(%o : tensor<1x55x55x64xf32>) -> tensor<1x55x55x64xf32>
  return %r : tensor<1x55x55x64xf32>
}
// With its bias and ReLU fused, as the model imports.
func.func @stem109(%i: tensor<1x224x224x3xf32>, %f: tensor<7x7x3x32xf32>, %bias: tensor<32xf32>) -> tensor<1x109x109x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x109x109x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x109x109x32xf32>) -> tensor<1x109x109x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : tensor<1x224x224x3xf32>, tensor<7x7x3x32xf32>) outs(%acc : tensor<1x109x109x32xf32>) -> tensor<1x109x109x32xf32>
  %e1 = tensor.empty() : tensor<1x109x109x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x109x109x32xf32>, tensor<32xf32>) outs(%e1 : tensor<1x109x109x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x109x109x32xf32>
  return %r : tensor<1x109x109x32xf32>
}
