// With a packed operand, threads split only the plan's parallel loop: a
// 7-row conv (rows do not divide among 2 threads, so the filters are split)
// must not also spread its rows over the forall, or every row's iteration
// copies the filter block again (2-thread ResNet-18 7x7x512 convs were 3-4x
// slower than one thread).
// RUN: dltune-opt %s --dltune-annotate="threads=2 default-config=true" --dltune-apply | FileCheck %s
// RUN: dltune run %s --entry conv7 --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// CHECK-LABEL: func.func @conv7
// CHECK: scf.forall (%{{[a-z0-9]+}}) in (2)
// JIT: check: ok
func.func @conv7(%i: tensor<1x9x9x64xf32>, %f: tensor<3x3x64x64xf32>, %o: tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x9x9x64xf32>, tensor<3x3x64x64xf32>) outs(%o : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
  return %r : tensor<1x7x7x64xf32>
}
