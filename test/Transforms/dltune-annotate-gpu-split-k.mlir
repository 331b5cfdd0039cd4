// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu default-config=true" | FileCheck %s
// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu default-config=true gpu-sms=16" | FileCheck %s --check-prefix=SMS16

// Split-K's default (docs/gpu.md, "Split-K"): where C has fewer 64 x 64
// tiles than the GPU has SMs and K is at least 512, the slices double
// while the default blocks are fewer than two an SM (132 SMs by default,
// gpu-sms), up to 8 slices of at least 512. ResNet-18's last 3 x 3
// convolutions at batch 1 (49 x 512 x 4608): 8 slices, measured 2.7x
// faster than none on an H200; with 16 SMs, 32 blocks are enough.
// CHECK-LABEL: func.func @resnet_layer4
// CHECK: dltune.config = #dltune.config<block_m = 16, block_n = 64, interleave = 1, pad = 4, split_k = 8, stages = 2, thread_m = 4, thread_n = 4, tile_k = 16, vector = 4>
// CHECK-SAME: split_k = pow2<1, 16>
// SMS16-LABEL: func.func @resnet_layer4
// SMS16: split_k = 1,
func.func @resnet_layer4(%a: tensor<49x4608xf32>, %b: tensor<4608x512xf32>, %c: tensor<49x512xf32>) -> tensor<49x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<49x4608xf32>, tensor<4608x512xf32>) outs(%c : tensor<49x512xf32>) -> tensor<49x512xf32>
  return %r : tensor<49x512xf32>
}

// -----

// Slices of at least 512: K = 1152 takes two, K = 576 none (the tuner's
// picks for ResNet-18's 784 x 128 x 1152 and x 576 at batch 1).
// CHECK-LABEL: func.func @resnet_layer2
// CHECK: split_k = 2,
// CHECK-LABEL: func.func @resnet_layer2_pointwise
// CHECK: split_k = 1,
func.func @resnet_layer2(%a: tensor<784x1152xf32>, %b: tensor<1152x128xf32>, %c: tensor<784x128xf32>) -> tensor<784x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<784x1152xf32>, tensor<1152x128xf32>) outs(%c : tensor<784x128xf32>) -> tensor<784x128xf32>
  return %r : tensor<784x128xf32>
}
func.func @resnet_layer2_pointwise(%a: tensor<784x576xf32>, %b: tensor<576x128xf32>, %c: tensor<784x128xf32>) -> tensor<784x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<784x576xf32>, tensor<576x128xf32>) outs(%c : tensor<784x128xf32>) -> tensor<784x128xf32>
  return %r : tensor<784x128xf32>
}

// -----

// CHECK-LABEL: func.func @resnet_layer1
// CHECK: split_k = 1,
func.func @resnet_layer1(%a: tensor<3136x576xf32>, %b: tensor<576x64xf32>, %c: tensor<3136x64xf32>) -> tensor<3136x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<3136x576xf32>, tensor<576x64xf32>) outs(%c : tensor<3136x64xf32>) -> tensor<3136x64xf32>
  return %r : tensor<3136x64xf32>
}

// -----

// 256 x 1024 with K = 4096: 4 x 16 = 64 tiles of 64 x 64, fewer than the
// 132 SMs, so split_k is offered; its 64 default blocks double to 512 (256
// are still fewer than two an SM). With K = 2048 the slices stop at four:
// eight would be slices of 256.
// CHECK-LABEL: func.func @wide
// CHECK: split_k = 8,
// CHECK-LABEL: func.func @wide_shorter
// CHECK: split_k = 4,
func.func @wide(%a: tensor<256x4096xf32>, %b: tensor<4096x1024xf32>, %c: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x4096xf32>, tensor<4096x1024xf32>) outs(%c : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %r : tensor<256x1024xf32>
}
func.func @wide_shorter(%a: tensor<256x2048xf32>, %b: tensor<2048x1024xf32>, %c: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x2048xf32>, tensor<2048x1024xf32>) outs(%c : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %r : tensor<256x1024xf32>
}

// -----

// K below 512: no split_k knob at all.
// CHECK-LABEL: func.func @short_k
// CHECK-NOT: split_k
// CHECK: return
func.func @short_k(%a: tensor<64x256xf32>, %b: tensor<256x512xf32>, %c: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x512xf32>) outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}
