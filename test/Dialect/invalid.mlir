// RUN: dltune-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{knob 'k' has no candidate values}}
func.func @f() attributes {test.a = #dltune.knob<"k", []>} { return }

// -----

// expected-error @+1 {{knob 'k' lists a candidate value twice}}
func.func @f() attributes {test.a = #dltune.knob<"k", [2, 4, 2]>} { return }

// -----

// expected-error @+1 {{knob name must not be empty}}
func.func @f() attributes {test.a = #dltune.knob<"", [1]>} { return }

// -----

// expected-error @+1 {{pow2<lo, hi> needs a power of two lo > 0 and hi >= lo}}
func.func @f() attributes {test.a = #dltune.knob<"k", pow2<3, 16>>} { return }

// -----

// expected-error @+1 {{range<start, stop, step> needs step > 0 and stop >= start}}
func.func @f() attributes {test.a = #dltune.knob<"k", range<1, 8, 0>>} { return }

// -----

// expected-error @+1 {{range has more than 100000 values}}
func.func @f() attributes {test.a = #dltune.knob<"k", range<1, 100000000, 1>>} { return }

// -----

// expected-error @+1 {{expected candidate values: [..], pow2<lo, hi> or range<start, stop, step>}}
func.func @f() attributes {test.a = #dltune.knob<"k", 4>} { return }

// -----

// expected-error @+1 {{space has no knobs}}
func.func @f() attributes {test.a = #dltune.space<knobs {}>} { return }

// -----

// expected-error @+1 {{knob 'a' is declared twice}}
func.func @f() attributes {test.a = #dltune.space<knobs {a = [1], a = [2]}>} { return }

// -----

// expected-error @+1 {{parameter 'a' has the same name as a knob or another parameter}}
func.func @f() attributes {test.a = #dltune.space<knobs {a = [1]}, params {a = 4}>} { return }

// -----

// expected-error @+1 {{parameter 'M' is given twice}}
func.func @f() attributes {test.a = #dltune.space<knobs {a = [1]}, params {M = 4, M = 5}>} { return }

// -----

// expected-error @+1 {{constraint 'a < b' uses unknown name 'b' (neither a knob nor a parameter)}}
func.func @f() attributes {test.a = #dltune.space<knobs {a = [1]}, constraints ["a < b"]>} { return }

// -----

// expected-error @+1 {{in constraint 'a <': expected an operand at column 4}}
func.func @f() attributes {test.a = #dltune.space<knobs {a = [1]}, constraints ["a <"]>} { return }

// -----

// expected-error @+1 {{knob 'a' is set twice}}
func.func @f() attributes {test.a = #dltune.config<a = 1, a = 2>} { return }

// -----

func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{dltune.config value 3 of knob 'a' is not among its candidates}}
  %r = linalg.copy {dltune.space = #dltune.space<knobs {a = [1, 2]}>,
                    dltune.config = #dltune.config<a = 3>}
         ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{dltune.config violates constraint 'N % a == 0' (N = 8, a = 3)}}
  %r = linalg.copy {dltune.space = #dltune.space<knobs {a = [1, 3]}, params {N = 8},
                                                 constraints ["N % a == 0"]>,
                    dltune.config = #dltune.config<a = 3>}
         ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{dltune.config has no value for knob 'b'}}
  %r = linalg.copy {dltune.space = #dltune.space<knobs {a = [1], b = [2]}>,
                    dltune.config = #dltune.config<a = 1>}
         ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{dltune.config sets unknown knob 'z'}}
  %r = linalg.copy {dltune.space = #dltune.space<knobs {a = [1]}>,
                    dltune.config = #dltune.config<a = 1, z = 2>}
         ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// expected-error @+1 {{'dltune.space' must be a #dltune.space attribute}}
func.func @f() attributes {dltune.space = 3} { return }

// -----

// expected-error @+1 {{'dltune.config' must be a #dltune.config attribute}}
func.func @f() attributes {dltune.config = "x"} { return }

// -----

// expected-error @+1 {{'dltune.target' must be "cpu" or "gpu"}}
func.func @f() attributes {dltune.target = "tpu"} { return }

// -----

// expected-error @+1 {{'dltune.schedule' must name a transform sequence (@symbol)}}
func.func @f() attributes {dltune.schedule = "seq"} { return }

// -----

// expected-error @+1 {{unknown dltune attribute 'dltune.bogus'}}
func.func @f() attributes {dltune.bogus = 1} { return }

// -----

// expected-error @+1 {{'dltune.num_threads' belongs on scf.forall or scf.parallel}}
func.func @f() attributes {dltune.num_threads = 2 : i64} { return }

// -----

func.func @f() {
  // expected-error @+1 {{'dltune.num_threads' must be a positive integer}}
  scf.forall (%i) in (2) {
  } {dltune.num_threads = 0 : i64}
  return
}

// -----

// expected-error @+1 {{'dltune.kernel_resources' must be an array of dictionaries with a "kernel" name}}
func.func @f() attributes {dltune.kernel_resources = [{registers = 40 : i64}]} { return }

// -----

// a * b overflows int64: a violation, not a wrapped product that passes.
// expected-error @+1 {{dltune.config violates constraint 'a * b <= 4096' (a = 4611686018427387904, b = 4)}}
func.func @f() attributes {
  dltune.space = #dltune.space<knobs {a = pow2<1, 4611686018427387904>, b = pow2<1, 4611686018427387904>},
                               constraints ["a * b <= 4096"]>,
  dltune.config = #dltune.config<a = 4611686018427387904, b = 4>} { return }

// -----

// A bad knob inside a space is reported at the knob, not at the space.
func.func @f() attributes {
  test.a = #dltune.space<knobs {b = [1, 2],
  // expected-error @+1 {{knob 'a' lists a candidate value twice}}
                                a = [1, 1]}>} { return }

// -----

// expected-error @+1 {{'dltune.gpu_kernel' belongs on linalg.matmul, linalg.batch_matmul, linalg.depthwise_conv_2d_nhwc_hwc, linalg.pooling_nhwc_* or linalg.generic}}
func.func @f() attributes {dltune.gpu_kernel = {block_m = 64 : i64}} { return }

// -----

func.func @f(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  // expected-error @+1 {{'dltune.gpu_kernel' must be a dictionary of non-negative integer tile sizes}}
  linalg.matmul {dltune.gpu_kernel = {block_m = -1 : i64}} ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  return
}

// -----

// A window kernel's tiles belong on depthwise convolutions and pooling ops,
// not on other named ops.
func.func @f(%a: memref<8x8xf32>, %b: memref<8x8xf32>) {
  // expected-error @+1 {{'dltune.gpu_kernel' belongs on linalg.matmul, linalg.batch_matmul, linalg.depthwise_conv_2d_nhwc_hwc, linalg.pooling_nhwc_* or linalg.generic}}
  linalg.copy {dltune.gpu_kernel = {vector = 4 : i64}} ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>)
  return
}

// -----

// expected-error @+1 {{'dltune.allow_tf32' must be a unit attribute}}
module attributes {dltune.allow_tf32 = true} {
}
