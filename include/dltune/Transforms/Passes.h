//===- Passes.h - dltune passes ---------------------------------*- C++ -*-===//
#ifndef DLTUNE_TRANSFORMS_PASSES_H
#define DLTUNE_TRANSFORMS_PASSES_H

#include "dltune/Dialect/DLTuneDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class OpPassManager;
}

namespace mlir::dltune {

#define GEN_PASS_DECL
#include "dltune/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dltune/Transforms/Passes.h.inc"

/// Registers the Transform-dialect extensions that generated and upstream
/// schedules use (structured, loop, vector, gpu, bufferization, tune).
void registerScheduleExtensions(DialectRegistry &registry);

/// Adds the passes `--dltune-lower-cpu` runs (bufferize, loops, OpenMP or
/// scf.parallel, LLVM) to a module-level `pm`; with `foldConstantPacks`,
/// packing loops over constants are evaluated at compile time first; with
/// `padInPlace`, producers write into the padded tensors pads make.
void buildCpuLoweringPipeline(OpPassManager &pm, bool openmp, bool foldConstantPacks = true,
                              bool padInPlace = true);

/// Registers the dltune passes and the `dltune-pipeline` /
/// `dltune-default-pipeline` pass pipelines.
void registerDLTunePipelines();

/// Registers everything dltune-opt offers: passes and pipelines.
inline void registerAllDLTunePasses() {
  registerDLTunePasses();
  registerDLTunePipelines();
}

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_PASSES_H
