// A fused conv + epilogue fills and accumulates each register tile in a
// slice of the conv's empty result. The lowering folds such slices into
// tile-sized empty tensors before bufferization, so each tile gets a
// buffer of its own size (it stays in L1) instead of a place in a buffer of
// the whole conv result, written and read back through memory: with the
// padded result written in place (--dltune-pad-in-place), the whole-result
// buffer used to appear and a 112x112x16 -> 96 conv + pad + stride-2
// depthwise conv ran 5.1 ms instead of 1.0 (2026-11-26).
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-apply --dltune-strip --dltune-lower-cpu --mlir-print-ir-after=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s
// RUN: dltune run %s --entry expand_pad --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// CHECK-LABEL: IR Dump After OneShotBufferize
// CHECK: memref.alloc() {{.*}} : memref<1x30x30x96xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<1x28x28x96xf32>
// CHECK: memref.alloc() {{.*}} : memref<1x1x28x48xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<1x28x28x96xf32>
// JIT: check: ok
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @expand_pad(%x: tensor<1x28x28x16xf32>, %w: tensor<1x1x16x96xf32>, %b: tensor<96xf32>) -> tensor<1x30x30x96xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e0 = tensor.empty() : tensor<1x28x28x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x28x28x96xf32>) -> tensor<1x28x28x96xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x28x28x16xf32>, tensor<1x1x16x96xf32>) outs(%acc : tensor<1x28x28x96xf32>) -> tensor<1x28x28x96xf32>
  %e1 = tensor.empty() : tensor<1x28x28x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x28x28x96xf32>, tensor<96xf32>) outs(%e1 : tensor<1x28x28x96xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<1x28x28x96xf32>
  %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x28x28x96xf32> to tensor<1x30x30x96xf32>
  return %p : tensor<1x30x30x96xf32>
}
