//===- Version.h - Versions that records carry ------------------*- C++ -*-===//
//
// Every measurement in the database says which dltune, which LLVM and which
// schedule generator produced the code it timed: a record of an older
// generator measured other code, so resume and apply-best say so instead of
// mixing it silently with new measurements.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_VERSION_H
#define DLTUNE_VERSION_H

#include "llvm/Config/llvm-config.h"

#include <string>

namespace mlir::dltune {

inline constexpr const char *kDLTuneVersion = "0.3.0";

/// Bump whenever the transform scripts or the lowering that a configuration
/// turns into change, so that old timings are recognised as such.
/// 3: `threads` sets the OpenMP team size (num_threads) of the kernel.
/// 4: elementwise epilogues are fused into the tiled loops of the op.
/// 5: operands packed into panels (matmul pack_a/pack_b, conv pack_f) with
///    the loop orders that packing needs.
/// 6: constant operands packed at compile time, and task kernels carry
///    their constant weights (CPU), so packing them is no longer timed.
/// 7: generics reading with tensor.extract (gathers) are vectorized with
///    vectorize_nd_extract (their vectorization failed before).
/// 8: splat constant operands are not packed (CPU; their schedule failed
///    where an epilogue was fused); split-K's sum stores epilogues that
///    read C through a view (GPU; they were kernels of their own).
/// 9: GPU: f32 matmul spaces with the TF32 opt-in gain warpgroup MMA (a
///    `wgmma` knob); transposes left as copies that swap the last two
///    dimensions are tiled kernels (they were one thread an element);
///    warp_n 256 with warpgroup MMA.
inline constexpr int kScheduleGeneratorVersion = 9;

/// "dltune 0.3.0; LLVM 22.1.8; schedules 4": stored with every record.
inline std::string getGeneratorString() {
  return std::string("dltune ") + kDLTuneVersion + "; LLVM " + LLVM_VERSION_STRING +
         "; schedules " + std::to_string(kScheduleGeneratorVersion);
}

} // namespace mlir::dltune

#endif // DLTUNE_VERSION_H
