// REQUIRES: ptxas
// A convolution's GPU tuning task is the kernel the model runs: the patch
// gather of --dltune-conv-to-matmul, the padded input it reads and C's
// fill go into the task with the matmul, so that the lowering computes
// the gather in the matmul kernel's loads (an implicit GEMM, one launch)
// as it does in the model. Before 2026-11-29 the task took the patch
// buffer as an argument and timed a matmul reading it, a kernel the model
// never runs. Host side only, against %fake_cuda (nothing computes: every
// candidate is a wrong result).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --db %t/t.db --work-dir %t/w 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: linalg.matmul gathering A 256x288,288x64,256x64
// RUN: cat %t/w/*/kernel-*.mlir | FileCheck %s
// The input and the weights are the arguments; C is a fresh tensor.
// CHECK: func.func @dltune_task(%{{.*}}: tensor<1x16x16x32xf32>, %{{.*}}: tensor<288x64xf32>) -> tensor<256x64xf32>
// CHECK: tensor.pad
// CHECK: linalg.generic
// CHECK: tensor.extract
// CHECK: linalg.fill
// CHECK: linalg.matmul
// The task's kernel, with a configuration set as the tuner sets it: one
// launch (two with implicit-gemm=false: the gather's kernel and the
// matmul's).
// RUN: sed 's/linalg.matmul {/linalg.matmul {dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4, tile_k = 16, vector = 4, pad = 4, stages = 2, interleave = 1>, /' %t/w/*/kernel-*.mlir > %t/kernel.mlir
// RUN: dltune-opt %t/kernel.mlir --pass-pipeline="builtin.module(dltune-apply,dltune-strip,dltune-lower-gpu{format=isa})" | grep -c gpu.launch_func | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// RUN: dltune-opt %t/kernel.mlir --pass-pipeline="builtin.module(dltune-apply,dltune-strip,dltune-lower-gpu{format=isa implicit-gemm=false})" | grep -c gpu.launch_func | FileCheck %s --check-prefix=TWO
// TWO: {{^}}2{{$}}

func.func @conv(%x: tensor<1x16x16x32xf32>, %w: tensor<3x3x32x64xf32>) -> tensor<1x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x32xf32> to tensor<1x18x18x32xf32>
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x18x32xf32>, tensor<3x3x32x64xf32>) outs(%z : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %y : tensor<1x16x16x64xf32>
}
