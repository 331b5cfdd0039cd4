// Elementwise epilogues: annotate merges the chain after a conv/matmul into
// one generic and gives it no space of its own; apply fuses it (and the
// fill of the op's output) into the op's tiled loops; each result matches
// the unfused lowering.
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2" | FileCheck %s --check-prefix=ANN
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-apply | FileCheck %s --check-prefix=APPLY
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2 fuse-epilogues=false" | FileCheck %s --check-prefix=NOFUSE
// RUN: dltune run %s --entry conv_bias_relu --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry conv_bias_relu --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry matmul_gelu_like --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry matmul_gelu_like --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry matmul_few_rows --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry two_users --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
// The per-task breakdown of `dltune run`: the fused task, then the rest.
// RUN: dltune run %s --entry conv_bias_relu --default-config --threads 1 --repeat 1 --breakdown | FileCheck %s --check-prefix=BREAKDOWN
// BREAKDOWN: task ops ms/call total ms share
// BREAKDOWN-NEXT: {{^}}linalg.conv_2d_nhwc_hwcf + addf+maximumf 1x10x10x16;3x3x16x32;1x8x8x32 1 {{[0-9.]+ [0-9.]+ [0-9.]+}}%
// BREAKDOWN-NEXT: {{^}}ops without a task

// ANN-LABEL: func.func @conv_bias_relu
// ANN: linalg.conv_2d_nhwc_hwcf {{.*}}dltune.space
// The bias add and the ReLU became one generic, without a space.
// ANN-NOT: dltune.space
// ANN: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x32xf32>, tensor<32xf32>)
// ANN: arith.addf
// ANN: arith.maximumf
// ANN-NOT: linalg.generic
// ANN-NOT: dltune.space
// ANN: return

// Threads (scf.forall) and the cache tile loops hold the fill, the conv and
// the epilogue; nothing runs over the whole output outside them.
// APPLY-LABEL: func.func @conv_bias_relu
// APPLY-NOT: linalg.fill
// APPLY: scf.forall
// APPLY: scf.for
// APPLY: vector.fma
// APPLY: arith.maximumf {{.*}} : vector<
// APPLY: } {dltune.num_threads = 2 : i64}
// APPLY-NOT: linalg.
// APPLY: return

// NOFUSE-LABEL: func.func @conv_bias_relu
// NOFUSE: linalg.conv_2d_nhwc_hwcf {{.*}}dltune.space
// NOFUSE: linalg.generic {{.*}}dltune.space
func.func @conv_bias_relu(%i: tensor<1x10x10x16xf32>, %f: tensor<3x3x16x32xf32>, %bias: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x8x8x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%acc : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %e1 = tensor.empty() : tensor<1x8x8x32xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x8x8x32xf32>, tensor<32xf32>) outs(%e1 : tensor<1x8x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x32xf32>
  %e2 = tensor.empty() : tensor<1x8x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<1x8x8x32xf32>) outs(%e2 : tensor<1x8x8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

// A matmul whose result reaches its epilogue through an expand_shape (as
// ONNX MatMul on 3-D activations imports): the reshape is folded into the
// epilogue, which then fuses.
// ANN-LABEL: func.func @matmul_gelu_like
// ANN: linalg.matmul {dltune.space{{.*}}
// ANN-NOT: dltune.space
// ANN: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64xf32>)
// ANN-NOT: dltune.space
// ANN: tensor.expand_shape
// The default config splits the rows between the two threads (16 each),
// with cache tiles spanning each thread's output and both operands packed:
// the first loop the B panel does not depend on (m) is halved, so that the
// root and its fill fuse into the epilogue's loop over the halves and B is
// packed once per thread, outside it.
// APPLY-LABEL: func.func @matmul_gelu_like
// APPLY-NOT: linalg.fill {{.*}} tensor<32x64xf32>
// APPLY: scf.forall (%{{.*}}) in (2)
// APPLY: tensor.empty() : tensor<4x48x16xf32>
// APPLY: scf.for %{{.*}} = %c0 to %c16 step %c8
// APPLY: linalg.fill {{.*}} tensor<8x64xf32>
// APPLY: vector.fma
// APPLY: math.tanh {{.*}} : vector<
// APPLY-NOT: linalg.
// APPLY: tensor.expand_shape
func.func @matmul_gelu_like(%a: tensor<32x48xf32>, %w: tensor<48x64xf32>, %bias: tensor<64xf32>) -> tensor<1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<32x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %m = linalg.matmul ins(%a, %w : tensor<32x48xf32>, tensor<48x64xf32>) outs(%acc : tensor<32x64xf32>) -> tensor<32x64xf32>
  %m3 = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 32, 64] : tensor<32x64xf32> into tensor<1x32x64xf32>
  %e1 = tensor.empty() : tensor<1x32x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m3, %bias : tensor<1x32x64xf32>, tensor<64xf32>) outs(%e1 : tensor<1x32x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<1x32x64xf32>
  return %r : tensor<1x32x64xf32>
}

// -----

// Too few rows to pack (M < 16) and cache tiles spanning the output: the
// epilogue fuses at the register tile, the fill and the k loop run inside.
// APPLY-LABEL: func.func @matmul_few_rows
// APPLY-NOT: linalg.fill {{.*}} tensor<8x64xf32>
// APPLY: scf.for
// APPLY: scf.for
// APPLY: linalg.fill {{.*}} tensor<4x16xf32>
// APPLY: vector.fma
// APPLY: math.tanh {{.*}} : vector<
// APPLY-NOT: linalg.
// APPLY: return
func.func @matmul_few_rows(%a: tensor<8x48xf32>, %w: tensor<48x64xf32>, %bias: tensor<64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x48xf32>, tensor<48x64xf32>) outs(%acc : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e1 = tensor.empty() : tensor<8x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<8x64xf32>, tensor<64xf32>) outs(%e1 : tensor<8x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

// A result with two users is not fused: the matmul and the add each keep
// their own space.
// ANN-LABEL: func.func @two_users
// ANN: linalg.matmul {dltune.space{{.*}}
// ANN: linalg.generic {{.*}}dltune.space
// APPLY-LABEL: func.func @two_users
// APPLY: scf.forall
// APPLY: } {dltune.num_threads
// APPLY: return
func.func @two_users(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<16x16xf32>) outs(%e1 : tensor<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %m, %r : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// Ops the user configured are not merged: the config on the second generic
// survives annotation, and that generic is not an epilogue.
// ANN-LABEL: func.func @user_config
// ANN: linalg.generic
// ANN: linalg.generic {{.*}}dltune.config = #dltune.config<
func.func @user_config(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %e0 = tensor.empty() : tensor<16x64xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%e0 : tensor<16x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16x64xf32>) outs(%e1 : tensor<16x64xf32>)
      attrs = {dltune.config = #dltune.config<tile_d0 = 4, tile_d1 = 64, reg_d1 = 16, unroll = 1, threads = 1, vectorize = 1>} {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %b : tensor<16x64xf32>
}

// -----

// A consumer that reads its producer twice (as GELU reads x) is merged with
// it (upstream deduplicates the operands first), and the merged op is the
// matmul's epilogue.
// ANN-LABEL: func.func @two_reads
// ANN: linalg.matmul {dltune.space{{.*}}
// ANN-NOT: dltune.space
// ANN: linalg.generic
// ANN: arith.addf
// ANN-NOT: linalg.generic
// ANN: arith.mulf
// ANN-NOT: linalg.generic
// ANN-NOT: dltune.space
// ANN: return
// RUN: dltune run %s --entry two_reads --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// An AVX-512 host's default (8x32 register tile) makes both cache tiles whole
// loops of one register tile each: halving one for fused packing left a
// one-iteration register loop and the schedule failed ("tracking listener
// failed to find replacement op"); no halving then, fused at the register
// tile instead.
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=1 default-config=true cpu-lanes=16 cpu-registers=32" --dltune-apply | FileCheck %s --check-prefix=APPLY512
// APPLY512-LABEL: func.func @two_reads
// APPLY512: scf.for %{{.*}} = %c0 to %c16 step %c8
// APPLY512: vector.fma {{.*}} : vector<32xf32>
// APPLY512-NOT: linalg.matmul
// APPLY512: return
func.func @two_reads(%a: tensor<16x32xf32>, %w: tensor<32x64xf32>, %bias: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %w : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<16x64xf32>, tensor<64xf32>) outs(%e1 : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e2 : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
