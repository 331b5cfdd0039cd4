//===- GpuRowReduction.h - Reductions along rows, lanes cooperating -*- C++ -*-===//
//
// Private to lib/Transforms: a linalg op outside the GPU kernels that
// reduces its innermost loop (softmax's max and sum, layer norm's mean and
// variance) becomes a kernel where the lanes of a warp share each row, and
// `gpu.subgroup_reduce` combines their partial results; left to the
// element-wise mapping, one thread walked a whole row alone.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUROWREDUCTION_H
#define DLTUNE_LIB_TRANSFORMS_GPUROWREDUCTION_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dltune {

/// Rewrites each linalg op of `module` outside a GPU kernel (buffer
/// semantics, static loops, one output) whose only reduction loop is its
/// innermost, at least kMinRowLength long, and whose body folds one element
/// into the output with a single arith op that `gpu.subgroup_reduce` knows,
/// into a `gpu.launch`: a row per cluster of L lanes (32, or fewer for
/// shorter rows), each lane folding every L-th element from the
/// reduction's identity, the cluster
/// combining them, its first lane folding the total into the output. A
/// `linalg.fill` of the output right before it becomes the initial value
/// instead of a kernel of its own. Other ops are left as they are.
void buildGpuRowReductions(ModuleOp module);

/// Shortest reduction loop given lanes: shorter rows stay one thread's.
inline constexpr int64_t kMinRowLength = 8;

/// Lowers every `gpu.subgroup_reduce` of `module` to butterfly shuffles of
/// a 32-lane warp (upstream's patterns), which the NVVM lowering knows.
LogicalResult lowerSubgroupReducesToShuffles(ModuleOp module);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUROWREDUCTION_H
