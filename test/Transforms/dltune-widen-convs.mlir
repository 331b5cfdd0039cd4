// RUN: dltune-opt %s --split-input-file --dltune-widen-convs="cpu-lanes=8 cpu-registers=16" | FileCheck %s
// The default pipeline widens too, and the cropped result equals the
// direct convolution's (the reference is the untuned module as written).
// RUN: dltune run %s --entry stem --default-config --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry residual --default-config --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
// RUN: not dltune-opt %s --dltune-widen-convs="cpu-lanes=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: dltune-widen-convs: cpu-lanes and cpu-registers must not be negative

// A 7x7 stride-2 conv with a prime output width (19): its default plan
// takes partial register rows of 4, so it is computed 20 wide (the input
// padded to (20 - 1) * 2 + 7 = 45 columns), its bias + ReLU epilogue on the
// wider tensor, and the result cropped.
// CHECK-LABEL: func.func @stem
// CHECK: %[[X:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 2, 0]
// CHECK: } : tensor<1x43x43x3xf32> to tensor<1x43x45x3xf32>
// CHECK: %[[F:.*]] = linalg.fill {{.*}} -> tensor<1x19x20x16xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %{{.*}} : tensor<1x43x45x3xf32>, tensor<7x7x3x16xf32>) outs(%[[F]] : tensor<1x19x20x16xf32>)
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<1x19x20x16xf32>, tensor<16xf32>)
// CHECK: tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 19, 19, 16] [1, 1, 1, 1] : tensor<1x19x20x16xf32> to tensor<1x19x19x16xf32>
func.func @stem(%x: tensor<1x43x43x3xf32>, %w: tensor<7x7x3x16xf32>, %bias: tensor<16xf32>) -> tensor<1x19x19x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x19x19x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x19x19x16xf32>) -> tensor<1x19x19x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x43x43x3xf32>, tensor<7x7x3x16xf32>) outs(%f : tensor<1x19x19x16xf32>) -> tensor<1x19x19x16xf32>
  %e2 = tensor.empty() : tensor<1x19x19x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x19x19x16xf32>, tensor<16xf32>) outs(%e2 : tensor<1x19x19x16xf32>) {
  ^bb0(%in: f32, %b: f32, %o: f32):
    %a = arith.addf %in, %b : f32
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x19x19x16xf32>
  return %r : tensor<1x19x19x16xf32>
}

// -----

// A residual add reads the output width: its operand is padded too. The
// init is not a fill: it is padded with zeros. (A 1x1 stride-1 conv reads
// one input column per output column: the input is padded by one.)
// CHECK-LABEL: func.func @residual
// CHECK: %[[X:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: %[[I:.*]] = tensor.pad %arg2 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: } : tensor<1x19x19x16xf32> to tensor<1x19x20x16xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X]], %arg1 : tensor<1x19x20x16xf32>, tensor<1x1x16x16xf32>) outs(%[[I]] : tensor<1x19x20x16xf32>)
// CHECK: %[[R:.*]] = tensor.pad %arg3 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: linalg.generic {{.*}} ins(%[[C]], %[[R]] : tensor<1x19x20x16xf32>, tensor<1x19x20x16xf32>)
// CHECK: tensor.extract_slice
func.func @residual(%x: tensor<1x19x19x16xf32>, %w: tensor<1x1x16x16xf32>, %init: tensor<1x19x19x16xf32>,
                    %skip: tensor<1x19x19x16xf32>) -> tensor<1x19x19x16xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x19x19x16xf32>, tensor<1x1x16x16xf32>) outs(%init : tensor<1x19x19x16xf32>) -> tensor<1x19x19x16xf32>
  %e = tensor.empty() : tensor<1x19x19x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %skip : tensor<1x19x19x16xf32>, tensor<1x19x19x16xf32>) outs(%e : tensor<1x19x19x16xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %a = arith.addf %in, %s : f32
    linalg.yield %a : f32
  } -> tensor<1x19x19x16xf32>
  return %r : tensor<1x19x19x16xf32>
}

// -----

// Widths a register row count divides, and convs that carry a dltune
// attribute (the user's choice), are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tensor.pad
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @left_alone(%x: tensor<1x20x20x16xf32>, %y: tensor<1x19x19x16xf32>, %w: tensor<1x1x16x16xf32>,
                      %c1: tensor<1x20x20x16xf32>, %c2: tensor<1x19x19x16xf32>) -> (tensor<1x20x20x16xf32>, tensor<1x19x19x16xf32>) {
  %a = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x20x20x16xf32>, tensor<1x1x16x16xf32>) outs(%c1 : tensor<1x20x20x16xf32>) -> tensor<1x20x20x16xf32>
  %b = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, dltune.target = "cpu"}
         ins(%y, %w : tensor<1x19x19x16xf32>, tensor<1x1x16x16xf32>) outs(%c2 : tensor<1x19x19x16xf32>) -> tensor<1x19x19x16xf32>
  return %a, %b : tensor<1x20x20x16xf32>, tensor<1x19x19x16xf32>
}
