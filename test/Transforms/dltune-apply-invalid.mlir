// RUN: dltune-opt %s --split-input-file --dltune-apply --verify-diagnostics

func.func @missing_knob(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @below {{dltune.config: configuration has no value for knob 'tile_n'}}
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 8>}
       ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

func.func @not_dividing(%a: tensor<30x8xf32>, %b: tensor<8x8xf32>, %c: tensor<30x8xf32>) -> tensor<30x8xf32> {
  // expected-error @below {{dltune.config: tile sizes of loop 'm' do not divide its extent 30}}
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 8, tile_k = 8,
                        reg_m = 4, reg_n = 8, unroll = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<30x8xf32>, tensor<8x8xf32>) outs(%c : tensor<30x8xf32>) -> tensor<30x8xf32>
  return %r : tensor<30x8xf32>
}

// -----

func.func @unsupported(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{cannot be scheduled: op kind is not supported}}
  %r = linalg.copy {dltune.config = #dltune.config<a = 1>}
         ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// The first op fails; the second is still scheduled.
func.func @one_bad_one_good(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @below {{configuration has no value for knob 'tile_n'}}
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 8>}
       ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.matmul {dltune.config = #dltune.config<tile_m = 8, tile_n = 8, tile_k = 8,
                        reg_m = 4, reg_n = 8, unroll = 1, threads = 1, vectorize = 1>}
       ins(%r, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// -----

// A register row count that does not divide the conv's width is a partial
// tile, which only the packed schedule pads: unpacked it is refused.
func.func @partial_rows_unpacked(%i: tensor<1x9x9x8xf32>, %f: tensor<3x3x8x16xf32>, %o: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  // expected-error @below {{dltune.config: tile sizes of loop 'ow' do not divide its extent 7}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
         dltune.config = #dltune.config<pack_f = 0, reg_c = 1, reg_f = 16, reg_ow = 4, threads = 1, tile_c = 8,
                                        tile_f = 16, tile_oh = 1, tile_ow = 7, unroll = 1, vectorize = 1>}
      ins(%i, %f : tensor<1x9x9x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %r : tensor<1x7x7x16xf32>
}

// -----

// Partial register tiles need the packed schedule: an unpacked matmul's
// rows must still divide (matmul-partial-rows.mlir: packed, they split).
func.func @partial_rows_matmul(%a: tensor<6x8xf32>, %b: tensor<8x16xf32>, %c: tensor<6x16xf32>) -> tensor<6x16xf32> {
  // expected-error @below {{dltune.config: tile sizes of loop 'm' do not divide its extent 6}}
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 6, tile_n = 16, tile_k = 8,
                        reg_m = 4, reg_n = 16, unroll = 1, pack_a = 0, pack_b = 0, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<6x8xf32>, tensor<8x16xf32>) outs(%c : tensor<6x16xf32>) -> tensor<6x16xf32>
  return %r : tensor<6x16xf32>
}

// -----

// Partial register rows with a fused epilogue need an output loop tiled by
// a cache tile (the root is fused into it and padded where it is packed):
// with every output loop whole (a 7-row map, tile_oh = 7, and the filters
// as one block) the config is refused.
func.func @partial_rows_fused_whole(%i: tensor<1x9x9x8xf32>, %f: tensor<3x3x8x16xf32>, %bias: tensor<16xf32>) -> tensor<1x7x7x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x7x7x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  // expected-error @below {{dltune.config: partial register rows of loop 'ow' need a cache tile that splits an output loop when an epilogue is fused}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
         dltune.config = #dltune.config<pack_f = 1, reg_c = 1, reg_f = 16, reg_ow = 4, threads = 1, tile_c = 8,
                                        tile_f = 16, tile_oh = 7, tile_ow = 7, unroll = 1, vectorize = 1>}
      ins(%i, %f : tensor<1x9x9x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %e1 = tensor.empty() : tensor<1x7x7x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x7x7x16xf32>, tensor<16xf32>) outs(%e1 : tensor<1x7x7x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x7x7x16xf32>
  return %r : tensor<1x7x7x16xf32>
}
