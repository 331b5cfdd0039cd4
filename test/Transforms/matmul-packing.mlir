// Operand packing of matmuls (pack_a, pack_b) and conv filters (pack_f,
// at the end of the file). Matmuls: the cache loops run n, k, m;
// B's tile_k x reg_n panels are copied into one contiguous buffer per
// (n, k) block, outside the m loop; A's reg_m x tile_k panels once per cache
// tile. Every variant computes what the untuned lowering computes.
// RUN: dltune-opt %s --split-input-file --dltune-apply | FileCheck %s --check-prefix=APPLY
// RUN: dltune run %s --entry packed --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry packed_b_only --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry packed_threads --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry packed_whole_m --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry packed_transposed_b --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry packed_batch --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry packed_batch_threads --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry packed_i32 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry packed_bias_relu --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry conv_packed --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry conv_packed_bias_relu --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
// The default packs both operands of a matmul with enough rows, and
// neither for a single-row one (B would be copied for one row of FLOPs).
// RUN: dltune-opt %s --split-input-file --dltune-annotate="threads=2 default-config=true" | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-LABEL: func.func @many_rows
// DEFAULT: pack_a = 1, pack_b = 1
// DEFAULT-LABEL: func.func @one_row
// DEFAULT: pack_a = 0, pack_b = 0

// B's panels: tile_n/reg_n x tile_k x reg_n, filled inside the k loop
// (tile_n = N: no n loop) and before the m loop; A's: tile_m/reg_m x reg_m x
// tile_k inside the m loop; the register loops read both, n outside m.
// APPLY-LABEL: func.func @packed(
// The zero-width pads that marked the copies are gone once hoisted: each
// panel is one insert_slice of the operand's slice into the packed buffer.
// APPLY: scf.for %[[K:.*]] = %c0 to %c48 step %c16
// APPLY: tensor.empty() : tensor<2x16x16xf32>
// APPLY: tensor.insert_slice %extracted_slice{{[_0-9]*}} into {{.*}} : tensor<16x16xf32> into tensor<2x16x16xf32>
// APPLY: scf.for %[[M:.*]] = %c0 to %c32 step %c8
// APPLY: tensor.empty() : tensor<2x4x16xf32>
// APPLY: tensor.insert_slice %extracted_slice{{[_0-9]*}} into {{.*}} : tensor<4x16xf32> into tensor<2x4x16xf32>
// APPLY: scf.for %{{.*}} = %c0 to %c32 step %c16
// APPLY: scf.for %{{.*}} = %c0 to %c8 step %c4
// APPLY: vector.fma
func.func @packed(%a: tensor<32x48xf32>, %b: tensor<48x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 32, tile_k = 16,
                        reg_m = 4, reg_n = 16, unroll = 2, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<32x48xf32>, tensor<48x32xf32>) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

// Without packing the loops stay in m, n, k order and nothing is copied.
// APPLY-LABEL: func.func @unpacked
// APPLY-NOT: tensor.empty
// APPLY: return
func.func @unpacked(%a: tensor<32x48xf32>, %b: tensor<48x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 32, tile_k = 16,
                        reg_m = 4, reg_n = 16, unroll = 2, pack_a = 0, pack_b = 0, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<32x48xf32>, tensor<48x32xf32>) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

func.func @packed_b_only(%a: tensor<32x48xf32>, %b: tensor<48x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 16, tile_k = 16,
                        reg_m = 4, reg_n = 8, unroll = 1, pack_a = 0, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<32x48xf32>, tensor<48x32xf32>) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

// Two threads split M; each packs its own panels. tile_n = reg_n: B's block
// is copied whole (a pad, no packing loop) above the m loop.
// APPLY-LABEL: func.func @packed_threads
// APPLY: scf.forall
// APPLY: tensor.pad {{.*}} nofold
// APPLY: scf.for
// APPLY: tensor.empty() : tensor<4x4x16xf32>
// APPLY: } {dltune.num_threads = 2 : i64}
func.func @packed_threads(%a: tensor<64x48xf32>, %b: tensor<48x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 16, tile_n = 16, tile_k = 16,
                        reg_m = 4, reg_n = 16, unroll = 1, pack_a = 1, pack_b = 1, threads = 2, vectorize = 1>}
       ins(%a, %b : tensor<64x48xf32>, tensor<48x32xf32>) outs(%init : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// -----

// tile_m = M: no m cache loop, B's panels are hoisted above the register
// loops only.
func.func @packed_whole_m(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 16, tile_n = 32, tile_k = 32,
                        reg_m = 2, reg_n = 16, unroll = 1, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%init : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

func.func @packed_transposed_b(%a: tensor<32x48xf32>, %b: tensor<32x48xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       {dltune.config = #dltune.config<tile_m = 8, tile_n = 32, tile_k = 16,
                        reg_m = 4, reg_n = 16, unroll = 1, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<32x48xf32>, tensor<32x48xf32>) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

func.func @packed_batch(%a: tensor<3x32x48xf32>, %b: tensor<3x48x32xf32>, %c: tensor<3x32x32xf32>) -> tensor<3x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<3x32x32xf32>) -> tensor<3x32x32xf32>
  %r = linalg.batch_matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 32, tile_k = 16,
                        reg_m = 4, reg_n = 16, unroll = 1, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<3x32x48xf32>, tensor<3x48x32xf32>) outs(%init : tensor<3x32x32xf32>) -> tensor<3x32x32xf32>
  return %r : tensor<3x32x32xf32>
}

// -----

// Two threads split the batch (its space does so where the batch divides
// among them): each forall iteration packs and multiplies its own batches.
// APPLY-LABEL: func.func @packed_batch_threads
// APPLY: scf.forall (%{{.*}}) in (2)
// APPLY: scf.for %{{.*}} = %c0 to %c2 step %c1
// APPLY: vector.fma
func.func @packed_batch_threads(%a: tensor<4x32x48xf32>, %b: tensor<4x48x32xf32>, %c: tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %r = linalg.batch_matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 32, tile_k = 16,
                        reg_m = 4, reg_n = 16, unroll = 1, pack_a = 1, pack_b = 1, threads = 2, vectorize = 1>,
                        dltune.space = #dltune.space<knobs {tile_m = [8], tile_n = [32], tile_k = [16], reg_m = [4], reg_n = [16],
                        unroll = [1], pack_a = [1], pack_b = [1], threads = [2], vectorize = [1]}, params {D_b = 4},
                        constraints ["D_b % threads == 0"]>}
       ins(%a, %b : tensor<4x32x48xf32>, tensor<4x48x32xf32>) outs(%init : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  return %r : tensor<4x32x32xf32>
}

// -----

// Integer operands are packed too (their pads take integer zeros).
// APPLY-LABEL: func.func @packed_i32
// APPLY: tensor.empty() : tensor<2x16x16xi32>
func.func @packed_i32(%a: tensor<32x48xi32>, %b: tensor<48x32xi32>, %c: tensor<32x32xi32>) -> tensor<32x32xi32> {
  %zero = arith.constant 0 : i32
  %init = linalg.fill ins(%zero : i32) outs(%c : tensor<32x32xi32>) -> tensor<32x32xi32>
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 32, tile_k = 16,
                        reg_m = 4, reg_n = 16, unroll = 1, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<32x48xi32>, tensor<48x32xi32>) outs(%init : tensor<32x32xi32>) -> tensor<32x32xi32>
  return %r : tensor<32x32xi32>
}

// -----

// With an epilogue the epilogue's loops run n, then m, with k inside
// (each output tile is finished in cache): B's panels for all of K are
// copied once per n block, above the m loop.
// APPLY-LABEL: func.func @packed_bias_relu
// APPLY: tensor.empty() : tensor<3x2x16x16xf32>
// APPLY: scf.for %{{.*}} = %c0 to %c32 step %c8
// APPLY: vector.fma
// APPLY: arith.maximumf {{.*}} : vector<
func.func @packed_bias_relu(%a: tensor<32x48xf32>, %b: tensor<48x32xf32>, %bias: tensor<32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<32x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 32, tile_k = 16,
                        reg_m = 4, reg_n = 16, unroll = 1, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<32x48xf32>, tensor<48x32xf32>) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e1 = tensor.empty() : tensor<32x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<32x32xf32>, tensor<32xf32>) outs(%e1 : tensor<32x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

func.func @many_rows(%a: tensor<32x48xf32>, %b: tensor<48x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

func.func @one_row(%a: tensor<1x512xf32>, %b: tensor<512x1000xf32>, %c: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1x512xf32>, tensor<512x1000xf32>) outs(%c : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}

// -----

// Convolution filters (pack_f): the cache loops run f, c, then the pixels;
// the filter block (3 x 3 x tile_c x tile_f, in reg_f-wide panels) is
// copied above the pixel loops.
// APPLY-LABEL: func.func @conv_packed
// APPLY: scf.for %{{.*}} = %c0 to %c32 step %c16
// APPLY: scf.for %{{.*}} = %c0 to %c16 step %c8
// APPLY: tensor.empty() : tensor<2x3x3x8x8xf32>
// APPLY: scf.for %{{.*}} = %c0 to %c6 step %c2
// APPLY: vector.fma
func.func @conv_packed(%in: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x32xf32>, %out: tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
         dltune.config = #dltune.config<tile_oh = 2, tile_ow = 6, reg_ow = 2, tile_f = 16, reg_f = 8,
                                        tile_c = 8, reg_c = 1, unroll = 1, pack_f = 1, threads = 1, vectorize = 1>}
         ins(%in, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) outs(%init : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  return %r : tensor<1x6x6x32xf32>
}

// -----

// With an epilogue the epilogue's loops run f, then the pixels, with the
// channels inside: the filter block for all channels is copied once per f
// block.
// APPLY-LABEL: func.func @conv_packed_bias_relu
// APPLY: tensor.empty() : tensor<2x2x3x3x8x8xf32>
// APPLY: scf.for %{{.*}} = %c0 to %c6 step %c2
// APPLY: arith.maximumf {{.*}} : vector<
func.func @conv_packed_bias_relu(%in: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x32xf32>, %bias: tensor<32xf32>) -> tensor<1x6x6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x6x6x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
         dltune.config = #dltune.config<tile_oh = 2, tile_ow = 6, reg_ow = 2, tile_f = 16, reg_f = 8,
                                        tile_c = 8, reg_c = 1, unroll = 1, pack_f = 1, threads = 1, vectorize = 1>}
         ins(%in, %w : tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) outs(%init : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %e1 = tensor.empty() : tensor<1x6x6x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x6x6x32xf32>, tensor<32xf32>) outs(%e1 : tensor<1x6x6x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<1x6x6x32xf32>
  return %r : tensor<1x6x6x32xf32>
}

// -----

// A 1x1 conv whose filter no tile slices before the register loop over
// channels (tile_c = C, tile_f = reg_f = F) is read whole and in order:
// nothing is packed, and the config still applies (MobileNet-v2's
// pointwise convs failed to apply while a copy was attempted).
// RUN: dltune run %s --entry conv_1x1_unsliced --check --repeat 1 | FileCheck %s --check-prefix=JIT
// APPLY-LABEL: func.func @conv_1x1_unsliced
// APPLY-NOT: tensor.pad
// APPLY: vector.fma
func.func @conv_1x1_unsliced(%in: tensor<1x8x8x32xf32>, %w: tensor<1x1x32x16xf32>, %out: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
         dltune.config = #dltune.config<tile_oh = 1, tile_ow = 8, reg_ow = 4, tile_f = 16, reg_f = 16,
                                        tile_c = 32, reg_c = 1, unroll = 1, pack_f = 1, threads = 1, vectorize = 1>}
         ins(%in, %w : tensor<1x8x8x32xf32>, tensor<1x1x32x16xf32>) outs(%init : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
