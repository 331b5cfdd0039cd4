// --dltune-fuse-depthwise-pointwise leaves apart the pairs it cannot fuse
// as they are: a depthwise result with two users, two threads on the 1x1
// conv, a depthwise cache tile of two rows, a strided 1x1 conv, a 1x1 conv
// without an epilogue, a 1x1 conv for the GPU; the last pair, with nothing in the way, is fused
// (configs written by hand: the pass reads only tile_oh and threads).
// RUN: dltune-opt %s --dltune-fuse-depthwise-pointwise | FileCheck %s --check-prefix=KEEP

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (d3)>

// KEEP-LABEL: func.func @kept
// KEEP-NOT: scf.for
// KEEP-COUNT-6: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} -> tensor<1x8x8x16xf32>
// KEEP: scf.for
// KEEP: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} -> tensor<1x1x8x16xf32>
// KEEP: scf.yield
// KEEP-NOT: scf.for
// KEEP: return
func.func @kept(%padded: tensor<1x10x10x16xf32>, %wd: tensor<3x3x16xf32>, %bd: tensor<16xf32>,
                %wp: tensor<1x1x16x16xf32>, %bp: tensor<16xf32>)
    -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e4 = tensor.empty() : tensor<1x4x4x16xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // Two users of the depthwise result: the row loop cannot own it.
  %dw1 = linalg.depthwise_conv_2d_nhwc_hwc {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %wd : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %a1 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw1, %bd : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %p1 = linalg.conv_2d_nhwc_hwcf {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a1, %wp : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %o1 = linalg.generic {indexing_maps = [#map, #bias, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p1, %bp, %a1 : tensor<1x8x8x16xf32>, tensor<16xf32>, tensor<1x8x8x16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %r: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  } -> tensor<1x8x8x16xf32>
  // Two threads on the 1x1 conv.
  %dw2 = linalg.depthwise_conv_2d_nhwc_hwc {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %wd : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %a2 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw2, %bd : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %p2 = linalg.conv_2d_nhwc_hwcf {dltune.config = #dltune.config<tile_oh = 1, threads = 2>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a2, %wp : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %o2 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p2, %bp : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  // The depthwise conv's cache tile is two rows.
  %dw3 = linalg.depthwise_conv_2d_nhwc_hwc {dltune.config = #dltune.config<tile_oh = 2, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %wd : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %a3 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw3, %bd : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %p3 = linalg.conv_2d_nhwc_hwcf {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a3, %wp : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %o3 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p3, %bp : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  // A strided 1x1 conv.
  %dw4 = linalg.depthwise_conv_2d_nhwc_hwc {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %wd : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %a4 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw4, %bd : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %p4 = linalg.conv_2d_nhwc_hwcf {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a4, %wp : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f4 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %o4 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p4, %bp : tensor<1x4x4x16xf32>, tensor<16xf32>) outs(%e4 : tensor<1x4x4x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x16xf32>
  // No epilogue on the 1x1 conv.
  %dw5 = linalg.depthwise_conv_2d_nhwc_hwc {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %wd : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %a5 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw5, %bd : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %p5 = linalg.conv_2d_nhwc_hwcf {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a5, %wp : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  // A 1x1 conv for the GPU (no CPU epilogue fusion, so no row loop).
  %dw7 = linalg.depthwise_conv_2d_nhwc_hwc {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %wd : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %a7 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw7, %bd : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %p7 = linalg.conv_2d_nhwc_hwcf {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dltune.target = "gpu", dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a7, %wp : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %o7 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p7, %bp : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  // The control: the same pair with nothing in the way is fused, so the
  // six above are kept for their own reasons.
  %dw6 = linalg.depthwise_conv_2d_nhwc_hwc {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %wd : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %a6 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw6, %bd : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  %p6 = linalg.conv_2d_nhwc_hwcf {dltune.config = #dltune.config<tile_oh = 1, threads = 1>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a6, %wp : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %o6 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p6, %bp : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  return %o1, %o2, %o3, %o4, %p5, %o7, %o6 : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>
}
