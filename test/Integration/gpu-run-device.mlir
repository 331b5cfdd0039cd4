// On a machine with an NVIDIA GPU and driver: the scheduled matmul (and the
// fill of its output) runs on the GPU and matches the untuned CPU lowering.
// REQUIRES: cuda-driver
// RUN: dltune run %s --entry matmul --target gpu --check --repeat 3 --json | FileCheck %s
// CHECK: "check":"ok"
func.func @matmul(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, promote = 0, unroll = 1>}
       ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
