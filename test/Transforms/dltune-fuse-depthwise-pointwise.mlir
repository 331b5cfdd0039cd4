// --dltune-fuse-depthwise-pointwise: a 1x1 conv (with its epilogue) is tiled
// by output rows and the depthwise conv producing its input (fill, conv,
// epilogue) is computed row by row inside that loop; both keep their
// configs for --dltune-apply. The pad before the depthwise conv stays
// outside the loop.
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-fuse-depthwise-pointwise 2>/dev/null | FileCheck %s
// A second run changes nothing (the row-sized copies are not fused again).
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-fuse-depthwise-pointwise --dltune-fuse-depthwise-pointwise 2>/dev/null | FileCheck %s
// Through --dltune-apply's option, the same loop holds both scheduled convs.
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-apply="fuse-depthwise-pointwise=true" 2>/dev/null | FileCheck %s --check-prefix=APPLY
// The pairs that must stay apart are in dltune-fuse-depthwise-pointwise-kept.mlir.

// The same numbers as the unscheduled block, one thread, stride 1 and 2.
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-apply="fuse-depthwise-pointwise=true" --dltune-strip 2>/dev/null -o %t.fused.mlir
// RUN: FileCheck %s --check-prefix=APPLY < %t.fused.mlir
// RUN: dltune run %s --entry block_s1 --repeat 1 --warmup 0 --save-output %t.s1.ref.npy
// RUN: dltune run %t.fused.mlir --entry block_s1 --repeat 1 --warmup 0 --save-output %t.s1.fused.npy
// RUN: dltune run %s --entry block_s2 --repeat 1 --warmup 0 --save-output %t.s2.ref.npy
// RUN: dltune run %t.fused.mlir --entry block_s2 --repeat 1 --warmup 0 --save-output %t.s2.fused.npy
// RUN: %python %S/Inputs/allclose.py %t.s1.ref.npy %t.s1.fused.npy
// RUN: %python %S/Inputs/allclose.py %t.s2.ref.npy %t.s2.fused.npy

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (d3)>

// CHECK-LABEL: func.func @block_s1
// CHECK: %[[PAD:.*]] = tensor.pad
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NOT: scf.for
// CHECK: tensor.extract_slice %[[PAD]][0, %[[ROW]], 0, 0] [1, 3, 18, 32]
// CHECK: linalg.fill {{.*}} -> tensor<1x1x16x32xf32>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}}dltune.config{{.*}} -> tensor<1x1x16x32xf32>
// CHECK: linalg.generic
// CHECK: } -> tensor<1x1x16x32xf32>
// CHECK: linalg.fill {{.*}} -> tensor<1x1x16x24xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}dltune.config{{.*}} -> tensor<1x1x16x24xf32>
// CHECK: linalg.generic
// CHECK: } -> tensor<1x1x16x24xf32>
// CHECK: tensor.insert_slice
// CHECK: scf.yield
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK: return
// Scheduled, the 1x1 conv's register tiles read the depthwise row (one row
// of 16 pixels), not the whole depthwise result as they do unfused.
// APPLY-LABEL: func.func @block_s1
// APPLY-NOT: linalg.depthwise_conv_2d_nhwc_hwc
// APPLY-NOT: linalg.conv_2d_nhwc_hwcf
// APPLY: scf.for
// APPLY: vector.fma {{.*}} : vector<1x4x16xf32>
// APPLY: tensor.extract_slice {{.*}} [1, 1, 4, 32] [1, 1, 1, 1] : tensor<1x1x16x32xf32> to tensor<1x1x4x32xf32>
// APPLY: vector.fma {{.*}} : vector<8xf32>
// APPLY-NOT: linalg.depthwise_conv_2d_nhwc_hwc
// APPLY-NOT: linalg.conv_2d_nhwc_hwcf
// APPLY-NOT: tensor<1x16x16x32xf32> to tensor<1x1x4x32xf32>
// APPLY: return
func.func @block_s1(%x: tensor<1x16x16x32xf32>, %wd: tensor<3x3x32xf32>, %bd: tensor<32xf32>,
                    %wpb: tensor<1x1x32x24xf32>, %bp: tensor<24xf32>,
                    %residual: tensor<1x16x16x24xf32>) -> tensor<1x16x16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x32xf32> to tensor<1x18x18x32xf32>
  %e0 = tensor.empty() : tensor<1x16x16x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %dw = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %wd : tensor<1x18x18x32xf32>, tensor<3x3x32xf32>) outs(%f0 : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %e1 = tensor.empty() : tensor<1x16x16x32xf32>
  %act = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw, %bd : tensor<1x16x16x32xf32>, tensor<32xf32>) outs(%e1 : tensor<1x16x16x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %m = arith.maximumf %s, %zero : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<1x16x16x32xf32>
  %e2 = tensor.empty() : tensor<1x16x16x24xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x16x24xf32>) -> tensor<1x16x16x24xf32>
  %pw = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%act, %wpb : tensor<1x16x16x32xf32>, tensor<1x1x32x24xf32>) outs(%f2 : tensor<1x16x16x24xf32>) -> tensor<1x16x16x24xf32>
  %e3 = tensor.empty() : tensor<1x16x16x24xf32>
  %out = linalg.generic {indexing_maps = [#map, #bias, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pw, %bp, %residual : tensor<1x16x16x24xf32>, tensor<24xf32>, tensor<1x16x16x24xf32>) outs(%e3 : tensor<1x16x16x24xf32>) {
  ^bb0(%in: f32, %b: f32, %r: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  } -> tensor<1x16x16x24xf32>
  return %out : tensor<1x16x16x24xf32>
}

// Stride 2: each output row of the depthwise conv reads three input rows,
// two apart from the next row's.
// CHECK-LABEL: func.func @block_s2
// CHECK: %[[PAD:.*]] = tensor.pad
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[IN:.*]] = affine.apply #{{.*}}(%[[ROW]])
// CHECK: tensor.extract_slice %[[PAD]][0, %[[IN]], 0, 0] [1, 3, 17, 16]
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} -> tensor<1x1x8x16xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x1x8x32xf32>
// CHECK: scf.yield
func.func @block_s2(%x: tensor<1x16x16x16xf32>, %wdb: tensor<3x3x16xf32>, %bd: tensor<16xf32>,
                    %wp: tensor<1x1x16x32xf32>, %bp: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 0, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x16xf32> to tensor<1x17x17x16xf32>
  %e0 = tensor.empty() : tensor<1x8x8x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %dw = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %wdb : tensor<1x17x17x16xf32>, tensor<3x3x16xf32>) outs(%f0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e1 = tensor.empty() : tensor<1x8x8x16xf32>
  %act = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%dw, %bd : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e1 : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %e2 = tensor.empty() : tensor<1x8x8x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %pw = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%act, %wp : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%f2 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %e3 = tensor.empty() : tensor<1x8x8x32xf32>
  %out = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pw, %bp : tensor<1x8x8x32xf32>, tensor<32xf32>) outs(%e3 : tensor<1x8x8x32xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x32xf32>
  return %out : tensor<1x8x8x32xf32>
}
