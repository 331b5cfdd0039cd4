//===- GpuPadFolding.h - Padded reads instead of padded copies -*- C++ -*-===//
//
// Private to lib/Transforms: on the GPU a `tensor.pad` is a kernel that
// fills a new buffer and another that copies the input into it, for every
// call. Where what reads the padded tensor is element by element (a
// `tensor.extract`, as in the convolution's patch gather, or an input of a
// linalg op, as of a depthwise convolution or a pooling op), the read can
// instead check the bounds and take the padding value outside them; a
// padded constant (weights) is padded once, at compile time.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUPADFOLDING_H
#define DLTUNE_LIB_TRANSFORMS_GPUPADFOLDING_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dltune {

/// Rewrites each read of a `tensor.pad` result (static shapes and
/// amounts, a padding value defined outside the pad) by a `tensor.extract`
/// or as an input of a linalg op (named ops are generalized first) into a
/// read of the pad's source at the index less the low padding (index 0
/// where that is outside the source, so that the load is always valid),
/// and a select of the padding value where the index is outside it. A pad of a constant (through reshapes) with a constant
/// padding value becomes a constant instead. Pads left without uses are
/// erased; other uses (the matmul kernel's operands) keep theirs. Tensor
/// semantics: before bufferization.
LogicalResult foldPadsIntoReads(ModuleOp module);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUPADFOLDING_H
