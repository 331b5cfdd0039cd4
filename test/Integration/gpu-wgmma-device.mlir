// On a machine with a compute capability 9.0 GPU (H100, H200) and driver:
// warpgroup MMA kernels (wgmma = 1, lib/Transforms/GpuWarpgroupMatmul.h)
// match the untuned CPU lowering. Written before any GPU ran them: two
// warpgroups a block with three stages, one warpgroup of 128 rows with four
// stages, fewer k slices than stages, C accumulated (no fill) with two
// stages, a view of A that starts 64 rows in (the tensor map's start), bf16
// batches with one stage, and a bias and ReLU fused into the store. A kernel
// whose mbarrier phases were wrong would hang: this file runs alone in
// scripts/gpu-check.sh's lit step under lit's timeout.
// REQUIRES: cuda-driver
// RUN: dltune run %s --entry two_warpgroups --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry one_warpgroup_four_stages --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry short_k --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry accumulate --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry view --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry bf16_batch --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry bias_relu --target gpu --check --repeat 3 --json | FileCheck %s
// TF32 (since 2026-11-30; never run on a GPU when written): B transposed
// by the tiled kernel first, two warpgroups, three stages; one warpgroup of
// 128 rows by 64 columns (two fragments, the kernel's own fragment store)
// adding to C; an attention's Q K^T whose K^T is a view the TMA reads,
// batched, one stage; a bias and ReLU fused into the store.
// RUN: dltune run %s --entry tf32_two_warpgroups --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry tf32_tall_warpgroup --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry tf32_scores --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry tf32_bias_relu --target gpu --check --repeat 3 --json | FileCheck %s
// CHECK: "check":"ok"

func.func @two_warpgroups(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 128, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @one_warpgroup_four_stages(%a: tensor<256x512xf16>, %b: tensor<512x256xf16>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 4, interleave = 0,
                                                     mma = 1, warp_m = 128, warp_n = 128, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<256x512xf16>, tensor<512x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @short_k(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %z = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 256, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 256, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

func.func @accumulate(%a: tensor<128x192xf16>, %b: tensor<192x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<128x192xf16>, tensor<192x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

func.func @view(%big: tensor<256x128xf16>, %b: tensor<128x128xf16>) -> tensor<128x128xf32> {
  %a = tensor.extract_slice %big[64, 0] [128, 128] [1, 1] : tensor<256x128xf16> to tensor<128x128xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 128, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

func.func @bf16_batch(%a: tensor<4x64x128xbf16>, %b: tensor<4x128x64xbf16>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %r = linalg.batch_matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 1, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<4x64x128xbf16>, tensor<4x128x64xbf16>) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  return %r : tensor<4x64x64xf32>
}

func.func @bias_relu(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 128, block_n = 64, thread_m = 8, thread_n = 8,
                                                      tile_k = 64, vector = 8, pad = 0, stages = 2, interleave = 0,
                                                      mma = 1, warp_m = 64, warp_n = 64, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e1 = tensor.empty() : tensor<128x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%e1 : tensor<128x128xf32>) {
  ^bb0(%p: f32, %c: f32, %o: f32):
    %s = arith.addf %p, %c : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

func.func @tf32_two_warpgroups(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32>
    attributes {dltune.allow_tf32} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 32, vector = 4, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 128, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @tf32_tall_warpgroup(%a: tensor<256x160xf32>, %b: tensor<160x128xf32>, %c: tensor<256x128xf32>) -> tensor<256x128xf32>
    attributes {dltune.allow_tf32} {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 64, thread_m = 8, thread_n = 8,
                                                     tile_k = 32, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 128, warp_n = 64, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<256x160xf32>, tensor<160x128xf32>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

func.func @tf32_scores(%q: tensor<4x128x64xf32>, %k: tensor<4x64x64xf32>) -> tensor<4x128x64xf32>
    attributes {dltune.allow_tf32} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64x64xf32>
  %kt = linalg.transpose ins(%k : tensor<4x64x64xf32>) outs(%e : tensor<4x64x64xf32>) permutation = [0, 2, 1]
  %ce = tensor.empty() : tensor<4x128x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %r = linalg.batch_matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 8, thread_n = 8,
                                                     tile_k = 32, vector = 4, pad = 0, stages = 1, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1, wgmma = 1>}
       ins(%q, %kt : tensor<4x128x64xf32>, tensor<4x64x64xf32>) outs(%c : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  return %r : tensor<4x128x64xf32>
}

func.func @tf32_bias_relu(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %bias: tensor<128xf32>) -> tensor<128x128xf32>
    attributes {dltune.allow_tf32} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 32, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 128, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  %o = tensor.empty() : tensor<128x128xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
       ins(%r, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%o : tensor<128x128xf32>) {
  ^bb0(%x: f32, %bb: f32, %out: f32):
    %s = arith.addf %x, %bb : f32
    %zz = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %zz : f32
    linalg.yield %m : f32
  } -> tensor<128x128xf32>
  return %y : tensor<128x128xf32>
}
