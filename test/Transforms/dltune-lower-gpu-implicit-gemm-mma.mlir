// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" > %t
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=BIN < %t

// Tensor-core kernels gathering A (implicit GEMM: the patch gather of a
// 3x3 convolution of 32 f16 channels, written as --dltune-conv-to-matmul
// writes it) in each way the kernel stages A. With cp.async in three, two
// and one stages, where each vector of 8 columns is 8 channels of one pixel,
// A is copied by cp.async from the input like B (12, 8 and 2 copies a
// thread: half of them A's), no global load through registers; a gather
// reading a padded input in place copies with a source size (0 outside
// the input: zero fill); where a vector spans pixels (4 channels) A is
// loaded a lane at a time into registers while B is copied. Without
// cp.async both go through registers (ld.global.v4). One launch each: the
// gather is not a kernel. They run only on a GPU (gpu-mma-device.mlir,
// half_conv_*); the SIMT kernels' gathers are checked numerically in the
// CPU emulation (gpu-implicit-gemm-emulated.mlir). ptxas (sm_90) assembles
// all six without spills (2026-11-29: 46-138 registers with cp.async, 255
// through registers).
// CHECK-LABEL: llvm.func @async_three_stages(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: llvm.func @async_two_stages(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: llvm.func @async_one_stage(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: llvm.func @registers(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: llvm.func @async_padded(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: llvm.func @async_per_lane(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// (A copy's shared address may carry an offset: [%rd39+5120].)
// BIN: gpu.binary @async_three_stages_kernel
// BIN-NOT: ld.global
// BIN-COUNT-12: cp.async.cg.shared.global [%rd{{[0-9+]+}}], [%rd{{[0-9]+}}], 16;
// BIN-NOT: ld.global
// BIN-SAME: mma.sync.aligned.m16n8k16
// BIN: gpu.binary @async_two_stages_kernel
// BIN-NOT: ld.global
// BIN-COUNT-8: cp.async.cg.shared.global [%rd{{[0-9+]+}}], [%rd{{[0-9]+}}], 16;
// BIN-NOT: ld.global
// BIN-SAME: mma.sync.aligned.m16n8k16
// BIN: gpu.binary @async_one_stage_kernel
// BIN-NOT: ld.global
// BIN-COUNT-2: cp.async.cg.shared.global [%rd{{[0-9+]+}}], [%rd{{[0-9]+}}], 16;
// BIN-NOT: ld.global
// BIN-SAME: mma.sync.aligned.m16n8k16
// BIN: gpu.binary @registers_kernel
// BIN-NOT: cp.async
// BIN-SAME: ld.global.v4.b32
// BIN-NOT: cp.async
// BIN-SAME: mma.sync.aligned.m16n8k16
// The source size: 16 bytes inside the input, 0 outside (a select).
// BIN: gpu.binary @async_padded_kernel
// BIN-NOT: ld.global
// BIN-SAME: selp.b32 {{\\09}}[[SIZE:%r[0-9]+]], {{16, 0|0, 16}}, %p{{[0-9]+}};
// BIN-NOT: ld.global
// BIN-SAME: cp.async.cg.shared.global [%rd{{[0-9+]+}}], [%rd{{[0-9]+}}], 16, [[SIZE]];
// BIN-NOT: ld.global
// BIN-SAME: mma.sync.aligned.m16n8k16
// BIN: gpu.binary @async_per_lane_kernel
// BIN-SAME: cp.async.cg.shared.global
// BIN-SAME: ld.global.b16
// BIN-SAME: mma.sync.aligned.m16n8k16

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @async_three_stages(%x: tensor<1x18x18x32xf16>, %b: tensor<288x64xf16>) -> tensor<256x64xf32> {
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

func.func @async_two_stages(%x: tensor<1x18x18x32xf16>, %b: tensor<288x64xf16>) -> tensor<256x64xf32> {
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
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4, tile_k = 32, vector = 8, pad = 0, stages = 2, interleave = 0, mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<256x288xf16>, tensor<288x64xf16>) outs(%c : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

func.func @async_one_stage(%x: tensor<1x18x18x32xf16>, %b: tensor<288x64xf16>) -> tensor<256x64xf32> {
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
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4, tile_k = 16, vector = 8, pad = 0, stages = 1, interleave = 0, mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<256x288xf16>, tensor<288x64xf16>) outs(%c : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

func.func @registers(%x: tensor<1x18x18x32xf16>, %b: tensor<288x64xf16>) -> tensor<256x64xf32> {
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

// A 3x3 convolution of a 16 x 16 x 32 f16 input padded by 1, its pad read
// in place (as --dltune-lower-gpu's fold-pads leaves the gather): the copy
// of a vector outside the input reads nothing and zero-fills.
func.func @async_padded(%x: tensor<1x16x16x32xf16>, %b: tensor<288x64xf16>) -> tensor<256x64xf32> {
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

// A 2x2 convolution of 4 f16 channels (K = 16): a vector of 8 columns
// spans two pixels, so the body runs once a lane and A goes through
// registers while B is copied by cp.async.
func.func @async_per_lane(%x: tensor<1x17x17x4xf16>, %b: tensor<16x64xf16>) -> tensor<256x64xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x16xf16>
  %a = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<256x16xf16>) {
  ^bb0(%out: f16):
    %row = linalg.index 0 : index
    %col = linalg.index 1 : index
    %py = arith.divui %row, %c16 : index
    %px = arith.remui %row, %c16 : index
    %ty = arith.divui %col, %c8 : index
    %q = arith.divui %col, %c4 : index
    %tx = arith.remui %q, %c2 : index
    %ch = arith.remui %col, %c4 : index
    %h = arith.addi %py, %ty : index
    %w = arith.addi %px, %tx : index
    %v = tensor.extract %x[%c0, %h, %w, %ch] : tensor<1x17x17x4xf16>
    linalg.yield %v : f16
  } -> tensor<256x16xf16>
  %ce = tensor.empty() : tensor<256x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ce : tensor<256x64xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4, tile_k = 16, vector = 8, pad = 0, stages = 2, interleave = 0, mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<256x16xf16>, tensor<16x64xf16>) outs(%c : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}
