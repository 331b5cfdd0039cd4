// RUN: dltune-opt %s --dltune-lower-gpu="chip=sm_90 format=isa fold-pads=false" | FileCheck %s
// RUN: dltune-opt %s --dltune-lower-gpu="chip=sm_90 format=isa fold-pads=false" | FileCheck %s --check-prefix=MEM
// RUN: dltune-opt %s --dltune-lower-gpu="chip=sm_90 format=isa fold-pads=false" | FileCheck %s --check-prefix=STREAM
// RUN: dltune-opt %s --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s --check-prefix=FOLDED
// RUN: dltune-opt %s --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s --check-prefix=FOLDEDMEM

// What a whole model brings that a single op does not: a constant (its
// weights), intermediate buffers, a copy into a padded buffer, a result the
// function allocates. The host code keeps none of them in host memory: the
// weights are read through their device copy (dltuneDeviceConstant uploads
// each once), buffers come from the GPU (mgpuMemAlloc, not malloc) and go
// back at the end unless returned, and the copy is a kernel (not the host's
// memrefCopy, which the JIT did not even find for MobileNet-v2). The pad
// is kept for this (fold-pads=false); by default (FOLDED) the ReLU reads
// the scaled tensor with a bounds check instead: two kernels, two buffers
// (the scaled tensor and the result), no padded one.
// FOLDEDMEM-LABEL: llvm.func @model(
// FOLDEDMEM-COUNT-2: llvm.call @mgpuMemAlloc(
// FOLDEDMEM-NOT: llvm.call @mgpuMemAlloc(
// FOLDED-LABEL: llvm.func @model(
// FOLDED-COUNT-2: gpu.launch_func
// FOLDED-NOT: gpu.launch_func
// CHECK-NOT: @malloc
// CHECK-NOT: @memrefCopy
// CHECK-LABEL: llvm.func @model(
// CHECK: %[[HOST:.*]] = llvm.mlir.addressof @__constant_4xf32
// CHECK: %[[DEV:.*]] = llvm.call @dltuneDeviceConstant(%[[HOST]], %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK: %[[ALIGNED:.*]] = llvm.getelementptr %[[DEV]][0, 0]
// CHECK: gpu.launch_func {{.*}} args({{.*}}%[[ALIGNED]] : !llvm.ptr
// The scaling, the pad's fill, the copy into it and the ReLU.
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: @malloc
// CHECK-NOT: @memrefCopy
// CHECK: llvm.func @dltuneDeviceConstant(!llvm.ptr, i64) -> !llvm.ptr

// MEM: %[[SCALED:.*]] = llvm.call @mgpuMemAlloc(
// MEM: %[[PADDED:.*]] = llvm.call @mgpuMemAlloc(
// MEM: llvm.call @mgpuMemAlloc(
// MEM-NOT: llvm.call @mgpuMemAlloc
// MEM: llvm.call @mgpuMemFree(%[[SCALED]],
// MEM: llvm.call @mgpuMemFree(%[[PADDED]],
// MEM-NOT: llvm.call @mgpuMemFree

// Allocations, launches and frees are queued on one stream without
// waiting (gpu-async-region); the host waits once, before it returns.
// STREAM: %[[S:.*]] = llvm.call @mgpuStreamCreate()
// STREAM-NOT: @mgpuStreamCreate()
// STREAM-NOT: @mgpuStreamSynchronize
// STREAM-COUNT-4: gpu.launch_func <%[[S]] : !llvm.ptr>
// STREAM-NOT: @mgpuStreamSynchronize
// STREAM: llvm.call @mgpuMemFree(%{{.*}}, %[[S]])
// STREAM-NOT: @mgpuStreamSynchronize
// STREAM: llvm.call @mgpuStreamSynchronize(%[[S]])
// STREAM-NOT: @mgpuStreamSynchronize
// STREAM: llvm.return
func.func @model(%x: tensor<1x8x8x4xf32>) -> tensor<1x10x10x4xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                                             affine_map<(n, h, w, c) -> (n, h, w, c)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %w : tensor<1x8x8x4xf32>, tensor<4xf32>) outs(%e : tensor<1x8x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x4xf32>
  %padded = tensor.pad %scaled low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %e2 = tensor.empty() : tensor<1x10x10x4xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%padded : tensor<1x10x10x4xf32>) outs(%e2 : tensor<1x10x10x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x10x10x4xf32>
  return %relu : tensor<1x10x10x4xf32>
}
