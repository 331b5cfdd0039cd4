// Convolutions as implicit GEMMs (--dltune-lower-gpu, implicit-gemm, on by
// default): the matmul kernel evaluates the patch gather of
// --dltune-conv-to-matmul in its loads of A instead of reading a patch
// buffer the gather kernel wrote. Checked against the untuned CPU lowering
// by the CPU emulation of the kernels: a padded strided 3x3 convolution
// with bias and ReLU (channels a multiple of the vector: one vector load
// per slot), a 3-channel stem with K padded to 32, 98 rows (ragged) and a
// weight padded per call (scalar loads, a lane at a time), a hand-written
// gather with a tuned one-stage configuration and 2-wide vectors, two
// convolutions one after the other (bufferization gives their equally
// shaped patch buffers one allocation), an epilogue that would write over
// the gathered input (kept as its own kernel: fusing it failed this check),
// and an accumulating convolution whose C may alias the input (not
// gathered).
// RUN: dltune run %s --entry conv3x3_bias_relu --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry stem --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry hand_gather --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry two_convs --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry epilogue_over_input --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry accumulate --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// The same through `dltune run --gpu-lowering-options` (bench/gpu_models.py
// --variants): the gather a kernel of its own, emulated.
// RUN: dltune run %s --entry conv3x3_bias_relu --target gpu --default-config --emulate-gpu --gpu-lowering-options "implicit-gemm=false" --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"
// RUN: not dltune run %s --entry stem --gpu-lowering-options "implicit-gemm=false" 2>&1 | FileCheck %s --check-prefix=NOTGPU
// NOTGPU: --gpu-lowering-options needs --target gpu
// RUN: not dltune run %s --entry stem --target gpu --emulate-gpu --gpu-lowering-options "x=1}, canonicalize{" 2>&1 | FileCheck %s --check-prefix=BRACES
// BRACES: --gpu-lowering-options takes name=value options
// RUN: not dltune run %s --entry stem --target gpu --default-config --emulate-gpu --gpu-lowering-options "no-such-option=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: no-such-option

// Launches per function, with and without.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa})" 2>/dev/null > %t.on
// RUN: FileCheck %s --check-prefix=ON < %t.on
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa implicit-gemm=false})" 2>/dev/null | FileCheck %s --check-prefix=OFF
// The matmul, gathering, with its bias and ReLU (two kernels without).
// ON-LABEL: llvm.func @conv3x3_bias_relu(
// ON-COUNT-1: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return
// OFF-LABEL: llvm.func @conv3x3_bias_relu(
// OFF-COUNT-2: gpu.launch_func
// OFF-NOT: gpu.launch_func
// OFF: llvm.return
// The weights' 16 columns padded to 32 (a fill and a copy, between the
// gather and the matmul), the matmul, the product's 16 columns copied out.
// ON-LABEL: llvm.func @stem(
// ON-COUNT-4: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return
// OFF-LABEL: llvm.func @stem(
// OFF-COUNT-5: gpu.launch_func
// OFF-NOT: gpu.launch_func
// OFF: llvm.return
// ON-LABEL: llvm.func @hand_gather(
// ON-COUNT-1: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return
// ON-LABEL: llvm.func @two_convs(
// ON-COUNT-2: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return
// OFF-LABEL: llvm.func @two_convs(
// OFF-COUNT-4: gpu.launch_func
// OFF-NOT: gpu.launch_func
// OFF: llvm.return
// The ReLU, the matmul gathering, the bias add over the ReLU's buffer
// (without implicit GEMM also three: the gather, the matmul adding the
// bias).
// ON-LABEL: llvm.func @epilogue_over_input(
// ON-COUNT-3: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return
// Two arguments may alias: the gather stays a kernel.
// ON-LABEL: llvm.func @accumulate(
// ON-COUNT-2: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return

// One vector load per slot where the channels allow it (16 channels,
// vectors of 4: the kernel of conv3x3_bias_relu loads with ld.global.v4
// only); the stem's 3 channels are loaded one element at a time.
// RUN: FileCheck %s --check-prefix=PTX < %t.on
// RUN: FileCheck %s --check-prefix=VEC < %t.on
// PTX: gpu.binary @conv3x3_bias_relu_kernel
// PTX-NOT: ld.global.b32
// PTX: gpu.binary @stem_kernel {{.*}}
// PTX: gpu.binary @stem_kernel_1
// PTX-SAME: ld.global.b32
// VEC: gpu.binary @conv3x3_bias_relu_kernel
// VEC-SAME: ld.global.v4.b32

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#nhwc = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d3)>

// 3x3, stride 2, padding 1: 64 rows, K = 144, 32 filters.
func.func @conv3x3_bias_relu(%x: tensor<1x16x16x16xf32>, %w: tensor<3x3x16x32xf32>,
                             %bias: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x16xf32> to tensor<1x18x18x16xf32>
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x18x16xf32>, tensor<3x3x16x32xf32>) outs(%z : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %o = tensor.empty() : tensor<1x8x8x32xf32>
  %r = linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<1x8x8x32xf32>, tensor<32xf32>) outs(%o : tensor<1x8x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// 3 channels, 3x3, stride 2: K = 27 (padded to 32: the gather's columns
// from 27 on are zero), 2 x 7 x 7 = 98 rows, 16 filters (padded to 32).
func.func @stem(%x: tensor<2x15x15x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<2x7x7x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x15x15x3xf32>, tensor<3x3x3x16xf32>) outs(%z : tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32>
  return %y : tensor<2x7x7x16xf32>
}

// The gather --dltune-conv-to-matmul writes for a 3x3 convolution of a
// 10 x 10 x 16 input (no padding), tuned: one stage, vectors of 2.
func.func @hand_gather(%x: tensor<1x10x10x16xf32>, %b: tensor<144x16xf32>) -> tensor<64x16xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x144xf32>
  %a = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<64x144xf32>) {
  ^bb0(%out: f32):
    %row = linalg.index 0 : index
    %col = linalg.index 1 : index
    %py = arith.divui %row, %c8 : index
    %px = arith.remui %row, %c8 : index
    %ty = arith.divui %col, %c48 : index
    %q = arith.divui %col, %c16 : index
    %tx = arith.remui %q, %c3 : index
    %ch = arith.remui %col, %c16 : index
    %h = arith.addi %py, %ty : index
    %w = arith.addi %px, %tx : index
    %v = tensor.extract %x[%c0, %h, %w, %ch] : tensor<1x10x10x16xf32>
    linalg.yield %v : f32
  } -> tensor<64x144xf32>
  %ce = tensor.empty() : tensor<64x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ce : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 16, thread_m = 2, thread_n = 2,
                                                     tile_k = 16, vector = 2, pad = 0, stages = 1, interleave = 0>}
       ins(%a, %b : tensor<64x144xf32>, tensor<144x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// Two 3x3 convolutions of equal shapes, the second on the first's result.
func.func @two_convs(%x: tensor<1x10x10x8xf32>, %w1: tensor<3x3x8x32xf32>,
                     %w2: tensor<3x3x32x32xf32>) -> tensor<1x6x6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x8x8x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %y1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x10x10x8xf32>, tensor<3x3x8x32xf32>) outs(%z1 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %e2 = tensor.empty() : tensor<1x6x6x32xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %y2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%y1, %w2 : tensor<1x8x8x32xf32>, tensor<3x3x32x32xf32>) outs(%z2 : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  return %y2 : tensor<1x6x6x32xf32>
}

// The ReLU and the bias add share one empty tensor (as CSE leaves an
// imported model's equally shaped ones): bufferized, the add writes over
// the ReLU's buffer, which the convolution gathers from, while other
// blocks of the kernel would still gather.
func.func @epilogue_over_input(%x: tensor<1x16x16x32xf32>, %w: tensor<3x3x32x32xf32>,
                               %bias: tensor<32xf32>) -> tensor<1x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x32xf32>
  %relu = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x16x16x32xf32>) outs(%e : tensor<1x16x16x32xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x16x32xf32>
  %p = tensor.pad %relu low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x32xf32> to tensor<1x18x18x32xf32>
  %ce = tensor.empty() : tensor<1x16x16x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x18x32xf32>, tensor<3x3x32x32xf32>) outs(%z : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %r = linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<1x16x16x32xf32>, tensor<32xf32>) outs(%e : tensor<1x16x16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x16x16x32xf32>
  return %r : tensor<1x16x16x32xf32>
}

// C is an argument, as is the input: they may alias.
func.func @accumulate(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x32xf32>,
                      %c: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x32xf32>) outs(%c : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %y : tensor<1x8x8x32xf32>
}
