// The register tile of an NHWC convolution steps through the window one tap
// at a time (kh, then kw, then the channels innermost): each channel step
// is one FMA per accumulator, so the accumulators are independent chains.
// With the kw taps unrolled inside the channel loop every accumulator took
// three dependent FMAs per step (latency-bound: ResNet-18's 56x56x64 conv
// ran at 82 GFLOP/s instead of 94, its 7x7x512 convs far lower). The
// channel loop is unrolled by 4 (four copies of the step in its body).
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16" --dltune-apply | FileCheck %s
// RUN: dltune run %s --entry conv7 --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// CHECK-LABEL: func.func @conv7
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK-NEXT: arith.constant 4 : index
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c64 step %c4
// CHECK-COUNT-4: vector.transfer_read {{.*}} : tensor<1x1x8xf32>, vector<1x1x8xf32>
// CHECK-NOT: vector.transfer_read {{.*}} : tensor<1x1x8xf32>, vector<1x1x8xf32>
// CHECK: scf.yield
// JIT: check: ok
func.func @conv7(%i: tensor<1x9x9x64xf32>, %f: tensor<3x3x64x64xf32>, %o: tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x9x9x64xf32>, tensor<3x3x64x64xf32>) outs(%o : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
  return %r : tensor<1x7x7x64xf32>
}
