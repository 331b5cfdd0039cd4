// The reference GPU candidates are checked against: by default the CPU's
// default configuration on all cores (tuner option gpu-reference=scheduled),
// since the untuned loops on one thread took minutes on large tasks (the
// references of ResNet-18 at batch 32: 93 s against 1.0 s on two cores,
// 2026-11-30). `dltune run --check --scheduled-reference` compares with
// the same build.
// RUN: rm -rf %t && mkdir -p %t
// The implicit GEMM's patch gather (a generic reading with tensor.extract)
// builds with the CPU's schedule (its vectorization failed before
// 2026-11-30, which left only the untuned fallback); its outputs equal the
// untuned lowering's.
// RUN: dltune-opt %s --dltune-conv-to-matmul > %t/gemm.mlir
// RUN: dltune run %t/gemm.mlir --entry conv --check --scheduled-reference --repeat 1 --warmup 0 --json | FileCheck %s --check-prefix=CHECKED
// CHECKED: {"check":"ok",{{.*}}"reference":"scheduled"
// RUN: dltune run %t/gemm.mlir --entry conv --check --repeat 1 --warmup 0 | FileCheck %s --check-prefix=UNTUNED
// UNTUNED: check: ok (max relative error {{.*}} vs the untuned reference)
// RUN: not dltune run %t/gemm.mlir --entry conv --scheduled-reference 2>&1 | FileCheck %s --check-prefix=NOCHECK
// NOCHECK: --scheduled-reference needs --check
// The tuner: GPU tasks get the scheduled reference unless told otherwise.
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --confirm-top 0 --db %t/s.db --work-dir %t/s 2>&1 | FileCheck %s --check-prefix=TUNE
// TUNE: running the reference: the CPU's default configuration on all cores
// TUNE-NOT: untuned loops
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --confirm-top 0 --gpu-reference untuned --db %t/u.db --work-dir %t/u 2>&1 | FileCheck %s --check-prefix=OPT-UNTUNED
// OPT-UNTUNED: running the untuned reference
// The two kinds are files of their own, with keys naming the kind (a
// reference made the other way is rebuilt, never trusted); the worker
// writes down which it built.
// RUN: cat %t/s/*/reference-scheduled.bin.key > %t/keys && cat %t/u/*/reference.bin.key >> %t/keys
// RUN: sort -u %t/keys | count 2
// RUN: cat %t/s/*/reference-scheduled.bin.kind | FileCheck %s --check-prefix=KIND
// KIND: {{^}}scheduled{{$}}
// RUN: not ls %t/u/*/reference.bin.kind
// One database and work directory, the kinds in turn: each reference keeps
// its own time (`.ms` beside it), so the untuned one's baseline is its own
// again after the scheduled one's run (the database keeps one baseline a
// task and device; before, the scheduled time came back as untuned).
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --confirm-top 0 --gpu-reference untuned --db %t/m.db --work-dir %t/m > %t/m1.txt 2>&1
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --confirm-top 0 --db %t/m.db --work-dir %t/m > %t/m2.txt 2>&1
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --confirm-top 0 --gpu-reference untuned --db %t/m.db --work-dir %t/m > %t/m3.txt 2>&1
// RUN: not grep 'running the untuned reference' %t/m3.txt
// RUN: grep -o 'cpu *[0-9][0-9.]*' %t/m1.txt > %t/first && grep -o 'cpu *[0-9][0-9.]*' %t/m3.txt > %t/third
// RUN: diff %t/first %t/third
// RUN: not dltune tune %s --target gpu --gpu-reference fast --db %t/x.db 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: gpu-reference must be scheduled or untuned, got 'fast'
func.func @conv(%x: tensor<2x10x10x8xf32>, %k: tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %k : tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  return %y : tensor<2x8x8x16xf32>
}
