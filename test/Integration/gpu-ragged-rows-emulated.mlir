// GEMMs whose M the row tile does not divide (14 x 14 = 196 pixels of a
// convolution), run by the CPU emulation of their GPU kernels and checked
// against the untuned CPU lowering: the last row of blocks reads rows past
// M clamped to row M - 1 and stores only the rows inside. A fill absorbed
// (196 rows, blocks of 64), C accumulated (100 rows, blocks of 32, two
// stages, interleaved), and a bias and ReLU computed as the kernel stores
// (a 1x1 convolution on a 14 x 14 map, rewritten by --dltune-conv-to-matmul
// with its default configuration): its 196 pixels are A as they are, a
// view, no padded copy (one launch; with m-align=64, as before 2026-11-29,
// a fill and a copy into the padded A come first: three). Without the store
// guard (rows past M written) the runs crash with a corrupted heap. A read
// past A goes unseen on the CPU (its rows are never stored), so the clamp
// is checked in the PTX (min.u, gone without it).
// RUN: dltune run %s --entry fill --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry accumulate --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry conv1x1 --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"
// RUN: dltune-opt %s --dltune-conv-to-matmul --dltune-annotate="target=gpu default-config=true" --dltune-apply --dltune-lower-gpu="format=isa" | FileCheck %s --check-prefix=LAUNCH
// RUN: dltune-opt %s --dltune-conv-to-matmul=m-align=64 --dltune-annotate="target=gpu default-config=true" --dltune-apply --dltune-lower-gpu="format=isa" | FileCheck %s --check-prefix=PADDED
// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="format=isa" | FileCheck %s --check-prefix=CLAMP
// CLAMP: gpu.binary @fill_kernel
// CLAMP-SAME: min.u
// The tensor-core kernel's rows: test/Transforms/dltune-lower-gpu-ragged-mma.mlir.
// LAUNCH-LABEL: llvm.func @conv1x1(
// LAUNCH-COUNT-1: gpu.launch_func
// LAUNCH-NOT: gpu.launch_func
// LAUNCH: llvm.return
// PADDED-LABEL: llvm.func @conv1x1(
// PADDED-COUNT-3: gpu.launch_func
// PADDED-NOT: gpu.launch_func
// PADDED: llvm.return

func.func @fill(%a: tensor<196x64xf32>, %b: tensor<64x64xf32>) -> tensor<196x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<196x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<196x64xf32>) -> tensor<196x64xf32>
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 32, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 4, stages = 1, interleave = 0>}
       ins(%a, %b : tensor<196x64xf32>, tensor<64x64xf32>) outs(%c : tensor<196x64xf32>) -> tensor<196x64xf32>
  return %r : tensor<196x64xf32>
}

func.func @accumulate(%a: tensor<100x32xf32>, %b: tensor<32x64xf32>, %c: tensor<100x64xf32>) -> tensor<100x64xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 32, block_n = 64, thread_m = 4, thread_n = 4,
                                                     tile_k = 16, vector = 4, pad = 4, stages = 2, interleave = 1>}
       ins(%a, %b : tensor<100x32xf32>, tensor<32x64xf32>) outs(%c : tensor<100x64xf32>) -> tensor<100x64xf32>
  return %r : tensor<100x64xf32>
}

func.func @conv1x1(%x: tensor<1x14x14x32xf32>, %w: tensor<1x1x32x64xf32>, %bias: tensor<64xf32>) -> tensor<1x14x14x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x14x14x32xf32>, tensor<1x1x32x64xf32>) outs(%f : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %e1 = tensor.empty() : tensor<1x14x14x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x14x14x64xf32>, tensor<64xf32>) outs(%e1 : tensor<1x14x14x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.maximumf %s, %z : f32
    linalg.yield %t : f32
  } -> tensor<1x14x14x64xf32>
  return %r : tensor<1x14x14x64xf32>
}
