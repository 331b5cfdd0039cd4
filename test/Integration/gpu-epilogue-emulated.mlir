// Element-wise ops after a GPU matmul are computed by the matmul kernel as
// it stores its accumulators (--dltune-lower-gpu, fuse-epilogues, on by
// default): checked against the untuned CPU lowering by the CPU emulation
// of the kernels (no GPU needed).
// RUN: dltune run %s --entry conv_block --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry conv3x3_residual --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry tanh_to_f16 --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry product_also_returned --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry bias_relu_in_place --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry two_products_one_fill --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry depthwise_bias_relu --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry residual_over_input --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// How many kernels each function launches, with and without the fusion:
// the conv block's bias and ReLU6 are one element-wise op (upstream's
// fusion), computed by the matmul kernel; without, two kernels more.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=FUSED
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa fuse-epilogues=false})" 2>/dev/null | FileCheck %s --check-prefix=UNFUSED
// FUSED-LABEL: llvm.func @conv_block(
// The weights' columns (24 -> 32) padded: a fill and a copy, then the
// matmul (the input's 49 rows are A as they are, the kernel's last rows
// clamped; padded to 64 rows before 2026-11-29, five launches).
// FUSED-COUNT-3: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// The weights' columns padded (16 -> 32: a fill and a copy), the matmul,
// which gathers the patches itself (implicit GEMM, reading the input with a
// bounds check where it is padded: fold-pads; a kernel of its own before
// 2026-11-29).
// FUSED-LABEL: llvm.func @conv3x3_residual(
// FUSED-COUNT-3: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// FUSED-LABEL: llvm.func @tanh_to_f16(
// FUSED-COUNT-1: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// The product is also a result: not fused.
// FUSED-LABEL: llvm.func @product_also_returned(
// FUSED-COUNT-2: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// FUSED-LABEL: llvm.func @bias_relu_in_place(
// FUSED-COUNT-1: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// FUSED-LABEL: llvm.func @two_products_one_fill(
// FUSED-COUNT-2: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// The depthwise convolution is a window kernel (since 2026-11-29) that
// starts from its zero fill and computes its bias and ReLU as it stores
// (two kernels unfused: the convolution with its fill, the bias and ReLU),
// after the kernel that broadcasts the filter. Before, loops over the
// same points were fused into one kernel (three unfused: fill,
// convolution, bias and ReLU).
// FUSED-LABEL: llvm.func @depthwise_bias_relu(
// FUSED-COUNT-2: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// The op writes over the matmul's own input A: not fused (a block would
// overwrite rows of A that other blocks still read).
// FUSED-LABEL: llvm.func @residual_over_input(
// FUSED-COUNT-2: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// UNFUSED-LABEL: llvm.func @conv_block(
// UNFUSED-COUNT-5: gpu.launch_func
// UNFUSED-NOT: gpu.launch_func
// The gather stays in the matmul kernel (implicit-gemm is its own option).
// UNFUSED-LABEL: llvm.func @conv3x3_residual(
// UNFUSED-COUNT-4: gpu.launch_func
// UNFUSED-NOT: gpu.launch_func
// UNFUSED-LABEL: llvm.func @tanh_to_f16(
// UNFUSED-COUNT-2: gpu.launch_func
// UNFUSED-NOT: gpu.launch_func
// UNFUSED-LABEL: llvm.func @product_also_returned(
// UNFUSED-COUNT-2: gpu.launch_func
// UNFUSED-LABEL: llvm.func @bias_relu_in_place(
// UNFUSED-COUNT-2: gpu.launch_func
// UNFUSED-NOT: gpu.launch_func
// Two products of one shape share one zero fill after CSE; each matmul
// still absorbs a fill of its own (one is cloned before bufferization):
// two launches, not a fill, two copies of it and two matmuls loading C.
// UNFUSED-LABEL: llvm.func @two_products_one_fill(
// UNFUSED-COUNT-2: gpu.launch_func
// UNFUSED-NOT: gpu.launch_func
// UNFUSED-LABEL: llvm.func @depthwise_bias_relu(
// UNFUSED-COUNT-3: gpu.launch_func
// UNFUSED-NOT: gpu.launch_func
// UNFUSED-LABEL: llvm.func @residual_over_input(
// UNFUSED-COUNT-2: gpu.launch_func
// UNFUSED-NOT: gpu.launch_func


#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d1)>

// A 1x1 convolution (a GEMM of 49 x 16 x 24, padded to 64 x 16 x 32 and
// cropped) with a bias and a ReLU6, as the ONNX importer writes them.
func.func @conv_block(%x: tensor<1x7x7x16xf32>, %w: tensor<1x1x16x24xf32>, %bias: tensor<24xf32>) -> tensor<1x7x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x7x7x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x24xf32>) -> tensor<1x7x7x24xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%x, %w : tensor<1x7x7x16xf32>, tensor<1x1x16x24xf32>) outs(%acc : tensor<1x7x7x24xf32>) -> tensor<1x7x7x24xf32>
  %e1 = tensor.empty() : tensor<1x7x7x24xf32>
  %biased = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x7x7x24xf32>, tensor<24xf32>) outs(%e1 : tensor<1x7x7x24xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x7x7x24xf32>
  %e2 = tensor.empty() : tensor<1x7x7x24xf32>
  %act = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%biased : tensor<1x7x7x24xf32>) outs(%e2 : tensor<1x7x7x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x7x7x24xf32>
  return %act : tensor<1x7x7x24xf32>
}

// A padded 3x3 convolution (patches gathered, a GEMM of 64 x 144 x 16) whose
// bias and residual input are added in the epilogue.
func.func @conv3x3_residual(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x16xf32>, %bias: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%padded, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x16xf32>) outs(%acc : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e1 = tensor.empty() : tensor<1x8x8x16xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #ch4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias, %x : tensor<1x8x8x16xf32>, tensor<16xf32>, tensor<1x8x8x16xf32>) outs(%e1 : tensor<1x8x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %r: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  } -> tensor<1x8x8x16xf32>
  return %sum : tensor<1x8x8x16xf32>
}

// A tuned SIMT matmul (interleaved: chunks of 4 columns) whose epilogue adds
// a per-column bias, applies tanh and writes f16.
func.func @tanh_to_f16(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 32, block_n = 64, thread_m = 4, thread_n = 8,
                                                      tile_k = 8, vector = 4, pad = 4, stages = 2, interleave = 1>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [#id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e1 : tensor<64x64xf16>) {
  ^bb0(%p: f32, %c: f32, %o: f16):
    %s = arith.addf %p, %c : f32
    %t = math.tanh %s : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// The product is read by the element-wise op and returned: it must be
// stored, so nothing is fused.
func.func @product_also_returned(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 4, thread_n = 4,
                                                      tile_k = 8, vector = 4, pad = 0, stages = 1, interleave = 0>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.mulf %p, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %mm, %r : tensor<64x64xf32>, tensor<64x64xf32>
}

// The element-wise op writes over the product (bufferization reuses its
// buffer), which is then returned: the kernel stores the op's result there.
func.func @bias_relu_in_place(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 2, thread_n = 4,
                                                      tile_k = 16, vector = 2, pad = 4, stages = 2, interleave = 0>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e1 : tensor<64x64xf32>) {
  ^bb0(%p: f32, %c: f32, %o: f32):
    %s = arith.addf %p, %c : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}


func.func @two_products_one_fill(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %d: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 4, thread_n = 4,
                                                     tile_k = 8, vector = 4, pad = 0, stages = 1, interleave = 0>}
       ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %q = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 4, thread_n = 4,
                                                     tile_k = 8, vector = 4, pad = 0, stages = 1, interleave = 0>}
       ins(%p, %d : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %p, %q : tensor<64x64xf32>, tensor<64x64xf32>
}

// Weights and bias are constants (read through device copies on the GPU).
func.func @depthwise_bias_relu(%x: tensor<1x10x10x32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[0.5, -0.25, 1.0, 0.75, -0.5, 0.125, 0.25, -1.0, 0.5, -0.25, 1.0, 0.75, -0.5, 0.125, 0.25, -1.0, 0.5, -0.25, 1.0, 0.75, -0.5, 0.125, 0.25, -1.0, 0.5, -0.25, 1.0, 0.75, -0.5, 0.125, 0.25, -1.0]]]> : tensor<1x1x32xf32>
  %bias = arith.constant dense<[0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8, 0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8, 0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8, 0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8]> : tensor<32xf32>
  %wide = tensor.empty() : tensor<3x3x32xf32>
  %w3 = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (0, 0, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<1x1x32xf32>) outs(%wide : tensor<3x3x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<3x3x32xf32>
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w3 : tensor<1x10x10x32xf32>, tensor<3x3x32xf32>) outs(%acc : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %e1 = tensor.empty() : tensor<1x8x8x32xf32>
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x8x8x32xf32>, tensor<32xf32>) outs(%e1 : tensor<1x8x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

func.func @residual_over_input(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul {dltune.target = "gpu",
                       dltune.config = #dltune.config<block_m = 32, block_n = 32, thread_m = 4, thread_n = 4,
                                                      tile_k = 8, vector = 4, pad = 0, stages = 1, interleave = 0>}
       ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<64x64xf32>) outs(%x : tensor<64x64xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
