// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s

// A GPU matmul schedule becomes one kernel (GpuMatmulKernel.h): vector
// loads of A and B (ld.global.v4), A stored k-major and B row by row into
// shared memory (padded rows: 16 x (64 + 4) floats each), a barrier, vector
// loads of the fragments, FMAs into the register tile, vector stores of C.
// The zero fill of the output starts the accumulators: no kernel of its own,
// and C is never loaded.
// CHECK-LABEL: llvm.func @fused_fill
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @fused_fill_kernel
// CHECK-SAME: .maxntid 16, 16, 1
// CHECK-SAME: .maxnreg 255
// CHECK-SAME: .shared .align {{[0-9]+}} .b8 __wg_fused_fill_kernel_0[4352];
// CHECK-SAME: .shared .align {{[0-9]+}} .b8 __wg_fused_fill_kernel_1[4352];
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: st.shared.v4.b32
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.v4.b32
// CHECK-SAME: fma.rn.f32
// CHECK-SAME: st.global.v4.b32
func.func @fused_fill(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 4, stages = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Without a fill the accumulators start from C. Two stages double the
// shared buffers.
// CHECK-LABEL: gpu.binary @accumulate_kernel
// CHECK-SAME: __wg_accumulate_kernel_0[8192]
// CHECK-SAME: ld.global.v4.b32
func.func @accumulate(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 2>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Any fill value is absorbed, not only zero.
// CHECK-LABEL: llvm.func @filled
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @filled_kernel
func.func @filled(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %v = arith.constant 1.5 : f32
  %init = linalg.fill ins(%v : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 2>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Batch matmul: the batch is the grid's z dimension. Scalar loads of A and
// B with vector = 1.
// CHECK-LABEL: gpu.binary @batch_kernel
// CHECK-SAME: %ctaid.z
// CHECK-SAME: ld.global.b32
func.func @batch(%a: tensor<4x64x32xf32>, %b: tensor<4x32x64xf32>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %r = linalg.batch_matmul {dltune.target = "gpu",
                            dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 2, thread_n = 2,
                                                           tile_k = 8, vector = 1, pad = 0, stages = 1>}
       ins(%a, %b : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  return %r : tensor<4x64x64xf32>
}

// -----

// Half-precision inputs accumulate in f32: converted after the shared-memory
// loads (ld.shared of 16-bit halves, then cvt.f32.f16).
// CHECK-LABEL: gpu.binary @half_kernel
// CHECK-SAME: cvt.f32.f16
// CHECK-SAME: fma.rn.f32
func.func @half(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 2, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 4, stages = 2>}
       ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
