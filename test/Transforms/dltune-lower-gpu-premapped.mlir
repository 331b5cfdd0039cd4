// RUN: dltune-opt %s --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s

// Code already mapped to blocks and threads (no dltune.config, no
// --dltune-apply before it) is lowered by the pass alone: the grid comes
// from the block loop, the block size (x = 64, y = 16) from the thread loop.
// CHECK-LABEL: llvm.func @scale
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : index) : i64
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : index) : i64
// CHECK: gpu.launch_func <{{.*}}> @scale_kernel::@scale_kernel blocks in (%[[C4]], %[[ONE]], %[[ONE]]) threads in (%[[C64]], %[[C16]], %[[ONE]])
// CHECK: gpu.binary @scale_kernel
// CHECK-SAME: chip = "sm_90"
// CHECK-SAME: .entry scale_kernel
// The constant is sunk into the kernel before outlining: an immediate
// operand (3.0 = 0f40400000), not a kernel parameter.
// CHECK-SAME: mul.rn.f32 {{[^;]*}}0f40400000;
// CHECK-NOT: bar.sync
func.func @scale(%a: memref<64x64xf32>) {
  %cst = arith.constant 3.0 : f32
  scf.forall (%bi) in (4) {
    scf.forall (%ti, %tj) in (16, 64) {
      %i = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%bi, %ti)
      %v = memref.load %a[%i, %tj] : memref<64x64xf32>
      %w = arith.mulf %v, %cst : f32
      memref.store %w, %a[%i, %tj] : memref<64x64xf32>
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
