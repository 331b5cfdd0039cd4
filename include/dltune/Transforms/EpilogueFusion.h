//===- EpilogueFusion.h - Elementwise epilogues of tuned ops ----*- C++ -*-===//
//
// A conv or matmul is usually followed by elementwise work on its result
// (bias add, ReLU, residual add). Run as separate ops, each is another pass
// over memory; fused into the tiled loops of the op it follows, it runs on
// the tile while it is in cache. The op and its epilogue then form one
// tuning task with one config (the op's), applied and measured together.
//
//===----------------------------------------------------------------------===//

#ifndef DLTUNE_TRANSFORMS_EPILOGUEFUSION_H
#define DLTUNE_TRANSFORMS_EPILOGUEFUSION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::dltune {

/// Whether `op` carries anything of dltune's (a space, a config, a target,
/// a schedule): a rewrite that replaces it would drop what the user wrote.
bool hasDLTuneAttrs(Operation *op);

/// An all-parallel linalg.generic with one init written through the
/// identity map and inputs read through projected permutations.
bool isElementwiseGeneric(linalg::LinalgOp op);

/// The elementwise consumer that is fused into `root`'s loops: the only
/// user of `root`'s only result, reading it (as an input, not as its init)
/// through the identity map, with loops that are `root`'s output
/// dimensions, not annotated itself, in the same block. Null when `root`
/// is elementwise itself or is not on the CPU.
linalg::GenericOp getFusableEpilogue(linalg::LinalgOp root);

/// The op `epilogue` would be fused into, or null.
linalg::LinalgOp getEpilogueRoot(linalg::GenericOp epilogue);

/// The linalg.fill that initialises `root`'s output and has no other user,
/// fused along with it; null if there is none.
linalg::FillOp getFusableFill(linalg::LinalgOp root);

/// The ops of `root`'s task in program order: its fill, itself, its
/// epilogue (those that exist).
SmallVector<Operation *> getFusionGroup(linalg::LinalgOp root);

/// For each loop of `epilogue`, the loop of `root` it iterates.
SmallVector<int64_t> getEpilogueLoopsInRoot(linalg::LinalgOp root,
                                            linalg::GenericOp epilogue);

/// Prepares a module for epilogue fusion: merges chains of elementwise
/// generics into one (upstream elementwise fusion, restricted to
/// elementwise producers with one use) and folds a reshape between an op
/// and its elementwise consumer into the consumer (so a matmul's bias add
/// on the 3-D view of its result reads the 2-D result directly).
LogicalResult mergeElementwiseChains(Operation *scope);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_EPILOGUEFUSION_H
