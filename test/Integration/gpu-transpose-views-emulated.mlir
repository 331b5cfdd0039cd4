// The attention's head transposes as strided views (--dltune-lower-gpu,
// transpose-views, on by default): Q and V are views of the QKV product
// that the batch matmuls read, and the heads' results are written through a
// view into the rows the output projection reads; K transposed (its
// innermost dimension moves) is a view too since 2026-11-29, read by the
// SIMT batch matmul as a B contiguous along k. Checked against the untuned CPU
// lowering by the CPU emulation of the kernels (no GPU needed), with and
// without the views, and by the launches of the lowered host code.
// RUN: dltune run %s --entry attention --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry attention --target gpu --default-config --emulate-gpu --gpu-lowering-options "transpose-views=false" --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// Launches: the QKV matmul, the two batch matmuls and the output
// projection; with transpose-views=false also the copies of Q, K and V and
// the copy back.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=VIEWS
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa transpose-views=false})" 2>/dev/null | FileCheck %s --check-prefix=COPIES
// VIEWS-LABEL: llvm.func @attention(
// VIEWS-COUNT-4: gpu.launch_func
// VIEWS-NOT: gpu.launch_func
// VIEWS-LABEL: llvm.func @scores(
// COPIES-LABEL: llvm.func @attention(
// COPIES-COUNT-8: gpu.launch_func
// COPIES-NOT: gpu.launch_func
// COPIES-LABEL: llvm.func @scores(

func.func @attention(%x: tensor<64x64xf32>, %w: tensor<64x192xf32>, %wo: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x192xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x192xf32>) -> tensor<64x192xf32>
  %qkv = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x192xf32>) outs(%f0 : tensor<64x192xf32>) -> tensor<64x192xf32>
  %qs = tensor.extract_slice %qkv[0, 0] [64, 64] [1, 1] : tensor<64x192xf32> to tensor<64x64xf32>
  %ks = tensor.extract_slice %qkv[0, 64] [64, 64] [1, 1] : tensor<64x192xf32> to tensor<64x64xf32>
  %vs = tensor.extract_slice %qkv[0, 128] [64, 64] [1, 1] : tensor<64x192xf32> to tensor<64x64xf32>
  %qe = tensor.expand_shape %qs [[0], [1, 2]] output_shape [64, 2, 32] : tensor<64x64xf32> into tensor<64x2x32xf32>
  %ke = tensor.expand_shape %ks [[0], [1, 2]] output_shape [64, 2, 32] : tensor<64x64xf32> into tensor<64x2x32xf32>
  %ve = tensor.expand_shape %vs [[0], [1, 2]] output_shape [64, 2, 32] : tensor<64x64xf32> into tensor<64x2x32xf32>
  %qt0 = tensor.empty() : tensor<2x64x32xf32>
  %q = linalg.transpose ins(%qe : tensor<64x2x32xf32>) outs(%qt0 : tensor<2x64x32xf32>) permutation = [1, 0, 2]
  %kt0 = tensor.empty() : tensor<2x32x64xf32>
  %k = linalg.transpose ins(%ke : tensor<64x2x32xf32>) outs(%kt0 : tensor<2x32x64xf32>) permutation = [1, 2, 0]
  %vt0 = tensor.empty() : tensor<2x64x32xf32>
  %v = linalg.transpose ins(%ve : tensor<64x2x32xf32>) outs(%vt0 : tensor<2x64x32xf32>) permutation = [1, 0, 2]
  %e1 = tensor.empty() : tensor<2x64x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x64x32xf32>, tensor<2x32x64xf32>) outs(%f1 : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %e2 = tensor.empty() : tensor<2x64x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  %o = linalg.batch_matmul ins(%s, %v : tensor<2x64x64xf32>, tensor<2x64x32xf32>) outs(%f2 : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  %ot0 = tensor.empty() : tensor<64x2x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x64x32xf32>) outs(%ot0 : tensor<64x2x32xf32>) permutation = [1, 0, 2]
  %rows = tensor.collapse_shape %ot [[0], [1, 2]] : tensor<64x2x32xf32> into tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.matmul ins(%rows, %wo : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// K transposed read as B by batch matmuls of other SIMT tiles (2 x 4
// register tiles; vectors of 2 along k in two stages, of 4 in one), checked the same
// way; one launch each (no copy).
// RUN: dltune run %s --entry scores --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: sed 's/tile_k = 16, vector = 2, pad = 4, stages = 2/tile_k = 16, vector = 4, pad = 0, stages = 1/' %s > %t.other.mlir
// RUN: dltune run %t.other.mlir --entry scores --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=SCORES
// SCORES-LABEL: llvm.func @scores(
// SCORES-COUNT-1: gpu.launch_func
// SCORES-NOT: gpu.launch_func
func.func @scores(%q: tensor<2x64x32xf32>, %kr: tensor<64x2x32xf32>) -> tensor<2x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %kt0 = tensor.empty() : tensor<2x32x64xf32>
  %k = linalg.transpose ins(%kr : tensor<64x2x32xf32>) outs(%kt0 : tensor<2x32x64xf32>) permutation = [1, 2, 0]
  %e = tensor.empty() : tensor<2x64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %s = linalg.batch_matmul {dltune.gpu_kernel = {block_m = 16, block_n = 32, thread_m = 2, thread_n = 4,
                                                 tile_k = 16, vector = 2, pad = 4, stages = 2, interleave = 1}}
      ins(%q, %k : tensor<2x64x32xf32>, tensor<2x32x64xf32>) outs(%f : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  return %s : tensor<2x64x64xf32>
}
