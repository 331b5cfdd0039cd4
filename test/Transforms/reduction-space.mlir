// Generic reductions (softmax's row max, layer norm's row sum, an NHWC
// global pool) get the "reduction" space: the innermost loop is the vector
// loop, the innermost other parallel loop is cache-tiled and split among
// threads, other reduction loops run whole.
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2" | FileCheck %s
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2 default-config=true cpu-lanes=8 cpu-registers=16" | FileCheck %s --check-prefix=DEFAULT
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2 default-config=true" --dltune-apply | FileCheck %s --check-prefix=APPLY
// Each schedule computes what the untuned lowering computes, on 1 and 2
// threads, with the default config and with hand-written ones.
// RUN: dltune run %s --entry row_max --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry row_max --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry row_sum_3d --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry global_pool --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry global_pool --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry row_sum_tiled --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry full_sum --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok

// CHECK-LABEL: func.func @row_max
// CHECK: linalg.generic
// CHECK-SAME: dltune.space = #dltune.space<knobs {tile_d1 = pow2<1, 64>, reg_d1 = [1, 4, 8, 16, 32, 64], unroll = [1], tile_d0 = pow2<1, 32>, threads = [1, 2], vectorize = [0, 1]}
// CHECK-SAME: params {D_d0 = 32, D_d1 = 64}
// CHECK-SAME: "D_d0 % threads == 0", "(D_d0 / threads) % tile_d0 == 0"
// DEFAULT-LABEL: func.func @row_max
// DEFAULT: dltune.config = #dltune.config<reg_d1 = 16, threads = 2, tile_d0 = 8, tile_d1 = 64, unroll = 1, vectorize = 1>
// APPLY-LABEL: func.func @row_max
// APPLY: scf.forall
// APPLY: vector.reduction <maximumf>, {{.*}} : vector<16xf32> into f32
func.func @row_max(%x: tensor<32x64xf32>, %init: tensor<32xf32>) -> tensor<32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x64xf32>) outs(%init : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// -----

// A leading unit dimension: threads split the rows (d1), not the batch.
// CHECK-LABEL: func.func @row_sum_3d
// CHECK: linalg.generic
// CHECK-SAME: knobs {tile_d2 = pow2<1, 256>, reg_d2 = {{.*}}, tile_d1 = pow2<1, 64>,
// CHECK-SAME: "D_d1 % threads == 0"
func.func @row_sum_3d(%x: tensor<1x64x256xf32>, %init: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x64x256xf32>) outs(%init : tensor<1x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %r : tensor<1x64xf32>
}

// -----

// ONNX's keepdims reductions write a unit dimension through a 0 in the map.
// CHECK-LABEL: func.func @row_sum_keepdims
// CHECK: linalg.generic
// CHECK-SAME: knobs {tile_d2 = pow2<1, 256>
// RUN: dltune run %s --entry row_sum_keepdims --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
func.func @row_sum_keepdims(%x: tensor<1x64x256xf32>, %init: tensor<1x64x1xf32>) -> tensor<1x64x1xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x64x256xf32>) outs(%init : tensor<1x64x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x64x1xf32>
  return %r : tensor<1x64x1xf32>
}

// -----

// NHWC global pooling: channels are the vector loop and the parallel loop
// the threads split; the pixels are reduced one at a time.
// CHECK-LABEL: func.func @global_pool
// CHECK: linalg.generic
// CHECK-SAME: knobs {tile_d3 = {{.*}}, reg_d3 = {{.*}}, unroll = [1], threads = [1, 2]
// CHECK-SAME: "D_d3 % threads == 0", "(D_d3 / threads) % tile_d3 == 0"
// APPLY-LABEL: func.func @global_pool
// APPLY: scf.forall
// APPLY: scf.for
// APPLY: scf.for
// APPLY: arith.addf {{.*}} : vector<16xf32>
func.func @global_pool(%x: tensor<1x7x7x512xf32>, %init: tensor<1x512xf32>) -> tensor<1x512xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>],
                       iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x7x7x512xf32>) outs(%init : tensor<1x512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x512xf32>
  return %r : tensor<1x512xf32>
}

// -----

// A tuner-chosen config: the reduction loop itself cache-tiled (16 of 64)
// and 4-wide vectors.
func.func @row_sum_tiled(%x: tensor<32x64xf32>, %init: tensor<32xf32>) -> tensor<32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x64xf32>) outs(%init : tensor<32xf32>)
      attrs = {dltune.config = #dltune.config<reg_d1 = 4, threads = 1, tile_d0 = 4, tile_d1 = 16, unroll = 1, vectorize = 1>} {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// -----

// Everything reduced to a scalar: no parallel loop, one thread.
// CHECK-LABEL: func.func @full_sum
// CHECK: linalg.generic
// CHECK-SAME: threads = [1], vectorize
func.func @full_sum(%x: tensor<8x64xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Two results (a max and its count): not a one-result reduction, left
// alone.
// CHECK-LABEL: func.func @two_results
// CHECK-NOT: dltune.space
func.func @two_results(%x: tensor<64xf32>, %m: tensor<f32>, %n: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
                         iterator_types = ["reduction"]}
      ins(%x : tensor<64xf32>) outs(%m, %n : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %acc: f32, %cnt: f32):
    %s = arith.maximumf %a, %acc : f32
    %one = arith.constant 1.0 : f32
    %c = arith.addf %cnt, %one : f32
    linalg.yield %s, %c : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  return %r#0, %r#1 : tensor<f32>, tensor<f32>
}
