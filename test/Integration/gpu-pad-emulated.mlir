// Reads of a padded tensor read its source with a bounds check instead of
// a padded copy (--dltune-lower-gpu, fold-pads, on by default): checked
// against the untuned CPU lowering (which pads) by the CPU emulation of
// the kernels, for a depthwise convolution (stride 1 and 2), a max pool
// padded with -inf, a strided 3x3 convolution's patch gather, a padding
// value the host computes, a pad that is also returned, a nofold pad; and
// constant weights (dense and splat) padded at compile time.
// RUN: dltune run %s --entry depthwise --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry depthwise_stride2 --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry max_pool --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry conv3x3_stride2 --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry padding_computed --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry also_returned --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry nofold --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry padded_row_sum --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry conv_constant_weights --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry conv_splat_weights --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// Launches per function: each folded pad saves its fill and its copy.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=FOLD
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa fold-pads=false})" 2>/dev/null | FileCheck %s --check-prefix=KEEP
// The convolution, its zero fill fused into it.
// FOLD-LABEL: llvm.func @depthwise(
// FOLD-COUNT-1: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// FOLD-LABEL: llvm.func @depthwise_stride2(
// FOLD-COUNT-1: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// FOLD-LABEL: llvm.func @max_pool(
// FOLD-COUNT-1: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// The matmul, gathering the patches in its loads (implicit GEMM since
// 2026-11-29; the gather was a kernel of its own before).
// FOLD-LABEL: llvm.func @conv3x3_stride2(
// FOLD-COUNT-1: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// FOLD-LABEL: llvm.func @padding_computed(
// FOLD-COUNT-1: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// The returned pad is built (a fill and a copy); the generic reads the
// source all the same.
// FOLD-LABEL: llvm.func @also_returned(
// FOLD-COUNT-3: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// FOLD-LABEL: llvm.func @nofold(
// FOLD-COUNT-3: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// Padded weights are constants: 4 launches fewer (the input's pad and the
// weights'), 2 for the splat (the weights').
// FOLD-LABEL: llvm.func @conv_constant_weights(
// FOLD-COUNT-2: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// The splat's input is no longer padded to 64 rows (GEMM rows unpadded
// since 2026-11-29): two launches, four before.
// FOLD-LABEL: llvm.func @conv_splat_weights(
// FOLD-COUNT-2: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// The pad's fill and copy, the row kernel.
// FOLD-LABEL: llvm.func @padded_row_sum(
// FOLD-COUNT-3: gpu.launch_func
// FOLD-NOT: gpu.launch_func
// KEEP-LABEL: llvm.func @depthwise(
// KEEP-COUNT-3: gpu.launch_func
// KEEP-NOT: gpu.launch_func
// KEEP-LABEL: llvm.func @depthwise_stride2(
// KEEP-LABEL: llvm.func @conv_constant_weights(
// KEEP-COUNT-6: gpu.launch_func
// KEEP-NOT: gpu.launch_func
// KEEP-LABEL: llvm.func @conv_splat_weights(
// KEEP-COUNT-4: gpu.launch_func
// KEEP-NOT: gpu.launch_func
// KEEP-LABEL: llvm.func @padded_row_sum(

func.func @depthwise(%x: tensor<1x9x9x8xf32>, %w: tensor<3x3x8xf32>) -> tensor<1x9x9x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x9x9x8xf32> to tensor<1x11x11x8xf32>
  %e = tensor.empty() : tensor<1x9x9x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x9x8xf32>) -> tensor<1x9x9x8xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x11x11x8xf32>, tensor<3x3x8xf32>) outs(%z : tensor<1x9x9x8xf32>) -> tensor<1x9x9x8xf32>
  return %y : tensor<1x9x9x8xf32>
}

func.func @depthwise_stride2(%x: tensor<2x10x10x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<2x5x5x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x10x10x16xf32> to tensor<2x12x12x16xf32>
  %e = tensor.empty() : tensor<2x5x5x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x12x12x16xf32>, tensor<3x3x16xf32>) outs(%z : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  return %y : tensor<2x5x5x16xf32>
}

// ResNet's stem pooling: 3x3, stride 2, padded with -inf.
func.func @max_pool(%x: tensor<1x12x12x4xf32>) -> tensor<1x6x6x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x12x12x4xf32> to tensor<1x14x14x4xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %z = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %window : tensor<1x14x14x4xf32>, tensor<3x3xf32>) outs(%z : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %y : tensor<1x6x6x4xf32>
}

// --dltune-conv-to-matmul gathers the patches of the padded input with
// tensor.extract.
func.func @conv3x3_stride2(%x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x18x8xf32>, tensor<3x3x8x32xf32>) outs(%z : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %y : tensor<1x8x8x32xf32>
}

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// The padding value is computed (by the host), not a constant; only the
// high ends pad.
func.func @padding_computed(%x: tensor<5x7xf32>) -> tensor<8x9xf32> {
  %half = arith.constant 0.5 : f32
  %v = math.exp %half : f32
  %p = tensor.pad %x low[0, 0] high[3, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<5x7xf32> to tensor<8x9xf32>
  %e = tensor.empty() : tensor<8x9xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<8x9xf32>) outs(%e : tensor<8x9xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<8x9xf32>
  return %y : tensor<8x9xf32>
}

func.func @also_returned(%x: tensor<6x6xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<6x6xf32> to tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<8x8xf32>
  return %p, %y : tensor<8x8xf32>, tensor<8x8xf32>
}

func.func @nofold(%x: tensor<6x6xf32>) -> tensor<8x8xf32> {
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x nofold low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<6x6xf32> to tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// Constant weights whose K (27) and columns (24) the matmul pads: padded
// once at compile time (a new constant), not by a fill and a copy a call;
// the input's padding is read in place by the patch gather.
func.func @conv_constant_weights(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2], [-0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5], [0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3]], [[0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0], [-0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3], [-0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5]], [[0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2], [0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1], [-0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4]]], [[[0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4], [0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1], [-0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2]], [[-0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5], [0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3], [0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0]], [[-0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3], [-0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5], [0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2]]], [[[0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1], [-0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4], [0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4]], [[0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1], [-0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2], [-0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5]], [[0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3], [0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0], [-0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3, -0.1, -0.5, 0.2, -0.2, 0.5, 0.1, -0.3, 0.4, 0.0, -0.4, 0.3]]]]> : tensor<3x3x3x24xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x3xf32> to tensor<1x10x10x3xf32>
  %e = tensor.empty() : tensor<1x8x8x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x24xf32>) outs(%z : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
  return %y : tensor<1x8x8x24xf32>
}

// A splat of weights, padded the same way (the models of bench/gpu_models).
func.func @conv_splat_weights(%x: tensor<1x7x7x16xf32>) -> tensor<1x7x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<1x1x16x24xf32>
  %e = tensor.empty() : tensor<1x7x7x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x24xf32>) -> tensor<1x7x7x24xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x7x7x16xf32>, tensor<1x1x16x24xf32>) outs(%z : tensor<1x7x7x24xf32>) -> tensor<1x7x7x24xf32>
  return %y : tensor<1x7x7x24xf32>
}

// The pad is the only operand that sizes the reduced loop: it stays (the
// op without it would have no size for that loop), and the row kernel
// reads the padded buffer.
func.func @padded_row_sum(%x: tensor<4x30xf32>) -> tensor<4xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<4x30xf32> to tensor<4x32xf32>
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%p : tensor<4x32xf32>) outs(%z : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<4xf32>
}
