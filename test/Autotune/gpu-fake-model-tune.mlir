// REQUIRES: ptxas
// `dltune tune --target gpu --entry` times the model on the GPU, default
// configurations against tuned ones, and checks the tuned model against the
// CPU (its default configuration, gpu-reference=scheduled, since
// 2026-11-30; the untuned lowering before); it used to JIT-run both on the CPU and call that the
// model's latency. Against %fake_cuda nothing computes, so the check fails
// and the exit status says so (2); the latency is kept for the GPU device.
// The fake's events all read DLTUNE_FAKE_CUDA_EVENT_MS, so a time of
// exactly 7.000 ms was measured with CUDA events, not on the CPU.
// With scheduler survey, the model timed after each epoch is timed the same
// way (it used to be refused for the GPU).
// No GPU was involved.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_EVENT_MS=7 not dltune tune %s --target gpu --trials 1 --chip sm_80 --entry model --db %t/g.db --quiet 2>&1 | FileCheck %s
// RUN: dltune db summary --db %t/g.db | FileCheck %s --check-prefix=DB
// CHECK: model @model end to end on the GPU: default configs 7.000 ms, tuned 7.000 ms (1.00x); tuned check against the CPU's default configuration: FAILED
// CHECK-NEXT: (launches timed with CUDA events
// DB: 1 devices
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_EVENT_MS=7 not dltune tune %s --target gpu --chip sm_80 --scheduler survey --entry model --slot-trials 1 --trials 4 --confirm-top 0 --db %t/s.db 2>&1 >/dev/null | FileCheck %s --check-prefix=SURVEY
// SURVEY: model: timed end to end 7.000 ms (sum of its tasks
func.func @model(%x: tensor<64x32xf32>, %k: tensor<3x3x1x8xf32>) -> tensor<1x6x6x8xf32> {
  %w = arith.constant dense<0.25> : tensor<32x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %img = tensor.expand_shape %mm [[0, 1, 2], [3]] output_shape [1, 8, 8, 64] : tensor<64x64xf32> into tensor<1x8x8x64xf32>
  %one = tensor.extract_slice %img[0, 0, 0, 0] [1, 8, 8, 1] [1, 1, 1, 1] : tensor<1x8x8x64xf32> to tensor<1x8x8x1xf32>
  %e2 = tensor.empty() : tensor<1x6x6x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%one, %k : tensor<1x8x8x1xf32>, tensor<3x3x1x8xf32>) outs(%acc : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %conv : tensor<1x6x6x8xf32>
}
