// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="emulate=true" | FileCheck %s

// With emulate=true the matmul kernel is built as for the GPU, then run by
// the CPU: a loop over the blocks (y, then x: 2 x 4), each an OpenMP team
// of the block's 64 threads (8 x 8) whose thread number gives the thread
// ids, the barriers as OpenMP barriers and the two shared tiles as host
// buffers. Nothing is left for a GPU.
// CHECK-NOT: gpu.
// CHECK-LABEL: llvm.func @matmul
// CHECK-DAG: %[[TEAM:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-DAG: llvm.call @malloc
// CHECK-DAG: llvm.call @malloc
// CHECK: omp.parallel num_threads(%[[TEAM]] : i32)
// CHECK: llvm.call @omp_get_thread_num()
// CHECK: omp.barrier
// CHECK: omp.terminator
// CHECK-COUNT-2: llvm.call @free
// CHECK-NOT: gpu.
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, vector = 4, pad = 0, stages = 1>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x128xf32>) outs(%init : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
