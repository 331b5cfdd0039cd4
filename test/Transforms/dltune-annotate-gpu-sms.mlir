// RUN: dltune-opt %s --dltune-annotate="target=gpu default-config=true" | FileCheck %s --check-prefix=H100
// RUN: dltune-opt %s --dltune-annotate="target=gpu default-config=true gpu-sms=16" | FileCheck %s --check-prefix=SMALL
// RUN: not dltune-opt %s --dltune-annotate="target=gpu gpu-sms=-1" 2>&1 | FileCheck %s --check-prefix=BAD

// The GPU defaults follow the device's SM count (GpuPlanTarget): 1024 x 1024
// is 64 blocks of 128 x 128, too few for an H100's 132 SMs (the assumed
// count: 64 x 64 blocks of 4 x 4 tiles), enough for a GPU with 16 (128 x
// 128 blocks of 8 x 8). The count is recorded as the space's `sms` param.
// H100: dltune.config = #dltune.config<block_m = 64, block_n = 64, interleave = 1, pad = 4, stages = 2, thread_m = 4, thread_n = 4, tile_k = 16, vector = 4>
// H100-SAME: sms = 132
// SMALL: dltune.config = #dltune.config<block_m = 128, block_n = 128, interleave = 1, pad = 4, stages = 2, thread_m = 8, thread_n = 8, tile_k = 8, vector = 4>
// SMALL-SAME: sms = 16
// BAD: dltune-annotate: gpu-sms must not be negative
func.func @mm(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
