//===- AutotunePasses.h - dltune tuning passes ------------------*- C++ -*-===//
//
// Kept apart from Passes.h: these passes measure candidates in worker
// processes and so depend on the execution library.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_AUTOTUNEPASSES_H
#define DLTUNE_TRANSFORMS_AUTOTUNEPASSES_H

#include "dltune/Dialect/DLTuneDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <functional>

namespace mlir::dltune {

#define GEN_PASS_DECL
#include "dltune/Transforms/AutotunePasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "dltune/Transforms/AutotunePasses.h.inc"

struct ModuleTunerOptions;
struct TuningEvent;

/// --dltune-autotune with its options set from `options`. Without
/// `onEvent` the pass shows progress and its table on stderr (unless
/// `quiet`); with it, every event goes to `onEvent` and nothing is printed.
std::unique_ptr<Pass>
createDLTuneAutotune(const ModuleTunerOptions &options,
                     std::function<void(const TuningEvent &)> onEvent = {});

/// Registers `dltune-pipeline`: annotate, autotune, apply, strip, lower.
void registerDLTuneTuningPipeline();

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_AUTOTUNEPASSES_H
