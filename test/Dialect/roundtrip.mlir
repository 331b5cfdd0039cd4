// RUN: dltune-opt %s | dltune-opt | FileCheck %s

// CHECK-LABEL: func.func @attrs
// CHECK: test.knob = #dltune.knob<"tile_m", pow2<8, 64>>
// CHECK-SAME: test.knob_list = #dltune.knob<"unroll", [1, 3, 5]>
// CHECK-SAME: test.knob_range = #dltune.knob<"vec", [4, 8, 12]>
func.func @attrs() attributes {
  test.knob = #dltune.knob<"tile_m", pow2<8, 64>>,
  test.knob_list = #dltune.knob<"unroll", [1, 3, 5]>,
  test.knob_range = #dltune.knob<"vec", range<4, 12, 4>>
} {
  return
}

// CHECK-LABEL: func.func @matmul
// CHECK: linalg.matmul
// CHECK-SAME: dltune.config = #dltune.config<reg_m = 4, tile_m = 32>
// CHECK-SAME: dltune.space = #dltune.space<knobs {tile_m = pow2<8, 64>, reg_m = pow2<1, 4>}, params {M = 64}, constraints ["M % tile_m == 0", "tile_m % reg_m == 0"]>
// CHECK-SAME: dltune.target = "cpu"
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>,
                  %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul {
         dltune.space = #dltune.space<knobs {tile_m = pow2<8, 64>, reg_m = [1, 2, 4]},
                                      params {M = 64},
                                      constraints ["M % tile_m == 0", "tile_m % reg_m == 0"]>,
         dltune.config = #dltune.config<tile_m = 32, reg_m = 4>,
         dltune.target = "cpu"}
       ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
       outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// A space without params or constraints, and a config without a space.
// CHECK-LABEL: func.func @minimal
// CHECK: linalg.copy {dltune.space = #dltune.space<knobs {a = [0, 1]}>}
// CHECK: linalg.copy {dltune.config = #dltune.config<"odd name" = 3>}
func.func @minimal(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.copy {dltune.space = #dltune.space<knobs {a = [0, 1]}>}
         ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.copy {dltune.config = #dltune.config<"odd name" = 3>}
         ins(%r : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// What ptxas reported, as --dltune-lower-gpu leaves it on gpu.binary ops.
// CHECK-LABEL: func.func @resources
// CHECK-SAME: dltune.kernel_resources = [{barriers = 1 : i64, kernel = "k", registers = 40 : i64}]
func.func @resources() attributes {dltune.kernel_resources = [{kernel = "k", registers = 40 : i64, barriers = 1 : i64}]} {
  return
}

// Candidate lists at the ends of int64 (these used to overflow and loop
// forever), a space with two such knobs, and names that need escaping.
// CHECK-LABEL: func.func @bounds
// CHECK: test.huge = #dltune.knob<"a", pow2<1, 4611686018427387904>>
// CHECK-SAME: test.quoted = #dltune.knob<"a\22b", [1]>
// CHECK-SAME: test.span = #dltune.knob<"r", [-9223372036854775808, -4611686018427387904, 0, 4611686018427387904]>
// CHECK-SAME: test.top = #dltune.knob<"t", [4611686018427387904]>
// CHECK: dltune.config = #dltune.config<a = 64, b = 64>
// CHECK-SAME: dltune.space = #dltune.space<knobs {a = pow2<1, 4611686018427387904>, b = pow2<1, 4611686018427387904>}, constraints ["a * b <= 4096"]>
func.func @bounds(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> attributes {
  test.huge = #dltune.knob<"a", pow2<1, 4611686018427387904>>,
  test.quoted = #dltune.knob<"a\"b", [1]>,
  test.span = #dltune.knob<"r", range<-9223372036854775808, 9223372036854775807, 4611686018427387904>>,
  test.top = #dltune.knob<"t", pow2<4611686018427387904, 9223372036854775807>>
} {
  %r = linalg.copy {dltune.space = #dltune.space<knobs {a = pow2<1, 4611686018427387904>,
                                                        b = pow2<1, 4611686018427387904>},
                                                 constraints ["a * b <= 4096"]>,
                    dltune.config = #dltune.config<a = 64, b = 64>}
         ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
