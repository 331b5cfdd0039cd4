// A packed matmul whose register rows do not divide its cache tile (6 rows
// on 196 = 32 x 6 + 4) is split along m into the rows that whole register
// tiles cover, tiled and packed as usual, and the 4 rows left, one shorter
// register tile read unpacked; both parts keep static shapes and vectorize.
// The result matches the untuned lowering, alone and with a fused bias +
// ReLU6 epilogue (m split by its cache tile: 98 = 16 x 6 + 2).
// RUN: dltune-opt %s --dltune-apply | FileCheck %s
// RUN: dltune run %s --entry partial196 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry partial_fused --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry partial_fused --check --repeat 1 --threads 2 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
// CHECK-LABEL: func.func @partial196
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c6
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: [192, 0] [4, 32]
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK-LABEL: func.func @partial_fused
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c6
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: [96, 0] [2, 32]
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: arith.maximumf
func.func @partial196(%a: tensor<196x64xf32>, %b: tensor<64x32xf32>, %c: tensor<196x32xf32>) -> tensor<196x32xf32> {
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 196, tile_n = 32, tile_k = 64,
                        reg_m = 6, reg_n = 16, unroll = 4, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<196x64xf32>, tensor<64x32xf32>) outs(%c : tensor<196x32xf32>) -> tensor<196x32xf32>
  return %r : tensor<196x32xf32>
}
func.func @partial_fused(%a: tensor<196x64xf32>, %b: tensor<64x32xf32>, %bias: tensor<32xf32>) -> tensor<196x32xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e0 = tensor.empty() : tensor<196x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<196x32xf32>) -> tensor<196x32xf32>
  %c = linalg.matmul {dltune.config = #dltune.config<tile_m = 98, tile_n = 32, tile_k = 64,
                        reg_m = 6, reg_n = 16, unroll = 4, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<196x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<196x32xf32>) -> tensor<196x32xf32>
  %e1 = tensor.empty() : tensor<196x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<196x32xf32>, tensor<32xf32>) outs(%e1 : tensor<196x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<196x32xf32>
  return %r : tensor<196x32xf32>
}
