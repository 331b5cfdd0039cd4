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

// Partial register tiles are for the packed convolution only: a packed
// matmul's rows must still divide.
func.func @partial_rows_matmul(%a: tensor<6x8xf32>, %b: tensor<8x16xf32>, %c: tensor<6x16xf32>) -> tensor<6x16xf32> {
  // expected-error @below {{dltune.config: tile sizes of loop 'm' do not divide its extent 6}}
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 6, tile_n = 16, tile_k = 8,
                        reg_m = 4, reg_n = 16, unroll = 1, pack_a = 1, pack_b = 1, threads = 1, vectorize = 1>}
       ins(%a, %b : tensor<6x8xf32>, tensor<8x16xf32>) outs(%c : tensor<6x16xf32>) -> tensor<6x16xf32>
  return %r : tensor<6x16xf32>
}
