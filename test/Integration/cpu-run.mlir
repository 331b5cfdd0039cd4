// Apply configurations to a matmul and a conv, lower, JIT-run and verify
// against the untuned lowering.
// RUN: dltune run %s --entry matmul --check --repeat 2 --json | FileCheck %s --check-prefix=MATMUL
// RUN: dltune run %s --entry conv --check --repeat 2 --json | FileCheck %s --check-prefix=CONV
// RUN: dltune run %s --entry matmul --check --repeat 2 | FileCheck %s --check-prefix=TEXT
// RUN: dltune-opt %s --dltune-default-pipeline | FileCheck %s --check-prefix=PIPELINE

// MATMUL: "check":"ok"
// MATMUL-SAME: "entry":"matmul"
// MATMUL-SAME: "flops":2097152
// MATMUL-SAME: "gflops":
// MATMUL-SAME: "median_ms":
// CONV: "check":"ok"
// CONV-SAME: "flops":5308416
// TEXT: matmul (cpu): median {{[0-9.]+}} ms  min {{[0-9.]+}} ms  max {{[0-9.]+}} ms  (2 repeats)  {{[0-9.]+}} GFLOP/s
// TEXT-NEXT: check: ok (max relative error {{.*}} vs the untuned reference)
// PIPELINE: llvm.func @matmul
// PIPELINE: llvm.func @conv

func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 32, tile_n = 64, tile_k = 64,
                        reg_m = 8, reg_n = 32, unroll = 4, pack_a = 1, pack_b = 1, threads = 2, vectorize = 1>}
       ins(%a, %b : tensor<64x128xf32>, tensor<128x128xf32>) outs(%init : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

func.func @conv(%in: tensor<1x14x14x32xf32>, %w: tensor<3x3x32x64xf32>, %out: tensor<1x12x12x64xf32>) -> tensor<1x12x12x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<1x12x12x64xf32>) -> tensor<1x12x12x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
         dltune.config = #dltune.config<tile_oh = 2, tile_ow = 12, reg_ow = 4, tile_f = 64, reg_f = 32,
                                        tile_c = 32, reg_c = 2, unroll = 2, pack_f = 1, threads = 2, vectorize = 1>}
         ins(%in, %w : tensor<1x14x14x32xf32>, tensor<3x3x32x64xf32>) outs(%init : tensor<1x12x12x64xf32>) -> tensor<1x12x12x64xf32>
  return %r : tensor<1x12x12x64xf32>
}
