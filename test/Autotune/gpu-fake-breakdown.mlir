// `dltune run --target gpu --breakdown` times each tuning task's kernel on
// the GPU as the model's are lowered (the GPU default configurations: the
// convolution a GEMM gathering its patches), with CUDA events, against
// %fake_cuda, whose events all read DLTUNE_FAKE_CUDA_EVENT_MS; before
// 2026-11-30 --breakdown was ignored on the GPU. No GPU was involved.
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_EVENT_MS=2 dltune run %S/../Integration/gpu-model-device.mlir --entry model --target gpu --default-config --breakdown --repeat 2 | FileCheck %s
// CHECK: model (gpu): median 2.000 ms
// CHECK-NEXT: task {{ *}}ops ms/call total ms share
// CHECK-NEXT: linalg.matmul 64x32;32x64;64x64 {{ *}}1 {{ *}}2.000 {{ *}}2.000 100.0%
// CHECK-NEXT: linalg.matmul gathering A 100x16;16x32;100x32 {{ *}}1 {{ *}}2.000 {{ *}}2.000 100.0%
// CHECK-NEXT: ops without a task {{.*}} -2.000 -100.0%
