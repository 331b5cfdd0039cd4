// A transpose that stays a copy (here: a function's result) and swaps the
// last two dimensions is a kernel moving 32 x 32 tiles through shared
// memory (--dltune-lower-gpu, transpose-kernels, on by default;
// lib/Transforms/GpuTransposeKernel.h): ragged edges (37 x 70), batches
// (3) and 2-byte elements, checked against the CPU lowering by the CPU
// emulation of the kernels, with the kernel and without it.
// RUN: dltune run %s --entry ragged_batches --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry ragged_batches --target gpu --emulate-gpu --gpu-lowering-options "transpose-kernels=false" --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry half --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry two_leading --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// The kernel: blocks of 32 x 8 threads over (70 / 32, 37 / 32, 3) tiles
// rounded up, a 32 x 33 f32 tile in shared memory (4224 bytes), a barrier
// between the coalesced reads and the coalesced writes. Without it the
// copy is the loops of a leftover op: no shared memory, no barrier.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=KERNEL
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa transpose-kernels=false})" 2>/dev/null | FileCheck %s --check-prefix=LOOPS
// KERNEL-LABEL: llvm.func @ragged_batches(
// KERNEL: gpu.launch_func {{.*}}@ragged_batches_kernel::@ragged_batches_kernel
// KERNEL-NOT: gpu.launch_func
// KERNEL: gpu.binary @ragged_batches_kernel
// KERNEL-SAME: .maxntid 32, 8, 1
// KERNEL-SAME: .shared .align 4 .b8 __wg_ragged_batches_kernel_0[4224]
// KERNEL-SAME: bar.sync
// KERNEL-LABEL: llvm.func @half(
// LOOPS: gpu.binary @ragged_batches_kernel
// LOOPS-NOT: bar.sync
// LOOPS: llvm.func @half(

func.func @ragged_batches(%x: tensor<3x37x70xf32>) -> tensor<3x70x37xf32> {
  %e = tensor.empty() : tensor<3x70x37xf32>
  %t = linalg.transpose ins(%x : tensor<3x37x70xf32>) outs(%e : tensor<3x70x37xf32>) permutation = [0, 2, 1]
  return %t : tensor<3x70x37xf32>
}

func.func @half(%x: tensor<64x96xf16>) -> tensor<96x64xf16> {
  %e = tensor.empty() : tensor<96x64xf16>
  %t = linalg.transpose ins(%x : tensor<64x96xf16>) outs(%e : tensor<96x64xf16>) permutation = [1, 0]
  return %t : tensor<96x64xf16>
}

func.func @two_leading(%x: tensor<2x3x40x8xf32>) -> tensor<2x3x8x40xf32> {
  %e = tensor.empty() : tensor<2x3x8x40xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x40x8xf32>) outs(%e : tensor<2x3x8x40xf32>) permutation = [0, 1, 3, 2]
  return %t : tensor<2x3x8x40xf32>
}

// 65536 leading points are more blocks than a grid's z takes: the loops.
// KERNEL-LABEL: gpu.binary @many_batches_kernel
// KERNEL-SAME: .maxntid 256, 1, 1
// KERNEL-NOT: bar.sync
func.func @many_batches(%x: tensor<65536x2x4xf32>) -> tensor<65536x4x2xf32> {
  %e = tensor.empty() : tensor<65536x4x2xf32>
  %t = linalg.transpose ins(%x : tensor<65536x2x4xf32>) outs(%e : tensor<65536x4x2xf32>) permutation = [0, 2, 1]
  return %t : tensor<65536x4x2xf32>
}
