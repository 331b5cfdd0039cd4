//===- DLTune.h - dltune for other compilers, in one header -----*- C++ -*-===//
//
// What a downstream compiler (its own opt tool, its own pass pipelines)
// needs of dltune, in the style of upstream's registerAllDialects and
// registerAllPasses:
//
//   registerDLTuneDialects(registry)  the dltune dialect and all its passes
//                                     need in a context
//   registerAllDLTunePassesAndPipelines()
//                                     every dltune pass and `dltune-pipeline`
//                                     (InitAllPasses.h)
//   tuneModule(module, options, cb)   tune an annotated module from C++;
//                                     progress arrives as TuningEvents
//   applyBestFromDatabase(...)        attach the best known configurations
//                                     from a database without measuring
//
// Link dltune::AutotunePasses (it brings the others); this header is kept
// light (no upstream InitAll* headers) so that including it costs little.
// Tuning runs the candidates in worker processes of the installed `dltune`
// executable: give its path as the `worker` option or in $DLTUNE_WORKER
// (the CMake package names it DLTUNE_EXECUTABLE). docs/downstream.md has the rest.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_DLTUNE_H
#define DLTUNE_DLTUNE_H

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Execution/ModuleTuner.h"
#include "dltune/Execution/ProgressPrinter.h"
#include "dltune/Execution/TuningEvents.h"
#include "dltune/InitAllPasses.h"
#include "dltune/Transforms/AutotunePasses.h"
#include "dltune/Transforms/Passes.h"
#include "dltune/Version.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir::dltune {

/// Everything dltune's passes need in a context, on top of your own
/// dialects: the dltune dialect, the transform-dialect extensions its
/// schedules use, every upstream dialect with its interface implementations
/// (the schedules tile through TilingInterface and the lowering bufferizes,
/// both by external models that only upstream's registerAllDialects
/// attaches), upstream's extensions and the LLVM IR translations of the
/// JIT. Registering does not load: a context pays only for what it uses.
void registerDLTuneDialects(DialectRegistry &registry);

} // namespace mlir::dltune

#endif // DLTUNE_DLTUNE_H
