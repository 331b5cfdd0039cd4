// `dltune run --cold` flushes the caches before each timed call (twice the
// last-level cache written): the run still checks and times the kernel, and
// --breakdown times its tasks the same way. CacheFlusherTest checks that the
// flush precedes every timed call and no warm-up call.
// RUN: dltune run %s --entry pw --default-config --threads 1 --cold --check --repeat 3 | FileCheck %s
// RUN: dltune run %s --entry pw --default-config --threads 1 --cold --breakdown --repeat 3 | FileCheck %s --check-prefix=BREAKDOWN
// CHECK: pw (cpu): median {{[0-9.]+}} ms {{.*}}(3 repeats)
// CHECK: check: ok
// BREAKDOWN: task
// BREAKDOWN: linalg.conv_2d_nhwc_hwcf
func.func @pw(%x: tensor<1x14x14x64xf32>, %w: tensor<1x1x64x64xf32>) -> tensor<1x14x14x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x14x14x64xf32>, tensor<1x1x64x64xf32>) outs(%f : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  return %c : tensor<1x14x14x64xf32>
}
