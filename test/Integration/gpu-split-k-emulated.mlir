// Split-K (`split_k` of the GPU matmul space, GpuSplitK.h): slices of K
// as a batch matmul over views of A and B, summed slice by slice into C
// by a window kernel that starts from C's fill and computes the matmul's
// epilogue. Checked against the untuned CPU lowering by the CPU emulation
// of the kernels: a skinny matmul (48 x 64, K = 1024) in 8 slices with a
// bias epilogue, and one in 4 slices accumulating into C (no fill: the
// sum starts from C as it was).
// RUN: dltune run %s --entry skinny_bias --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry accumulate --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry scaled_a --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// Two launches: the slices' batch matmul (its zero fill absorbed), the sum
// (C's fill absorbed, the bias added as it stores).
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-apply,dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=LAUNCH
// LAUNCH-LABEL: llvm.func @skinny_bias(
// LAUNCH-COUNT-2: gpu.launch_func
// LAUNCH-NOT: gpu.launch_func
// LAUNCH: llvm.return
// A that an element-wise kernel wrote is freed after the call's kernels
// like any intermediate buffer, though the slices read it through a
// memref.transpose (it leaked until the host-memory pass saw through that
// view): three allocations (A, the partials, C) and two frees (C is
// returned).
// LAUNCH-LABEL: llvm.func @scaled_a(
// LAUNCH-COUNT-3: llvm.call @mgpuMemAlloc
// LAUNCH-NOT: llvm.call @mgpuMemAlloc
// LAUNCH-COUNT-2: llvm.call @mgpuMemFree
// LAUNCH-NOT: llvm.call @mgpuMemFree
// LAUNCH: llvm.return

// Without window kernels the matmul stays whole (the sum would be a
// launch per slice): one launch, its fill and bias fused.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-apply,dltune-lower-gpu{format=isa window-kernels=false})" 2>/dev/null | FileCheck %s --check-prefix=WHOLE
// WHOLE-LABEL: llvm.func @skinny_bias(
// WHOLE-COUNT-1: gpu.launch_func
// WHOLE-NOT: gpu.launch_func
// WHOLE: llvm.return
// So does split-k=false (bench/gpu_models.py --variants split-k=false
// times a model's default split matmuls whole beside split).
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-apply,dltune-lower-gpu{format=isa split-k=false})" 2>/dev/null | FileCheck %s --check-prefix=WHOLE

// The space offers split_k where C has fewer 64 x 64 tiles than the GPU
// has SMs and K is long; ResNet-18's 49 x 512 x 4608 takes 8 slices by
// default (dltune-annotate-gpu-split-k.mlir has the rule).
// RUN: dltune-opt %s --dltune-annotate="target=gpu default-config=true" 2>/dev/null | FileCheck %s --check-prefix=SPACE
// SPACE-LABEL: func.func @unannotated
// SPACE: dltune.config = #dltune.config<{{.*}}split_k = 8
// SPACE-SAME: split_k = pow2<1, 16>
// SPACE-SAME: "D_k % (split_k * tile_k) == 0"

#map_c = affine_map<(i, j) -> (i, j)>
#map_bias = affine_map<(i, j) -> (j)>

func.func @skinny_bias(%a: tensor<48x1024xf32>, %b: tensor<1024x64xf32>, %bias: tensor<64xf32>) -> tensor<48x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x64xf32>) -> tensor<48x64xf32>
  %p = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                     split_k = 8>}
       ins(%a, %b : tensor<48x1024xf32>, tensor<1024x64xf32>) outs(%c : tensor<48x64xf32>) -> tensor<48x64xf32>
  %e2 = tensor.empty() : tensor<48x64xf32>
  %r = linalg.generic {indexing_maps = [#map_c, #map_bias, #map_c], iterator_types = ["parallel", "parallel"]}
      ins(%p, %bias : tensor<48x64xf32>, tensor<64xf32>) outs(%e2 : tensor<48x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<48x64xf32>
  return %r : tensor<48x64xf32>
}

func.func @accumulate(%a: tensor<32x512xf32>, %b: tensor<512x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %p = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 4, thread_n = 4,
                                                     tile_k = 8, vector = 4, pad = 4, stages = 1, interleave = 1,
                                                     split_k = 4>}
       ins(%a, %b : tensor<32x512xf32>, tensor<512x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %p : tensor<32x32xf32>
}

func.func @scaled_a(%a: tensor<48x1024xf32>, %b: tensor<1024x64xf32>) -> tensor<48x64xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %ea = tensor.empty() : tensor<48x1024xf32>
  %a2 = linalg.generic {indexing_maps = [#map_c, #map_c], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<48x1024xf32>) outs(%ea : tensor<48x1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %two : f32
    linalg.yield %m : f32
  } -> tensor<48x1024xf32>
  %e = tensor.empty() : tensor<48x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x64xf32>) -> tensor<48x64xf32>
  %p = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                     split_k = 4>}
       ins(%a2, %b : tensor<48x1024xf32>, tensor<1024x64xf32>) outs(%c : tensor<48x64xf32>) -> tensor<48x64xf32>
  return %p : tensor<48x64xf32>
}

func.func @unannotated(%a: tensor<49x4608xf32>, %b: tensor<4608x512xf32>, %c: tensor<49x512xf32>) -> tensor<49x512xf32> {
  %p = linalg.matmul ins(%a, %b : tensor<49x4608xf32>, tensor<4608x512xf32>) outs(%c : tensor<49x512xf32>) -> tensor<49x512xf32>
  return %p : tensor<49x512xf32>
}

