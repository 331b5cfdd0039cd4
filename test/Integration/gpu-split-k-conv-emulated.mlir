// A 3x3 convolution whose GEMM (49 x 64, K = 1152) takes split-K by
// default, with a residual add and a ReLU after it, as in ResNet-18's
// blocks: three launches (the patches, which a split matmul does not
// gather; the slices; their sum, which computes the residual add and the
// ReLU as it stores C's rows viewed as NHWC), one with split-k=false (the
// implicit GEMM with its epilogue). Before 2026-11-30 the sum's store took
// only an epilogue reading C as it is, and the residual add was a fourth
// launch. Checked against the untuned CPU lowering in the CPU emulation,
// the weights an argument (not a splat).
// RUN: dltune run %s --entry main --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true})" | FileCheck %s --check-prefix=SPLIT
// SPLIT: split_k = 2,
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa})" | grep -c gpu.launch_func | FileCheck %s --check-prefix=THREE
// THREE: {{^}}3{{$}}
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{format=isa split-k=false})" | grep -c gpu.launch_func | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}

#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @main(%x: tensor<1x7x7x128xf32>, %w: tensor<3x3x128x64xf32>, %res: tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x7x7x128xf32> to tensor<1x9x9x128xf32>
  %e = tensor.empty() : tensor<1x7x7x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%p, %w : tensor<1x9x9x128xf32>, tensor<3x3x128x64xf32>) outs(%z : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
  %e2 = tensor.empty() : tensor<1x7x7x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%y, %res : tensor<1x7x7x64xf32>, tensor<1x7x7x64xf32>) outs(%e2 : tensor<1x7x7x64xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x7x64xf32>
  return %r : tensor<1x7x7x64xf32>
}
