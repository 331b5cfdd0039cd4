// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s
// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s --check-prefix=NODIV

// Constants are sunk into the kernels before outlining: no kernel divides
// by a 64-bit parameter (the index arithmetic uses shifts and immediates).
// NODIV-NOT: div.u64

// Tensor cores (mma = 1, GpuMatmulKernel.h): f32 inputs of a module that
// opts in to TF32 become mma.sync m16n8k8 TF32 with f32 accumulators; the
// block is (32 * block_n / warp_n, block_m / warp_m) threads; A (64 x
// (16 + 4) floats) and B (16 x (64 + 8) floats) stay row-major in padded
// shared memory, two stages of each; the fill starts the accumulators; C is
// stored as pairs (st.global.v2). A fragments come from ldmatrix (B of
// TF32 from scalar loads: ldmatrix cannot transpose 32-bit elements); f16 B
// fragments from ldmatrix.trans.
// CHECK-LABEL: gpu.binary @tf32_kernel
// CHECK-SAME: .maxntid 64, 2, 1
// CHECK-SAME: __wg_tf32_kernel_0[10240]
// CHECK-SAME: __wg_tf32_kernel_1[9216]
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: st.shared.v4.b32
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-SAME: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-SAME: st.global.v2.b32
module attributes {dltune.allow_tf32} {
  func.func @tf32(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %init = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul {dltune.target = "gpu",
                        dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                       tile_k = 16, vector = 4, pad = 0, stages = 2, interleave = 0,
                                                       mma = 1, warp_m = 32, warp_n = 32>}
         ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
}

// -----

// f16 inputs need no opt-in: mma.sync m16n8k16 with f16 operands, B
// fragments by ldmatrix.trans, A rows
// padded by 8 halves (64 x 40 x 2 bytes per stage), 16-byte global loads.
// CHECK-LABEL: gpu.binary @half_kernel
// CHECK-SAME: __wg_half_kernel_0[5120]
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @half(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 32, vector = 8, pad = 0, stages = 1, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 32>}
       ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// async_copy = 1: global to shared by cp.async (16-byte copies bypass L1:
// .cg), one group a slice, waited for before the barrier; no register
// staging (no st.shared).
// CHECK-LABEL: gpu.binary @async_kernel
// CHECK-SAME: cp.async.cg.shared.global
// CHECK-SAME: cp.async.commit_group
// CHECK-SAME: cp.async.wait_group {{(\\09)?}}1;
// CHECK-SAME: bar.sync
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-SAME: cp.async.wait_group {{(\\09)?}}0;
// CHECK-NOT: st.shared
// CHECK: }
func.func @async(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 32, vector = 8, pad = 0, stages = 2, interleave = 0,
                                                     mma = 1, warp_m = 32, warp_n = 32, async_copy = 1>}
       ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// cp.async needs its source aligned to the copy size: for a view of A that
// starts one element into its buffer the kernel stages through registers
// instead (the configuration still builds).
// CHECK-LABEL: gpu.binary @async_misaligned_kernel
// CHECK-NOT: cp.async
// CHECK-SAME: st.shared
// CHECK-SAME: mma.sync.aligned.m16n8k16
func.func @async_misaligned(%a: memref<64x64xf16, strided<[72, 1], offset: 1>>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 32 : i64, vector = 8 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 32 : i64, warp_n = 32 : i64, async_copy = 1 : i64}}
    ins(%a, %b : memref<64x64xf16, strided<[72, 1], offset: 1>>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Four stages (cp.async with three slices in flight: wait_group 2 in the
// loop, then 2, 1, 0 for the last three slices) in 143,360 bytes of
// dynamic shared memory: more than the 48 KiB a kernel may declare
// statically, so the launch asks for it (dynamic_shared_memory_size) and
// both tiles are views of the one dynamic buffer, B's 73,728 bytes in.
// CHECK-LABEL: llvm.func @four_stages
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(143360 : i32) : i32
// CHECK: gpu.launch_func <{{.*}}> @four_stages_kernel::@four_stages_kernel {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK-LABEL: gpu.binary @four_stages_kernel
// CHECK-SAME: __dynamic_shmem__0
// CHECK-SAME: cp.async.commit_group
// CHECK-SAME: cp.async.wait_group {{(\\09)?}}2;
// CHECK-SAME: +73728]
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-SAME: cp.async.wait_group {{(\\09)?}}2;
// CHECK-SAME: cp.async.wait_group {{(\\09)?}}1;
// CHECK-SAME: cp.async.wait_group {{(\\09)?}}0;
// CHECK-NOT: st.shared
// CHECK: }
func.func @four_stages(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 4, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1>}
       ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
