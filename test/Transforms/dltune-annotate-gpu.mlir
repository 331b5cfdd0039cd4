// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu" --verify-diagnostics | FileCheck %s
// RUN: not dltune-opt %s --dltune-annotate="target=tpu" 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: dltune-opt %s --split-input-file --dltune-annotate="target=gpu default-config=true" 2>/dev/null | FileCheck %s --check-prefix=DEFAULT

// BADTARGET: dltune-annotate: target must be cpu or gpu, got 'tpu'

// GPU spaces exist for matmuls only so far; other ops get a remark.
// CHECK-LABEL: func.func @conv
// CHECK-NOT: dltune.space
func.func @conv(%in: tensor<1x16x16x16xf32>, %w: tensor<3x3x16x32xf32>, %out: tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32> {
  // expected-remark @below {{dltune-annotate: left alone: no GPU schedule for this op kind yet}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<1x16x16x16xf32>, tensor<3x3x16x32xf32>) outs(%out : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  return %r : tensor<1x14x14x32xf32>
}

// -----

// CHECK-LABEL: func.func @batch
// CHECK: linalg.batch_matmul
// CHECK-SAME: dltune.space = #dltune.space<knobs {block_m = pow2<8, 32>, block_n = [8]
// CHECK-SAME: dltune.target = "gpu"
func.func @batch(%a: tensor<2x32x16xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x32x8xf32>) -> tensor<2x32x8xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x32x16xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
  return %r : tensor<2x32x8xf32>
}

// -----

// The GPU kernel's own conditions decide which matmuls get a space: no
// integer matmul, no transposed operand.
// CHECK-LABEL: func.func @integers
// CHECK-NOT: dltune.space
func.func @integers(%a: tensor<64x64xi32>, %b: tensor<64x64xi32>, %c: tensor<64x64xi32>) -> tensor<64x64xi32> {
  // expected-remark @below {{dltune-annotate: left alone: no GPU schedule for this op: A and B must have one float type no wider than C's float type}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xi32>, tensor<64x64xi32>) outs(%c : tensor<64x64xi32>) -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}

// -----

// Depthwise convolutions and pooling: window kernels (GpuWindowKernel.h).
// Channels a thread in vectors of up to 16 bytes dividing C, output
// columns a thread, threads a block. By default the widest vector, one
// column, and 64 threads where 256 would leave under two blocks an SM
// (7 x 7 x 96 / 4 = 1,176 items on 132 SMs).
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-SAME: dltune.space = #dltune.space<knobs {vector = pow2<1, 4>, outputs = pow2<1, 4>, block_threads = pow2<32, 512>}, params {D_c = 96, D_ow = 7, elem_bytes = 4, sms = 132}
// CHECK-SAME: dltune.target = "gpu"
// DEFAULT-LABEL: func.func @depthwise
// DEFAULT: dltune.config = #dltune.config<block_threads = 64, outputs = 1, vector = 4>
func.func @depthwise(%x: tensor<1x9x9x96xf32>, %w: tensor<3x3x96xf32>, %out: tensor<1x7x7x96xf32>) -> tensor<1x7x7x96xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x96xf32>, tensor<3x3x96xf32>) outs(%out : tensor<1x7x7x96xf32>) -> tensor<1x7x7x96xf32>
  return %r : tensor<1x7x7x96xf32>
}

// -----

// f16: vectors of up to 8; C = 20 takes at most 4. A large grid keeps 256
// threads a block.
// CHECK-LABEL: func.func @pool_f16
// CHECK: linalg.pooling_nhwc_max
// CHECK-SAME: dltune.space = #dltune.space<knobs {vector = pow2<1, 4>, outputs = pow2<1, 4>, block_threads = pow2<32, 512>}, params {D_c = 20, D_ow = 56, elem_bytes = 2, sms = 132}
// DEFAULT-LABEL: func.func @pool_f16
// DEFAULT: dltune.config = #dltune.config<block_threads = 256, outputs = 1, vector = 4>
func.func @pool_f16(%x: tensor<8x113x113x20xf16>, %k: tensor<3x3xf16>, %out: tensor<8x56x56x20xf16>) -> tensor<8x56x56x20xf16> {
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %k : tensor<8x113x113x20xf16>, tensor<3x3xf16>) outs(%out : tensor<8x56x56x20xf16>) -> tensor<8x56x56x20xf16>
  return %r : tensor<8x56x56x20xf16>
}

// -----

// Reductions along rows get a row kernel's space (GpuRowReduction.h): lanes
// a row, rows a block, the widest vector. Only softmax's first reduction
// gets one: the one kernel its run becomes (the max, the exponentials, the
// sum and the division) takes that frame.
// CHECK-LABEL: func.func @softmax
// CHECK: linalg.generic
// CHECK-SAME: dltune.space = #dltune.space<knobs {lanes = pow2<4, 32>, rows = pow2<1, 64>, vector = pow2<1, 4>}, params {D_row = 96, elem_bytes = 4, rows_total = 48}, constraints ["lanes * rows >= 32", "lanes * rows <= 1024"]>
// CHECK-NOT: dltune.space
// DEFAULT-LABEL: func.func @softmax
// DEFAULT: dltune.config = #dltune.config<lanes = 32, rows = 8, vector = 4>
// DEFAULT-NOT: dltune.config
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<48x96xf32>) -> tensor<48x96xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48xf32>
  // expected-remark @below {{dltune-annotate: left alone: op kind is not supported}}
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<48x96xf32>) outs(%mi : tensor<48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<48xf32>
  %ee = tensor.empty() : tensor<48x96xf32>
  // expected-remark @below {{dltune-annotate: left alone: no GPU schedule for this op kind yet}}
  %exp = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<48x96xf32>, tensor<48xf32>) outs(%ee : tensor<48x96xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<48x96xf32>
  // expected-remark @below {{dltune-annotate: left alone: op kind is not supported}}
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  // expected-remark @below {{dltune-annotate: left alone: its row kernel takes the frame of the reduction before it over the same rows}}
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<48x96xf32>) outs(%si : tensor<48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<48xf32>
  // expected-remark @below {{dltune-annotate: left alone: no GPU schedule for this op kind yet}}
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<48x96xf32>, tensor<48xf32>) outs(%ee : tensor<48x96xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.divf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<48x96xf32>
  return %y : tensor<48x96xf32>
}

// -----

// Short f16 rows (12): at most 16 lanes, vectors dividing the row; 15 rows
// take up to 16 a block. A reduction whose row is not its inputs'
// innermost dimension gets no space.
// CHECK-LABEL: func.func @short_rows_f16
// CHECK: linalg.generic
// CHECK-SAME: dltune.space = #dltune.space<knobs {lanes = pow2<4, 16>, rows = pow2<1, 16>, vector = pow2<1, 4>}, params {D_row = 12, elem_bytes = 2, rows_total = 15}
// DEFAULT-LABEL: func.func @short_rows_f16
// DEFAULT: dltune.config = #dltune.config<lanes = 16, rows = 16, vector = 4>
func.func @short_rows_f16(%x: tensor<3x5x12xf16>, %init: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x5x12xf16>) outs(%init : tensor<3x5xf16>) {
  ^bb0(%in: f16, %out: f16):
    %s = arith.addf %in, %out : f16
    linalg.yield %s : f16
  } -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}

// -----

// CHECK-LABEL: func.func @rows_along_outer_dim
// CHECK-NOT: dltune.space
func.func @rows_along_outer_dim(%x: tensor<12x5xf32>, %init: tensor<5xf32>) -> tensor<5xf32> {
  // expected-remark @below {{dltune-annotate: left alone: no GPU schedule for this op: a row reduction's inputs are indexed along the row in their innermost dimension}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<12x5xf32>) outs(%init : tensor<5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

// The vectors are sized by the elements moving along the row: f16 inputs
// accumulated in f32 take 8 at once (the kernel's chooseVector does).
// CHECK-LABEL: func.func @sum_f16_to_f32
// CHECK: linalg.generic
// CHECK-SAME: knobs {lanes = pow2<4, 32>, rows = pow2<1, 32>, vector = pow2<1, 8>}
// DEFAULT-LABEL: func.func @sum_f16_to_f32
// DEFAULT: dltune.config = #dltune.config<lanes = 32, rows = 8, vector = 8>
func.func @sum_f16_to_f32(%x: tensor<32x64xf16>, %init: tensor<32xf32>) -> tensor<32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x64xf16>) outs(%init : tensor<32xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    %s = arith.addf %e, %out : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}
