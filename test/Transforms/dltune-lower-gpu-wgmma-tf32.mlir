// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s
// RUN: dltune-opt %s --split-input-file --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa transpose-views=false" | FileCheck %s --check-prefix=COPY

// Warpgroup MMA of f32 inputs as TF32 (wgmma = 1 with the TF32 opt-in;
// lib/Transforms/GpuWarpgroupMatmul.h). wgmma reads TF32 only k-major, so
// the kernel reads B transposed: a k slice is 32 floats (128 bytes), A
// comes in boxes of 128 rows x 32 k, B transposed in boxes of 128 rows (its
// columns) x 32 k, both 128-byte swizzled. MLIR 22's nvgpu.warpgroup.mma
// cannot lower TF32 (it counts f32 as 2 bytes), so the kernel emits the
// NVVM wgmma ops on descriptors it builds itself: four m64n128k8 a slice,
// one group in flight, and stores its fragments (pairs of floats) into
// shared memory itself. A B that is not contiguous along k is copied
// transposed by the tiled transpose kernel first (two launches), into a
// buffer freed at the end of the call (its tensor map is encoded when the
// host queues the launch).
// CHECK-LABEL: llvm.func @tf32(
// CHECK: llvm.call @mgpuTensorMapEncodeTiledMemref
// CHECK: gpu.launch_func {{.*}}@tf32_kernel::@tf32_kernel
// CHECK: llvm.call @mgpuTensorMapEncodeTiledMemref
// CHECK: gpu.launch_func {{.*}}@tf32_kernel_0::@tf32_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.call @mgpuMemFree
// CHECK: gpu.binary @tf32_kernel
// CHECK-SAME: .maxntid 32, 8, 1
// CHECK-SAME: [4224]
// CHECK: gpu.binary @tf32_kernel_0
// CHECK-SAME: chip = "sm_90a"
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK-SAME: wgmma.fence.sync.aligned
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-NOT: wgmma.mma_async
// CHECK-SAME: wgmma.commit_group.sync.aligned;\0A\09wgmma.wait_group.sync.aligned \091;
// CHECK-SAME: wgmma.wait_group.sync.aligned \090;
// CHECK-SAME: st.shared.v2.b32
// CHECK-SAME: st.global.v4.b32
module attributes {dltune.allow_tf32} {
func.func @tf32(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
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
}

// -----

// An attention's scores Q K^T: B is K transposed, a view contiguous along
// k (GpuTransposeViews.h), which the TMA reads as it is: one launch, no
// copy (with transpose-views=false: the transpose kernel, then the copy
// back that the TF32 kernel makes of a B not contiguous along k).
// One warpgroup of 128 rows (two m64 fragments, which the TF32 kernel may
// pair with any block_n: it stores its fragments itself) by 64 columns,
// one buffer.
// CHECK-LABEL: llvm.func @scores(
// CHECK: gpu.launch_func {{.*}}@scores_kernel::@scores_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @scores_kernel
// CHECK-SAME: .maxntid 128, 1, 1
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// CHECK-NOT: wgmma.mma_async
// CHECK-SAME: wgmma.commit_group.sync.aligned;\0A\09wgmma.wait_group.sync.aligned \090;
// COPY-LABEL: llvm.func @scores(
// COPY-COUNT-3: gpu.launch_func
// COPY-NOT: gpu.launch_func
module attributes {dltune.allow_tf32} {
func.func @scores(%q: tensor<4x128x32xf32>, %k: tensor<4x64x32xf32>) -> tensor<4x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32x64xf32>
  %kt = linalg.transpose ins(%k : tensor<4x64x32xf32>) outs(%e : tensor<4x32x64xf32>) permutation = [0, 2, 1]
  %ce = tensor.empty() : tensor<4x128x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ce : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %r = linalg.batch_matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 64, thread_m = 8, thread_n = 8,
                                                     tile_k = 32, vector = 4, pad = 0, stages = 1, interleave = 0,
                                                     mma = 1, warp_m = 128, warp_n = 64, async_copy = 1, wgmma = 1>}
       ins(%q, %kt : tensor<4x128x32xf32>, tensor<4x32x64xf32>) outs(%c : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  return %r : tensor<4x128x64xf32>
}
}
