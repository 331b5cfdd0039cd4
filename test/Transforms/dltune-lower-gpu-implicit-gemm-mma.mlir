// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" > %t
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=BIN < %t

// Tensor-core kernels gathering A (implicit GEMM: the patch gather of a
// 3x3 convolution of 32 f16 channels, written as --dltune-conv-to-matmul
// writes it) in each way the kernel stages A: with cp.async copies of B in
// three, two and one stages, A is loaded into registers (ld.global.v4: 8
// channels of one pixel) and stored into shared memory (st.shared.v4)
// while B is copied by cp.async; without, both through registers. One
// launch each: the gather is not a kernel. They run only on a GPU
// (gpu-mma-device.mlir, half_conv_*); the SIMT kernels' gathers are checked
// numerically in the CPU emulation (gpu-implicit-gemm-emulated.mlir).
// ptxas (sm_90) assembles all four without spills (2026-11-29).
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
// BIN: gpu.binary @async_three_stages_kernel
// BIN-SAME: cp.async.cg.shared.global
// BIN-SAME: ld.global.v4.b32
// BIN-SAME: mma.sync.aligned.m16n8k16
// BIN-SAME: st.shared.v4.b32
// BIN: gpu.binary @async_two_stages_kernel
// BIN-SAME: cp.async.cg.shared.global
// BIN-SAME: ld.global.v4.b32
// BIN-SAME: mma.sync.aligned.m16n8k16
// BIN-SAME: st.shared.v4.b32
// BIN: gpu.binary @async_one_stage_kernel
// BIN-SAME: cp.async.cg.shared.global
// BIN-SAME: ld.global.v4.b32
// BIN-SAME: st.shared.v4.b32
// BIN-SAME: mma.sync.aligned.m16n8k16
// BIN: gpu.binary @registers_kernel
// BIN-NOT: cp.async
// BIN-SAME: ld.global.v4.b32
// BIN-NOT: cp.async
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
