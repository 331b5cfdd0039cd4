// The GPU kernels of the device tests, run without a GPU: --emulate-gpu
// builds them as for the GPU and runs them on the CPU (blocks in turn, each
// an OpenMP team of its threads, gpu.barrier as omp.barrier), checked
// against the untuned CPU lowering. The SIMT matmuls of gpu-run-device.mlir
// (one and two stages, interleaved, strided C, a batch, f16 inputs) and the
// models of gpu-model-device.mlir (constants, padded buffers, a convolution
// as a GEMM, element-wise leftovers, an allocated result). They all failed
// with the barriers left out of the emulation.
// RUN: dltune run %S/gpu-run-device.mlir --entry matmul --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %S/gpu-run-device.mlir --entry staged --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %S/gpu-run-device.mlir --entry strided --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %S/gpu-run-device.mlir --entry batch --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %S/gpu-run-device.mlir --entry half --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %S/gpu-run-device.mlir --entry bias_relu --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %S/gpu-model-device.mlir --entry model --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %S/gpu-model-device.mlir --entry model_default --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// The host-code tests' functions too (leftover loops fused into one kernel,
// a fill covering more than the matmul's output, a padded copy, constants).
// RUN: dltune run %S/../Transforms/dltune-lower-gpu-host.mlir --entry matmul --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %S/../Transforms/dltune-lower-gpu-model.mlir --entry model --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"
// CHECK-SAME: "target":"gpu"

// Tensor-core kernels (nvgpu ops) cannot be emulated: a clear error.
// RUN: not dltune run %S/gpu-mma-device.mlir --entry half --target gpu --emulate-gpu 2>&1 | FileCheck %s --check-prefix=MMA
// MMA: 'nvgpu.{{[a-z_.]+}}' has no CPU emulation (warp-level and tensor-core kernels need a GPU)

// RUN: not dltune run %S/gpu-run-device.mlir --entry matmul --emulate-gpu 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: --emulate-gpu needs --target gpu
