// RUN: dltune-opt %s --split-input-file --verify-diagnostics --dltune-lower-gpu="emulate=true"

// The emulation runs a subgroup reduction through a buffer the block's
// threads share, between two barriers: every thread of the block must
// reach it, so one under a condition is refused, not run wrong.
func.func @divergent_subgroup_reduce(%out: memref<32xf32>, %x: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      // expected-error @+1 {{only scalar, contiguous subgroup reductions at a kernel's top level are emulated}}
      %sum = gpu.subgroup_reduce add %x : (f32) -> f32
      memref.store %sum, %out[%tx] : memref<32xf32>
    }
    gpu.terminator
  }
  return
}
