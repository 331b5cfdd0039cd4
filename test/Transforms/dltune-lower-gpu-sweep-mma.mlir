// REQUIRES: ptxas
// RUN: dltune-gpu-sweep %s --count 16 --seed 11 | FileCheck %s

// As dltune-lower-gpu-sweep.mlir, for spaces with tensor cores: f16 inputs,
// and f32 inputs in a module that opts in to TF32. Samples mix SIMT (mma =
// 0) and tensor-core (mma = 1) configurations; each must become one kernel
// with shared memory, barriers and at most 32 spilled bytes (the register
// estimate of the mma constraints keeps them there).

// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// CHECK-DAG: summary linalg.batch_matmul: {{[0-9]+}} valid configs, 16/16 compiled, 16/16 one kernel with shared memory, barriers, <= 32 B spilled, 0 over
// Warpgroup MMA (wgmma = 1; f16 and TF32, compute capability 9.0) is
// sampled too and assembled for sm_90a; TF32 (k slices of 32) with the
// tiled transpose kernel that copies B k-major first.
// CHECK-DAG: linalg.matmul {{.*}}tile_k=64,{{.*}}wgmma=1: ok
// CHECK-DAG: linalg.matmul {{.*}}tile_k=32,{{.*}}wgmma=1: ok [dltune_task_kernel: {{[0-9]+}} regs, 4224 B smem, 1 barriers, 0 B spilled, 256 threads] [dltune_task_kernel:
// CHECK-DAG: linalg.batch_matmul {{.*}}wgmma=1: ok
// CHECK-NOT: FAILED

module attributes {dltune.allow_tf32} {
  func.func @tf32(%a: tensor<512x256xf32>, %b: tensor<256x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %r : tensor<512x512xf32>
  }

  func.func @half(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }

  // 196 rows (a 14 x 14 convolution's pixels): any block_m, the last row
  // of blocks clamped.
  func.func @half_ragged(%a: tensor<196x128xf16>, %b: tensor<128x64xf16>, %c: tensor<196x64xf32>) -> tensor<196x64xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<196x128xf16>, tensor<128x64xf16>) outs(%c : tensor<196x64xf32>) -> tensor<196x64xf32>
    return %r : tensor<196x64xf32>
  }

  func.func @half_batch(%a: tensor<4x64x64xf16>, %b: tensor<4x64x64xf16>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
    %r = linalg.batch_matmul ins(%a, %b : tensor<4x64x64xf16>, tensor<4x64x64xf16>) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    return %r : tensor<4x64x64xf32>
  }
}
