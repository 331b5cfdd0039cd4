// REQUIRES: ptxas
// A plain matmul's GPU tuning task is the kernel the model runs: C's zero
// fill goes into the task, where the kernel absorbs it as its
// accumulators' start value (one launch, C never loaded). Before
// 2026-11-29 the task took C as an argument and timed a kernel that loaded
// C first, which the model never runs. Host side only, against %fake_cuda
// (nothing computes: every candidate is a wrong result).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --db %t/t.db --work-dir %t/w 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: linalg.matmul 128x64,64x96,128x96
// RUN: cat %t/w/*/kernel-*.mlir | FileCheck %s
// The operands are the arguments; C is a fresh tensor, filled.
// CHECK: func.func @dltune_task(%{{.*}}: tensor<128x64xf32>, %{{.*}}: tensor<64x96xf32>) -> tensor<128x96xf32>
// CHECK: linalg.fill
// CHECK: linalg.matmul
// With a configuration set as the tuner sets it: one launch, the fill
// absorbed by the matmul's kernel.
// RUN: sed 's/linalg.matmul {/linalg.matmul {dltune.config = #dltune.config<block_m = 64, block_n = 32, thread_m = 4, thread_n = 4, tile_k = 16, vector = 4, pad = 4, stages = 1, interleave = 0>, /' %t/w/*/kernel-*.mlir > %t/kernel.mlir
// RUN: dltune-opt %t/kernel.mlir --pass-pipeline="builtin.module(dltune-apply,dltune-strip,dltune-lower-gpu{format=isa})" > %t/lowered.mlir
// RUN: grep -c gpu.launch_func %t/lowered.mlir | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}

func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x96xf32>) -> tensor<128x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x96xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128x96xf32>) -> tensor<128x96xf32>
  %y = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x96xf32>) outs(%z : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %y : tensor<128x96xf32>
}
