//===- DepthwisePointwiseFusion.h - Depthwise rows in 1x1 convs -*- C++ -*-===//
//
// MobileNet-style blocks run a depthwise conv and then a 1x1 conv on its
// result. Run one after the other, the depthwise conv writes its whole
// output (MobileNet-v2: up to 1.8 MB per block) and the 1x1 conv reads it
// back from wherever the caches left it. Fused, the depthwise conv computes
// one output row at a time inside the 1x1 conv's row loop, and the 1x1 conv
// reads that row while it is in L1.
//
//===----------------------------------------------------------------------===//

#ifndef DLTUNE_TRANSFORMS_DEPTHWISEPOINTWISEFUSION_H
#define DLTUNE_TRANSFORMS_DEPTHWISEPOINTWISEFUSION_H

#include "mlir/IR/Operation.h"

namespace mlir::dltune {

/// Tiles every fusable 1x1 conv group (fill, conv, epilogue) directly in a
/// function body of `scope` by one output row and fuses the depthwise group
/// that produces its input (fill, conv, epilogue) into the row loop. Both
/// convs keep their dltune.config, so `--dltune-apply` schedules the
/// row-sized copies as it would the whole ops. A pair is fused when both
/// convs carry a CPU config (not an upstream `dltune.schedule`) that tiles
/// one output row at a time on one thread, both have a fusable epilogue of
/// their own, the 1x1 conv has stride 1 and more than one output row, and
/// the depthwise result has no other user. Fails only if upstream
/// tile-and-fuse fails on a matched pair.
LogicalResult fuseDepthwiseIntoPointwise(Operation *scope);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_DEPTHWISEPOINTWISEFUSION_H
