//===- GpuRowReduction.h - Reductions along rows, lanes cooperating -*- C++ -*-===//
//
// A linalg op outside the GPU kernels that
// reduces its innermost loop (softmax's max and sum, layer norm's mean and
// variance) becomes a kernel where the lanes of a warp share each row, and
// `gpu.subgroup_reduce` combines their partial results; left to the
// element-wise mapping, one thread walked a whole row alone. The element-wise
// ops over the same rows around them join the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_GPUROWREDUCTION_H
#define DLTUNE_TRANSFORMS_GPUROWREDUCTION_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dltune {

/// Rewrites each linalg op of `module` outside a GPU kernel (buffer
/// semantics, static loops, one output) whose only reduction loop is its
/// innermost, at least kMinRowLength long, and whose body folds one element
/// into the output with a single arith op that `gpu.subgroup_reduce` knows,
/// into a `gpu.launch`: a row per cluster of L lanes (32, or fewer for
/// shorter rows), each lane folding every L-th element from the
/// reduction's identity, the cluster combining them, its first lane folding
/// the total into the output. A `linalg.fill` of the output before it (the
/// last op to use the buffer) becomes the initial value instead.
///
/// With `fuseRowOps`, the ops around such reductions over the same rows
/// (element-wise ops whose lanes read and write consecutive elements of a
/// row, fills of a value a row) join the kernel as further steps, in
/// program order, where each row depends only on its own earlier steps:
/// softmax or a layer norm is one launch. Other ops are left as they are.
/// Where the rules allow (GpuRowReduction.cpp, chooseVector), each lane
/// takes up to 16 bytes of its row at once: vector loads and stores.
void buildGpuRowReductions(ModuleOp module, bool fuseRowOps);

/// Shortest reduction loop given lanes: shorter rows stay one thread's.
inline constexpr int64_t kMinRowLength = 8;

/// Lowers every `gpu.subgroup_reduce` of `module` to butterfly shuffles of
/// a 32-lane warp (upstream's patterns), which the NVVM lowering knows.
LogicalResult lowerSubgroupReducesToShuffles(ModuleOp module);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_GPUROWREDUCTION_H
