// Every intermediate buffer is freed right after its last use, not at the
// end of the function: the ownership-based deallocation pipeline puts each
// dealloc before its block's terminator, so all of a model's activations
// used to be live at once (MobileNet-v2: about 100 buffers, more than the
// L3, each layer writing memory no cache held). Freed right after its last
// reader, a buffer's memory is reused, cache-warm, by the next layers
// (MobileNet-v2 1.22x, paired in-process, 2026-11-26).
// Here three matmuls in a chain (none can write over its input): the first
// product is freed right after the second reads it, before the third's
// buffer is allocated.
// RUN: dltune-opt %s --dltune-lower-cpu --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 | FileCheck %s
// RUN: dltune run %s --entry chain --check --repeat 1 | FileCheck %s --check-prefix=JIT
// CHECK-LABEL: IR Dump After ConvertBufferizationToMemRef
// CHECK: linalg.matmul ins(%arg0, %arg0 : {{.*}}) outs(%[[P1:[a-z0-9_]+]] :
// CHECK: %[[P2:[a-z0-9_]+]] = memref.alloc()
// CHECK: linalg.matmul ins(%[[P1]], %[[P1]] : {{.*}}) outs(%[[P2]] :
// CHECK-NEXT: memref.dealloc %[[P1]]
// CHECK: linalg.matmul ins(%[[P2]], %[[P2]] : {{.*}}) outs(%[[P3:[a-z0-9_]+]] :
// CHECK-NEXT: memref.dealloc %[[P2]]
// CHECK-NEXT: return %[[P3]]
// JIT: check: ok
func.func @chain(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p1 = linalg.matmul ins(%x, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p2 = linalg.matmul ins(%p1, %p1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p3 = linalg.matmul ins(%p2, %p2 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %p3 : tensor<64x64xf32>
}
