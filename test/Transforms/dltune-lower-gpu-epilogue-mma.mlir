// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu=format=isa | FileCheck %s

// An element-wise op after a tensor-core matmul (f16 inputs, f32
// accumulators) is computed in the matmul's kernel (fuse-epilogues, the
// default): one launch; after the mma.sync loop, per fragment row a bias
// pair is loaded, ReLU applied and a result pair stored. Tensor-core
// kernels cannot run in the CPU emulation: the SIMT epilogues are checked
// numerically in test/Integration/gpu-epilogue-emulated.mlir.
// CHECK-LABEL: llvm.func @mma_bias_relu(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: .entry mma_bias_relu_kernel
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: ld.global.v2.b32
// CHECK: max.NaN.f32
// CHECK: st.global.v2.b32

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d1)>
func.func @mma_bias_relu(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                      tile_k = 32, vector = 8, pad = 0, stages = 2, interleave = 0,
                                                      mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e1 = tensor.empty() : tensor<128x128xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%e1 : tensor<128x128xf32>) {
  ^bb0(%p: f32, %c: f32, %o: f32):
    %s = arith.addf %p, %c : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
