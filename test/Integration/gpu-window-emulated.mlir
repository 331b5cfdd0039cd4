// Depthwise convolutions and pooling as window kernels (--dltune-lower-gpu,
// window-kernels, on by default; GpuWindowKernel.h): each thread keeps a
// vector of channels of one or more output columns in registers across the
// window. Checked against the untuned CPU lowering by the CPU emulation of
// the kernels: a padded depthwise convolution with its bias and ReLU6
// (fill absorbed, epilogue computed as the kernel stores, 4-wide vectors),
// a strided one with 2 channels and 2 columns a thread (5 columns: the last
// group ragged), a max pool padded with -inf, 4 columns a thread over 6, an
// average pool (a sum pool and its division), 3 channels (1-wide vectors),
// a hand-tiled generic whose body reads linalg.index of the channels
// (run once a channel) and whose output starts from an argument (no fill),
// and a global average pool (a generic reducing its middle loops: a
// column reduction, which gets a window space too, and its division).
// RUN: dltune run %s --entry depthwise_bias_relu6 --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry depthwise_ragged --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry max_pool_four_columns --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry average_pool --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry three_channels --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry channel_scaled_sum --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry global_average_pool --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// The loops of before, through `dltune run --gpu-lowering-options`.
// RUN: dltune run %s --entry depthwise_bias_relu6 --target gpu --default-config --emulate-gpu --gpu-lowering-options "window-kernels=false" --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// Launches per function, and the kernels' loads.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa})" 2>/dev/null > %t.on
// RUN: FileCheck %s --check-prefix=ON < %t.on
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa window-kernels=false})" 2>/dev/null | FileCheck %s --check-prefix=OFF
// The convolution, its fill, bias and ReLU6 in one kernel either way.
// ON-LABEL: llvm.func @depthwise_bias_relu6(
// ON-COUNT-1: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return
// OFF-LABEL: llvm.func @depthwise_bias_relu6(
// OFF-COUNT-1: gpu.launch_func
// OFF-NOT: gpu.launch_func
// OFF: llvm.return
// ON-LABEL: llvm.func @average_pool(
// ON-COUNT-1: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return
// ON-LABEL: llvm.func @global_average_pool(
// ON-COUNT-1: gpu.launch_func
// ON-NOT: gpu.launch_func
// ON: llvm.return
// The window kernel of the depthwise convolution: its input, weights and
// bias read 4 channels a load, its result stored 4 at a time; no scalar
// load or store of 32 bits (the loop nest read and wrote the output at
// every window step). LLVM 22 writes f32 loads as .b32.
// RUN: FileCheck %s --check-prefix=PTX < %t.on
// PTX: gpu.binary @depthwise_bias_relu6_kernel
// PTX-NOT: {{ld.global(.nc)?.[bf]32}}
// PTX-SAME: {{ld.global(.nc)?.v4.[bf]32}}
// PTX-NOT: {{ld.global(.nc)?.[bf]32}}
// PTX-NOT: {{st.global.[bf]32}}
// PTX-SAME: {{st.global.v4.[bf]32}}
// PTX-SAME: ret;
// The hand-tiled kernels, not the loops' 256 threads: 2-channel loads of
// the ragged depthwise convolution in blocks of 64, the max pool's blocks
// of 32, 3 channels in blocks of 64 (75 items: the default halves 256
// down to 64), the body run once a channel in blocks of 32.
// PTX: gpu.binary @depthwise_ragged_kernel
// PTX-SAME: .maxntid 64, 1, 1
// PTX-SAME: {{ld.global(.nc)?.v2.[bf]32}}
// PTX: gpu.binary @max_pool_four_columns_kernel
// PTX-SAME: .maxntid 32, 1, 1
// PTX: gpu.binary @three_channels_kernel
// PTX-SAME: .maxntid 64, 1, 1
// PTX: gpu.binary @channel_scaled_sum_kernel
// PTX-SAME: .maxntid 32, 1, 1
// The global pool's kernel reads 4 channels a load.
// PTX: gpu.binary @global_average_pool_kernel
// PTX-NOT: {{ld.global(.nc)?.[bf]32}}
// PTX-SAME: {{ld.global(.nc)?.v4.[bf]32}}

#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan = affine_map<(n, h, w, c) -> (c)>

func.func @depthwise_bias_relu6(%x: tensor<1x10x10x32xf32>, %w: tensor<3x3x32xf32>, %b: tensor<32xf32>) -> tensor<1x10x10x32xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x10x10x32xf32> to tensor<1x12x12x32xf32>
  %e = tensor.empty() : tensor<1x10x10x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10x10x32xf32>) -> tensor<1x10x10x32xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x12x12x32xf32>, tensor<3x3x32xf32>) outs(%z : tensor<1x10x10x32xf32>) -> tensor<1x10x10x32xf32>
  %e2 = tensor.empty() : tensor<1x10x10x32xf32>
  %r = linalg.generic {indexing_maps = [#id4, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b : tensor<1x10x10x32xf32>, tensor<32xf32>) outs(%e2 : tensor<1x10x10x32xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x10x10x32xf32>
  return %r : tensor<1x10x10x32xf32>
}

func.func @depthwise_ragged(%x: tensor<2x9x9x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<2x5x5x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x9x9x16xf32> to tensor<2x11x11x16xf32>
  %e = tensor.empty() : tensor<2x5x5x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>,
                                          dltune.target = "gpu",
                                          dltune.config = #dltune.config<vector = 2, outputs = 2, block_threads = 64>}
      ins(%p, %w : tensor<2x11x11x16xf32>, tensor<3x3x16xf32>) outs(%z : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  return %y : tensor<2x5x5x16xf32>
}

func.func @max_pool_four_columns(%x: tensor<1x12x12x4xf32>) -> tensor<1x6x6x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x12x12x4xf32> to tensor<1x14x14x4xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %z = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>,
                                dltune.target = "gpu",
                                dltune.config = #dltune.config<vector = 4, outputs = 4, block_threads = 32>}
      ins(%p, %window : tensor<1x14x14x4xf32>, tensor<3x3xf32>) outs(%z : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %y : tensor<1x6x6x4xf32>
}

func.func @average_pool(%x: tensor<1x8x8x12xf32>) -> tensor<1x4x4x12xf32> {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %window = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x12xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x12xf32>) -> tensor<1x4x4x12xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x8x8x12xf32>, tensor<2x2xf32>) outs(%z : tensor<1x4x4x12xf32>) -> tensor<1x4x4x12xf32>
  %e2 = tensor.empty() : tensor<1x4x4x12xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x4x12xf32>) outs(%e2 : tensor<1x4x4x12xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %quarter : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x12xf32>
  return %r : tensor<1x4x4x12xf32>
}

func.func @three_channels(%x: tensor<1x7x7x3xf32>, %w: tensor<3x3x3xf32>) -> tensor<1x5x5x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x7x7x3xf32>, tensor<3x3x3xf32>) outs(%z : tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  return %y : tensor<1x5x5x3xf32>
}

// out[n, c] += sum over k of in[n, k, c] * c: the body reads the channel's
// index, which the lane rules do not cover.
func.func @channel_scaled_sum(%x: tensor<5x6x8xf32>, %init: tensor<5x8xf32>) -> tensor<5x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, k) -> (n, k, c)>, affine_map<(n, c, k) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction"],
                       dltune.gpu_kernel = {vector = 4, outputs = 2, block_threads = 32}}
      ins(%x : tensor<5x6x8xf32>) outs(%init : tensor<5x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    %m = arith.mulf %v, %cf : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

func.func @global_average_pool(%x: tensor<2x7x7x64xf32>) -> tensor<2x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 49.0 : f32
  %e = tensor.empty() : tensor<2x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, c)>],
                       iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<2x7x7x64xf32>) outs(%z : tensor<2x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = arith.addf %v, %o : f32
    linalg.yield %a : f32
  } -> tensor<2x64xf32>
  %e2 = tensor.empty() : tensor<2x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (n, c)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<2x64xf32>) outs(%e2 : tensor<2x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}
