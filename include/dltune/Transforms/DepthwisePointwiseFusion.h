//===- DepthwisePointwiseFusion.h - Depthwise rows into 1x1 convs -*- C++ -*-===//
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

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::dltune {

/// Tiles every fusable 1x1 conv (with its epilogue) of `func` by one output
/// row and fuses the depthwise conv that produces its input (with that
/// conv's fill and epilogue) into the row loop. Both convs keep their
/// dltune.config, so `--dltune-apply` schedules the row-sized copies as it
/// would the whole ops. A pair is fused when both are annotated CPU convs
/// whose configs tile one output row at a time on one thread, the 1x1 conv
/// has stride 1, and the depthwise result has no other user. Returns the
/// number of pairs fused.
FailureOr<int> fuseDepthwiseIntoPointwise(FunctionOpInterface func);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_DEPTHWISEPOINTWISEFUSION_H
