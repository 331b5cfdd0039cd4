// On a machine with an NVIDIA GPU and driver: the scheduled matmul (the
// fill of its output absorbed) runs on the GPU and matches the untuned CPU
// lowering, with one and two shared-memory stages, a strided output and a
// batch.
// REQUIRES: cuda-driver
// RUN: dltune run %s --entry matmul --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry staged --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry strided --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry batch --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry half --target gpu --check --repeat 3 --json | FileCheck %s
// RUN: dltune run %s --entry bias_relu --target gpu --check --repeat 3 --json | FileCheck %s
// CHECK: "check":"ok"
func.func @matmul(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, vector = 4, pad = 0, stages = 1>}
       ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @staged(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                     tile_k = 8, vector = 4, pad = 4, stages = 2, interleave = 1>}
       ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @strided(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x160xf32>) -> tensor<128x160xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<128x160xf32>) -> tensor<128x160xf32>
  %slice = tensor.extract_slice %init[0, 0] [128, 128] [1, 1] : tensor<128x160xf32> to tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 4, stages = 2, interleave = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%slice : tensor<128x128xf32>) -> tensor<128x128xf32>
  %full = tensor.insert_slice %r into %init[0, 0] [128, 128] [1, 1] : tensor<128x128xf32> into tensor<128x160xf32>
  return %full : tensor<128x160xf32>
}

func.func @batch(%a: tensor<4x64x32xf32>, %b: tensor<4x32x64xf32>, %c: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %r = linalg.batch_matmul {dltune.target = "gpu",
                            dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 2, thread_n = 2,
                                                           tile_k = 8, vector = 1, pad = 0, stages = 1>}
       ins(%a, %b : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%c : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  return %r : tensor<4x64x64xf32>
}

func.func @half(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 2, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 4, stages = 2, interleave = 1>}
       ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// A bias and a ReLU computed by the matmul kernel as it stores (fuse-epilogues).
func.func @bias_relu(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %bias: tensor<256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 128, block_n = 128, thread_m = 8, thread_n = 8,
                                                      tile_k = 8, vector = 4, pad = 4, stages = 2, interleave = 1>}
       ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%e1 : tensor<256x256xf32>) {
  ^bb0(%p: f32, %c: f32, %o: f32):
    %s = arith.addf %p, %c : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
