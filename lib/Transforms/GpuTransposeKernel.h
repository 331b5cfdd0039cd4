//===- GpuTransposeKernel.h - Tiled transposes of the last two dims -*- C++ -*-===//
//
// Private to lib/Transforms: a `linalg.transpose` on buffers that swaps the
// last two dimensions (any leading ones kept in order, as batches) becomes
// one gpu.launch whose blocks move 32 x 32 tiles through shared memory:
// each warp reads 32 consecutive elements of an input row and writes 32
// consecutive elements of an output row, where the loops of a leftover op
// would read (or write) one element per 32-byte sector. The tile's rows are
// padded by one element, so that a warp reading a column of it hits 32
// distinct banks. Ragged edges are guarded; every thread reaches the
// barrier.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUTRANSPOSEKERNEL_H
#define DLTUNE_LIB_TRANSFORMS_GPUTRANSPOSEKERNEL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::dltune {

/// Why `op` cannot become the tiled transpose kernel: it must be on
/// buffers of static shapes with rank 2 or more, swap the last two
/// dimensions and keep the others in order, have elements of 1 to 8 bytes,
/// and at most 65535 row tiles and leading points (the grid's y and z).
/// Empty when it can.
std::string whyNotGpuTransposeKernel(linalg::TransposeOp op);

/// Replaces `op` (which passes whyNotGpuTransposeKernel) by its kernel.
void buildGpuTransposeKernel(RewriterBase &rewriter, linalg::TransposeOp op);

/// Builds the kernel of every such transpose outside GPU kernels in
/// `module`; returns how many.
int64_t buildGpuTransposeKernels(ModuleOp module);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUTRANSPOSEKERNEL_H
