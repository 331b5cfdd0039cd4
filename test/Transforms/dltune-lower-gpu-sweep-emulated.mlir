// RUN: dltune-gpu-sweep %S/dltune-lower-gpu-sweep.mlir --emulate --count 3 --seed 11 | FileCheck %s

// Sampled SIMT configurations of every default GPU space of
// dltune-lower-gpu-sweep.mlir (three matmuls, one skinny with split_k,
// and a batch matmul; one and two
// stages, interleaved or not; a sum pool, a strided depthwise
// convolution and a global pool as window kernels; a layer norm and an f16
// row sum as row kernels), each built as for the GPU, run by the CPU
// emulation of its kernel on pseudo-random inputs and checked against the
// untuned CPU lowering. No GPU and no ptxas needed.
// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// CHECK-DAG: summary linalg.matmul: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// CHECK-DAG: summary linalg.batch_matmul: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// CHECK-DAG: summary linalg.pooling_nhwc_sum stride 2x2: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// CHECK-DAG: summary linalg.depthwise_conv_2d_nhwc_hwc stride 2x2: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// CHECK-DAG: summary reduction addf: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// CHECK-DAG: summary reduction addf: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// CHECK-DAG: summary reduction addf + divf+subf, fill, mulf+addf, divf+addf+rsqrt+mulf: {{[0-9]+}} valid configs, 3/3 SIMT configurations correct in the CPU emulation
// At least one sampled configuration of the skinny matmul splits K.
// CHECK-DAG: linalg.matmul {{.*}}split_k={{2|4|8|16}}: ok
// CHECK-NOT: WRONG
// CHECK-NOT: FAILED
