// A matmul whose B is a splat constant (a stripped model's weight, as in
// bench/gpu_models) with its bias add fused: the CPU's default schedule
// failed to apply ("transform.structured.hoist_pad failed to apply":
// folding a slice of the splat left no slice to pack from), so `dltune run
// --default-config` refused the model. Splat operands are not packed
// since (SchedulePlan::splatOperands); the schedule applies and the result
// matches the untuned lowering.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-strip,dltune-annotate{default-config=true},dltune-apply)" 2>&1 | FileCheck %s --check-prefix=APPLY
// APPLY-NOT: failed
// APPLY-NOT: linalg.matmul
// APPLY: vector.fma
// RUN: dltune run %s --entry main --default-config --check --repeat 1 --warmup 0 --json | FileCheck %s --check-prefix=CHECKED
// CHECKED: "check":"ok"
#map = affine_map<(d0, d1, d2) -> (d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @main(%arg0: tensor<1x64x256xf32>) -> tensor<1x64x768xf32> {
  %w = arith.constant dense<1.302083333e-03> : tensor<256x768xf32>
  %a = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<1x64x256xf32> into tensor<64x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x768xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x768xf32>) -> tensor<64x768xf32>
  %y = linalg.matmul ins(%a, %w : tensor<64x256xf32>, tensor<256x768xf32>) outs(%z : tensor<64x768xf32>) -> tensor<64x768xf32>
  %x = tensor.expand_shape %y [[0, 1], [2]] output_shape [1, 64, 768] : tensor<64x768xf32> into tensor<1x64x768xf32>
  %bias = arith.constant dense<0.0> : tensor<768xf32>
  %e3 = tensor.empty() : tensor<1x64x768xf32>
  %r = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias, %x : tensor<768xf32>, tensor<1x64x768xf32>) outs(%e3 : tensor<1x64x768xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<1x64x768xf32>
  return %r : tensor<1x64x768xf32>
}
