// REQUIRES: ptxas
// A GPU matmul task whose operands are transposes the model reads as views
// (--dltune-lower-gpu's transpose views: the encoder's Q and V heads, K
// transposed) holds the transposes, so that it times the kernel the model
// runs (strided A, B contiguous along k) rather than one of contiguous
// operands. Where the reshape after a transpose cannot be a view of its
// input (heads put back into rows: the model then writes the producer
// through the inverse view and the reader gets plain rows) the task takes
// the plain operand, without the transpose. Host side only, against
// %fake_cuda.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --confirm-top 0 --db %t/t.db --work-dir %t/w --quiet
// RUN: cat $(grep -l linalg.batch_matmul %t/w/*/kernel-*.mlir) | FileCheck %s --check-prefix=SCORES
// SCORES: func.func @dltune_task(%{{.*}}: tensor<1x8x2x16xf32>, %{{.*}}: tensor<1x8x2x16xf32>) -> tensor<2x8x8xf32>
// SCORES-COUNT-2: linalg.transpose
// SCORES: linalg.batch_matmul
// With the default configuration (SIMT tiles) both transposes are views:
// one launch, as in the model.
// RUN: dltune-opt $(grep -l linalg.batch_matmul %t/w/*/kernel-*.mlir) --pass-pipeline="builtin.module(dltune-strip,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-strip,dltune-lower-gpu{format=isa})" | grep -c gpu.launch_func | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// RUN: cat $(grep -l 'linalg.matmul' %t/w/*/kernel-*.mlir) | FileCheck %s --check-prefix=ROWS
// ROWS: func.func @dltune_task(%{{.*}}: tensor<8x32xf32>, %{{.*}}: tensor<32x16xf32>) -> tensor<8x16xf32>
// ROWS-NOT: linalg.transpose

func.func @attention(%x: tensor<1x8x2x16xf32>, %y: tensor<1x8x2x16xf32>) -> tensor<2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<1x2x8x16xf32>
  %q = linalg.transpose ins(%x : tensor<1x8x2x16xf32>) outs(%eq : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<1x2x16x8xf32>
  %kt = linalg.transpose ins(%y : tensor<1x8x2x16xf32>) outs(%ek : tensor<1x2x16x8xf32>) permutation = [0, 2, 3, 1]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %s : tensor<2x8x8xf32>
}

func.func @rows(%heads: tensor<1x2x8x16xf32>, %w: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x2x16xf32>
  %t = linalg.transpose ins(%heads : tensor<1x2x8x16xf32>) outs(%e : tensor<1x8x2x16xf32>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<1x8x2x16xf32> into tensor<8x32xf32>
  %eo = tensor.empty() : tensor<8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = linalg.matmul ins(%r, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%zo : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
