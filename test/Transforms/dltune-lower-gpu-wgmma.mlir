// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s
// RUN: not dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_80 format=isa" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s --check-prefix=STORE

// MLIR 22 lowers nvgpu.warpgroup.mma.store with rows from the block-wide
// thread id, so each warpgroup already lands on its own 64 rows: with
// warp_m = 64 no warpgroup offset may be added to the staging view (one
// would be 64 rows of 136 floats, 34816 bytes, writing past the buffer).
// STORE-NOT: , 34816,

// wgmma exists on compute capability 9.0 only.
// CHIP: error: dltune-lower-gpu: warpgroup MMA (wgmma = 1) needs compute capability 9.0 (chip sm_90 or sm_90a), not sm_80

// Warpgroup MMA (wgmma = 1, lib/Transforms/GpuWarpgroupMatmul.h): the host
// encodes a tensor map of A (boxes of 128 rows x 64 k) and of B (64 k x 64
// columns) and passes them to the kernel; the chip becomes sm_90a (ptxas
// takes wgmma only there). Two warpgroups (warp_m = 64 of block_m = 128):
// 256 threads. The first thread arms each slot's mbarrier with the slice's
// bytes and issues the TMA copies (one box of A, two of B); every thread
// waits on the slot's phase, each warpgroup multiplies its 64 rows by the
// 128 columns (four m64n128k16 a 64-wide slice, one group in flight), all
// meet at a barrier before the slot is refilled; the accumulators go to
// shared memory and out as 16-byte stores. The zero fill is absorbed.
// The mbarriers are shared-memory globals of the kernel's module only.
// CHECK-NOT: @__mbarrier() {addr_space = 3
// CHECK-LABEL: llvm.func @f16(
// CHECK-COUNT-2: llvm.call @mgpuTensorMapEncodeTiledMemref
// CHECK: gpu.launch_func {{.*}}@f16_kernel::@f16_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @f16_kernel
// CHECK-SAME: chip = "sm_90a"
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-SAME: mbarrier.init.shared.b64
// CHECK-SAME: prefetch.tensormap
// CHECK-SAME: mbarrier.arrive.expect_tx.shared.b64
// CHECK-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK-SAME: mbarrier.try_wait.parity.shared.b64
// CHECK-SAME: wgmma.fence.sync.aligned
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK-SAME: wgmma.commit_group.sync.aligned;\0A\09wgmma.wait_group.sync.aligned \091;\0A\09bar.sync
// CHECK-SAME: wgmma.wait_group.sync.aligned \090;\0A\09bar.sync
// CHECK-SAME: st.shared.v2.b32
// CHECK-SAME: st.global.v4.b32
func.func @f16(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
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

// -----

// bf16, batched (the batches stacked into the rows of one 2-D tensor map),
// one warpgroup of 64 x 64, one buffer (the group is waited for before the
// slot is refilled), C read and added (no fill).
// CHECK-LABEL: llvm.func @bf16_batch(
// CHECK: llvm.store {{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT: llvm.alloca
// CHECK: llvm.call @mgpuTensorMapEncodeTiledMemref
// CHECK: gpu.binary @bf16_batch_kernel
// CHECK-SAME: chip = "sm_90a"
// CHECK-SAME: .maxntid 128, 1, 1
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-SAME: wgmma.commit_group.sync.aligned;\0A\09wgmma.wait_group.sync.aligned \090;
// CHECK-SAME: ld.global.v4
// CHECK-SAME: st.global.v4.b32
func.func @bf16_batch(%a: tensor<4x64x128xbf16>, %b: tensor<4x128x64xbf16>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %r = linalg.batch_matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 8, thread_n = 8,
                                                     tile_k = 64, vector = 8, pad = 0, stages = 1, interleave = 0,
                                                     mma = 1, warp_m = 64, warp_n = 64, async_copy = 1, wgmma = 1>}
       ins(%a, %b : tensor<4x64x128xbf16>, tensor<4x128x64xbf16>) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  return %r : tensor<4x64x64xf32>
}
