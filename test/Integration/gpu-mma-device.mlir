// On a machine with an NVIDIA GPU and driver: tensor-core matmul kernels
// (mma = 1, GpuMatmulKernel.h) match the untuned CPU lowering: TF32 (the
// module opts in) and f16 inputs, accumulating into C (no fill), one
// stage, a strided output, a batch, and cp.async copies (async_copy = 1)
// with one and two stages. `dltune run --check` allows TF32's
// error for f32 results of a module that opts in (kTf32RelativeTolerance).
// REQUIRES: cuda-driver
// RUN: dltune run %s --entry tf32 --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry tf32_accumulate --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry tf32_strided --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry half --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry half_batch --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry tf32_async --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry half_async_one_stage --target gpu --check --repeat 3 --json | FileCheck %s
// Three and four stages (cp.async, stages - 1 slices in flight), in dynamic
// shared memory above 48 KiB (the launch opts in), and K with fewer slices
// than stages - 1 would keep in flight.
// RUN: dltune run %s --entry half_four_stages_dynamic --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry half_three_stages_dynamic_fill --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry tf32_three_stages_short_k --target gpu --check --repeat 3 --json | FileCheck %s
// An element-wise op (bias, ReLU) computed by the tensor-core kernel as it
// stores its accumulators (fuse-epilogues; checked only on a GPU: the CPU
// emulation cannot run tensor-core kernels).
// RUN: dltune run %s --entry half_bias_relu --target gpu --check --repeat 3 --json | FileCheck %s
// Rows the row tile does not divide (since 2026-11-29): the last row of
// blocks clamps its loads and guards its stores (f16, cp.async, three
// stages; TF32 accumulating into C). Never run yet.
// RUN: dltune run %s --entry half_ragged_three_stages --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry tf32_ragged_accumulate --target gpu --check --repeat 3 --json | FileCheck %s
// Convolutions as implicit GEMMs (since 2026-11-29): the kernel gathers a
// 3x3 convolution's patches in its loads of A: copied by cp.async in three
// stages (8 channels of one pixel a copy), the same reading a padded input
// in place (zero-filled copies outside it), and through registers. Never
// run yet.
// RUN: dltune run %s --entry half_conv_three_stages --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry half_conv_padded_three_stages --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry half_conv_registers --target gpu --check --repeat 3 --json | FileCheck %s
// CHECK: "check":"ok"
#id2 = affine_map<(d0, d1) -> (d0, d1)>

module attributes {dltune.allow_tf32} {
func.func @tf32(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64>}
       ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @tf32_accumulate(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 32, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 1, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 16>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

func.func @tf32_strided(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x160xf32>) -> tensor<128x160xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<128x160xf32>) -> tensor<128x160xf32>
  %slice = tensor.extract_slice %init[0, 0] [128, 128] [1, 1] : tensor<128x160xf32> to tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 8, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 32>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%slice : tensor<128x128xf32>) -> tensor<128x128xf32>
  %full = tensor.insert_slice %r into %init[0, 0] [128, 128] [1, 1] : tensor<128x128xf32> into tensor<128x160xf32>
  return %full : tensor<128x160xf32>
}

func.func @half(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 32, vector = 8, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 32>}
       ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

func.func @half_batch(%a: tensor<4x64x64xf16>, %b: tensor<4x64x64xf16>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %r = linalg.batch_matmul {dltune.target = "gpu",
                            dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                           tile_k = 16, vector = 8, pad = 0, stages = 2, interleave = 0,
                                                           mma = 1, warp_m = 32, warp_n = 64>}
       ins(%a, %b : tensor<4x64x64xf16>, tensor<4x64x64xf16>) outs(%init : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  return %r : tensor<4x64x64xf32>
}

func.func @tf32_async(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1>}
       ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @half_async_one_stage(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 32, vector = 4, pad = 0, stages = 1, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// 143,360 bytes of shared memory (4 x (128 x 72 + 64 x 136) halves).
func.func @half_four_stages_dynamic(%a: tensor<256x512xf16>, %b: tensor<512x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 4, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1>}
       ins(%a, %b : tensor<256x512xf16>, tensor<512x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// 81,408 bytes: 128 x 256 blocks of 8 warps.
func.func @half_three_stages_dynamic_fill(%a: tensor<256x256xf16>, %b: tensor<256x512xf16>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 256, thread_m = 8, thread_n = 8,
                                                     tile_k = 32, vector = 8, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1>}
       ins(%a, %b : tensor<256x256xf16>, tensor<256x512xf16>) outs(%init : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}

// Two k slices and three stages: both are in flight before the first
// multiply, and no loop remains.
func.func @tf32_three_stages_short_k(%a: tensor<128x32xf32>, %b: tensor<32x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<128x32xf32>, tensor<32x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

func.func @half_bias_relu(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                      tile_k = 32, vector = 8, pad = 0, stages = 2, interleave = 0,
                                                      mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
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

func.func @half_ragged_three_stages(%a: tensor<196x128xf16>, %b: tensor<128x64xf16>) -> tensor<196x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<196x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<196x64xf32>) -> tensor<196x64xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 32, vector = 8, pad = 0, stages = 3, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<196x128xf16>, tensor<128x64xf16>) outs(%c : tensor<196x64xf32>) -> tensor<196x64xf32>
  return %r : tensor<196x64xf32>
}

func.func @tf32_ragged_accumulate(%a: tensor<100x64xf32>, %b: tensor<64x128xf32>, %c: tensor<100x128xf32>) -> tensor<100x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 16, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<100x64xf32>, tensor<64x128xf32>) outs(%c : tensor<100x128xf32>) -> tensor<100x128xf32>
  return %r : tensor<100x128xf32>
}

func.func @half_conv_three_stages(%x: tensor<1x18x18x32xf16>, %b: tensor<288x64xf16>) -> tensor<256x64xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x288xf16>
  %a = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<256x288xf16>) {
  ^bb0(%out: f16):
    %row = linalg.index 0 : index
    %col = linalg.index 1 : index
    %py = arith.divui %row, %c16 : index
    %px = arith.remui %row, %c16 : index
    %ty = arith.divui %col, %c96 : index
    %q = arith.divui %col, %c32 : index
    %tx = arith.remui %q, %c3 : index
    %ch = arith.remui %col, %c32 : index
    %h = arith.addi %py, %ty : index
    %w = arith.addi %px, %tx : index
    %v = tensor.extract %x[%c0, %h, %w, %ch] : tensor<1x18x18x32xf16>
    linalg.yield %v : f16
  } -> tensor<256x288xf16>
  %ce = tensor.empty() : tensor<256x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ce : tensor<256x64xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4, tile_k = 32, vector = 8, pad = 0, stages = 3, interleave = 0, mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<256x288xf16>, tensor<288x64xf16>) outs(%c : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

func.func @half_conv_registers(%x: tensor<1x18x18x32xf16>, %b: tensor<288x64xf16>) -> tensor<256x64xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x288xf16>
  %a = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<256x288xf16>) {
  ^bb0(%out: f16):
    %row = linalg.index 0 : index
    %col = linalg.index 1 : index
    %py = arith.divui %row, %c16 : index
    %px = arith.remui %row, %c16 : index
    %ty = arith.divui %col, %c96 : index
    %q = arith.divui %col, %c32 : index
    %tx = arith.remui %q, %c3 : index
    %ch = arith.remui %col, %c32 : index
    %h = arith.addi %py, %ty : index
    %w = arith.addi %px, %tx : index
    %v = tensor.extract %x[%c0, %h, %w, %ch] : tensor<1x18x18x32xf16>
    linalg.yield %v : f16
  } -> tensor<256x288xf16>
  %ce = tensor.empty() : tensor<256x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ce : tensor<256x64xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4, tile_k = 32, vector = 8, pad = 0, stages = 2, interleave = 0, mma = 1, warp_m = 32, warp_n = 32, async_copy = 0>}
       ins(%a, %b : tensor<256x288xf16>, tensor<288x64xf16>) outs(%c : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

func.func @half_conv_padded_three_stages(%x: tensor<1x16x16x32xf16>, %b: tensor<288x64xf16>) -> tensor<256x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %zero = arith.constant 0.0 : f32
  %hzero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x288xf16>
  %a = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<256x288xf16>) {
  ^bb0(%out: f16):
    %row = linalg.index 0 : index
    %col = linalg.index 1 : index
    %py = arith.divui %row, %c16 : index
    %px = arith.remui %row, %c16 : index
    %ty = arith.divui %col, %c96 : index
    %q = arith.divui %col, %c32 : index
    %tx = arith.remui %q, %c3 : index
    %ch = arith.remui %col, %c32 : index
    %hp = arith.addi %py, %ty : index
    %wp = arith.addi %px, %tx : index
    %h = arith.subi %hp, %c1 : index
    %w = arith.subi %wp, %c1 : index
    %h0 = arith.cmpi sge, %h, %c0 : index
    %h1 = arith.cmpi slt, %h, %c16 : index
    %w0 = arith.cmpi sge, %w, %c0 : index
    %w1 = arith.cmpi slt, %w, %c16 : index
    %hin = arith.andi %h0, %h1 : i1
    %win = arith.andi %w0, %w1 : i1
    %in = arith.andi %hin, %win : i1
    %hc = arith.select %in, %h, %c0 : index
    %wc = arith.select %in, %w, %c0 : index
    %v = tensor.extract %x[%c0, %hc, %wc, %ch] : tensor<1x16x16x32xf16>
    %r = arith.select %in, %v, %hzero : f16
    linalg.yield %r : f16
  } -> tensor<256x288xf16>
  %ce = tensor.empty() : tensor<256x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ce : tensor<256x64xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4, tile_k = 32, vector = 8, pad = 0, stages = 3, interleave = 0, mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<256x288xf16>, tensor<288x64xf16>) outs(%c : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}
}
