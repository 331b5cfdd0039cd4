// Timing with the caches flushed on the GPU (issue 32: "optional L2
// flush, the same in the tuner and in dltune run"): `dltune run --cold`
// and the tuner's flush-caches write twice the L2 (the fake driver's: an
// H100's 50 MiB) on the timing stream before each timed call, the tuner in
// its measuring workers and for the model timed end to end; its records
// are kept under a device of their own. Against %fake_cuda (the log is
// its: one line per cuMemsetD32Async); no GPU was involved.
// RUN: rm -rf %t && mkdir -p %t && touch %t/hot.log
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_LOG=%t/run.log dltune run %s --entry model --target gpu --cold --warmup 2 --repeat 3 --json
// RUN: FileCheck %s --check-prefix=TIMED < %t/run.log
// Three timed calls, three flushes; the warm-up calls flush nothing.
// TIMED-COUNT-3: memset-async 104857600
// TIMED-NOT: memset
// Hot: nothing written.
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_LOG=%t/hot.log dltune run %s --entry model --target gpu --repeat 3 --json
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_LOG=%t/hot.log dltune tune %s --target gpu --trials 2 --db %t/hot.db --work-dir %t/hw --quiet
// RUN: count 0 < %t/hot.log
// The tuner: its measuring workers flush (every candidate's first call is
// timed before the check, which fails here as nothing computes).
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_LOG=%t/tune.log dltune tune %s --target gpu --trials 2 --flush-caches --db %t/cold.db --work-dir %t/cw --quiet
// RUN: FileCheck %s --check-prefix=TUNE < %t/tune.log
// TUNE: memset-async 104857600
// RUN: dltune db export --db %t/cold.db | FileCheck %s --check-prefix=DEVICE
// DEVICE: "timing\":\"caches flushed\"
// DEVICE-SAME: "name":"dltune fake GPU (host memory, kernels never run), caches flushed"
// On the CPU the same option keeps its records apart too.
// RUN: dltune tune %s --trials 1 --flush-caches --confirm-top 0 --db %t/cpu.db --work-dir %t/cpuw --quiet
// RUN: dltune db export --db %t/cpu.db | FileCheck %s --check-prefix=CPU
// CPU: "timing\":\"caches flushed\"
// CPU-SAME: cores), caches flushed"
// And the model timed end to end after tuning.
// (The candidates are in the database by now: only the model is timed,
// two versions in three rounds of ten timed calls, each flushed, after two
// warm-up calls, which are not.)
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_EVENT_MS=7 DLTUNE_FAKE_CUDA_LOG=%t/model.log not dltune tune %s --target gpu --trials 1 --confirm-top 0 --flush-caches --entry model --db %t/cold.db --work-dir %t/cw --quiet | FileCheck %s --check-prefix=MODEL
// MODEL: model @model end to end on the GPU: default configs 7.000 ms
// MODEL-NEXT: (launches timed with CUDA events, 3 alternating rounds of 10 timed calls after 2 warm-up calls; medians; caches flushed before each call)
// RUN: grep -c memset-async %t/model.log | FileCheck %s --check-prefix=SIXTY
// SIXTY: {{^}}60{{$}}

func.func @model(%x: tensor<64x32xf32>) -> tensor<64x64xf32> {
  %w = arith.constant dense<0.25> : tensor<32x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %mm : tensor<64x64xf32>
}
