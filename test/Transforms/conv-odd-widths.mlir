// Output widths with odd divisors only (SqueezeNet's 27 and 13) get as many
// register rows of one vector as the registers hold - 9 and 13 - not one
// row (which left those convs at 13-26 GFLOP/s); 14 keeps 7 rows, 56 keeps
// 4 rows of two vectors.
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true" | FileCheck %s
// RUN: dltune run %s --entry conv27 --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// CHECK-LABEL: func.func @conv27
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 8, reg_ow = 9,
// CHECK-LABEL: func.func @conv13
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 8, reg_ow = 13,
// CHECK-LABEL: func.func @conv14
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 8, reg_ow = 7,
// CHECK-LABEL: func.func @conv56
// CHECK: dltune.config = #dltune.config<{{.*}}reg_f = 16, reg_ow = 4,
// JIT: check: ok
func.func @conv27(%i: tensor<1x29x29x48xf32>, %f: tensor<3x3x48x64xf32>, %o: tensor<1x27x27x64xf32>) -> tensor<1x27x27x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x29x29x48xf32>, tensor<3x3x48x64xf32>) outs(%o : tensor<1x27x27x64xf32>) -> tensor<1x27x27x64xf32>
  return %r : tensor<1x27x27x64xf32>
}
func.func @conv13(%i: tensor<1x13x13x64xf32>, %f: tensor<1x1x64x64xf32>, %o: tensor<1x13x13x64xf32>) -> tensor<1x13x13x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x13x13x64xf32>, tensor<1x1x64x64xf32>) outs(%o : tensor<1x13x13x64xf32>) -> tensor<1x13x13x64xf32>
  return %r : tensor<1x13x13x64xf32>
}
func.func @conv14(%i: tensor<1x16x16x32xf32>, %f: tensor<3x3x32x64xf32>, %o: tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x16x16x32xf32>, tensor<3x3x32x64xf32>) outs(%o : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  return %r : tensor<1x14x14x64xf32>
}
func.func @conv56(%i: tensor<1x58x58x16xf32>, %f: tensor<3x3x16x64xf32>, %o: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x58x58x16xf32>, tensor<3x3x16x64xf32>) outs(%o : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}
