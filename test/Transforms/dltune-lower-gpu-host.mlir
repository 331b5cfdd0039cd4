// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s

// Ops the schedule leaves on the host (an untuned element-wise op, a fill
// the matmul cannot absorb because it covers more than the matmul's output,
// a view of the filled buffer) are mapped to the GPU too, so that the host
// code only launches kernels and never touches device memory. Their loops
// are collapsed and tiled into blocks of 256 threads: no launch may have
// blocks of one thread (a 2048x2048 fill mapped that way ran 4M one-thread
// blocks). The element-wise op and the fill run over the same points and
// touch different buffers: their loops are one kernel, beside the matmul.
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: llvm.store
// CHECK-NOT: .maxntid 1, 1, 1
// CHECK: .maxntid 256, 1, 1
// CHECK-NOT: .maxntid 1, 1, 1
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x160xf32>)
    -> (tensor<128x160xf32>, tensor<128x160xf32>) {
  %zero = arith.constant 0.0 : f32
  %doubled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<128x160xf32>) outs(%c : tensor<128x160xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<128x160xf32>
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<128x160xf32>) -> tensor<128x160xf32>
  %slice = tensor.extract_slice %init[0, 0] [128, 128] [1, 1] : tensor<128x160xf32> to tensor<128x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 0, stages = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%slice : tensor<128x128xf32>) -> tensor<128x128xf32>
  %full = tensor.insert_slice %r into %init[0, 0] [128, 128] [1, 1] : tensor<128x128xf32> into tensor<128x160xf32>
  return %full, %doubled : tensor<128x160xf32>, tensor<128x160xf32>
}
