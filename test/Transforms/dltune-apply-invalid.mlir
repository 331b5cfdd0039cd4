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
