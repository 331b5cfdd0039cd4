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

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <optional>
#include <string>

namespace mlir::dltune {

/// The frame of one row kernel. The GPU schedule of the first row reduction
/// of a run (getGpuRowRun) leaves it on the op as a dictionary
/// (DLTuneDialect::kGpuKernelAttrName, as for matmuls and window kernels),
/// read by --dltune-lower-gpu after bufferization; a kernel without one
/// takes getDefault.
struct GpuRowTiles {
  int64_t lanes = 32; // threads sharing a row (a cluster of a warp)
  int64_t rows = 8;   // rows a block: a block has lanes x rows threads
  int64_t vector = 4; // most elements of a row a lane takes at once

  /// The frame the kernel took before it had a space: 32 lanes, or the
  /// longest reduction's row rounded up to a power of two where shorter;
  /// 256 threads a block, fewer for few rows but at least a warp; vectors
  /// of up to 16 bytes of `elemBytes` elements.
  static GpuRowTiles getDefault(int64_t longestReduction, int64_t rows, int64_t elemBytes);
  /// From knob values (names as in the GPU space: lanes, rows, vector;
  /// missing ones keep the struct's defaults).
  static GpuRowTiles fromValues(const std::map<std::string, int64_t> &values);
  DictionaryAttr toAttr(MLIRContext *ctx) const;
  /// nullopt where an entry is not one of the three, or not positive.
  static std::optional<GpuRowTiles> fromAttr(DictionaryAttr attr);
  /// Whether `attr` holds a row kernel's frame (it has "lanes") rather than
  /// a matmul's or a window kernel's tiles.
  static bool isRowTilesAttr(DictionaryAttr attr);
};

/// Why the kernel cannot take `tiles`: lanes a power of two from 2 to 32,
/// rows a power of two, lanes x rows a multiple of a warp up to 1024
/// threads, vector a power of two up to 16. Empty when it can.
std::string whyNotGpuRowTiles(const GpuRowTiles &tiles);

/// Why `op` (on tensors or buffers) is not a row reduction: one output, its
/// innermost loop its only reduction, static loops, the row at least
/// kMinRowLength long, inputs along the row indexed by it innermost (and
/// unit-stride where buffers), elements of at most 32 bits, and a body
/// `out = combine(element, out)` with a combiner gpu.subgroup_reduce has.
/// Empty when it is.
std::string whyNotGpuRowReductionOp(linalg::LinalgOp op);

/// On tensors, before bufferization: the ops a row kernel of the row
/// reduction `op` would hold, as far as tensors tell (the row-local rule
/// needs buffers): the fill of its output, `op`, and the linalg ops after
/// it over the same rows (element-wise ops along the row or of one element
/// a row, fills, row reductions) up to the first op that is none of these
/// and not a tensor.empty, reshape or constant. What a tuning task of the
/// row kernel measures.
SmallVector<Operation *> getGpuRowRun(linalg::LinalgOp op);

/// On tensors: the row reduction before `op` whose run (getGpuRowRun) holds
/// `op`, or null. Only a run's first reduction gets a space: the kernel
/// takes its frame.
linalg::LinalgOp getEarlierRowReductionOfRun(linalg::LinalgOp op);

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
///
/// A kernel's frame is the GpuRowTiles on the first of its reductions that
/// has them (vector the most a step takes), else GpuRowTiles::getDefault.
/// Fails (with an error on the op) for invalid tiles.
LogicalResult buildGpuRowReductions(ModuleOp module, bool fuseRowOps);

/// Shortest reduction loop given lanes: shorter rows stay one thread's.
inline constexpr int64_t kMinRowLength = 8;

/// Lowers every `gpu.subgroup_reduce` of `module` to butterfly shuffles of
/// a 32-lane warp (upstream's patterns), which the NVVM lowering knows.
LogicalResult lowerSubgroupReducesToShuffles(ModuleOp module);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_GPUROWREDUCTION_H
