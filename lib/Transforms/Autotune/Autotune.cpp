//===- Autotune.cpp - --dltune-autotune -----------------------------------===//

#include "TunerPassOptions.h"

#include "dltune/Execution/ModuleTuner.h"
#include "dltune/Execution/ProgressPrinter.h"
#include "dltune/Transforms/AutotunePasses.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEAUTOTUNE
#include "dltune/Transforms/AutotunePasses.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {
struct AutotunePass : public dltune::impl::DLTuneAutotuneBase<AutotunePass> {
  AutotunePass() : tunerOptions(makeTunerPassOptions(*this)) {}
  // Options are values of this pass: a copy makes its own; Pass::clone
  // copies their values across.
  AutotunePass(const AutotunePass &other)
      : DLTuneAutotuneBase(other), tunerOptions(makeTunerPassOptions(*this)),
        onEvent(other.onEvent) {}
  AutotunePass(const ModuleTunerOptions &options, TuningEventCallback onEvent)
      : AutotunePass() {
    tunerOptions.setValues(options);
    this->onEvent = std::move(onEvent);
  }

  void runOnOperation() override {
    ModuleTunerOptions o = tunerOptions.getValues();
    if (llvm::Error e = validateTunerOptions(o)) {
      getOperation().emitError() << "dltune-autotune: " << llvm::toString(std::move(e));
      return signalPassFailure();
    }
    // The pass is a user interface of its own (dltune-opt, a downstream
    // opt tool): it shows events on stderr unless `quiet`; programs that
    // want them call tuneModule with their own callback. Cost model
    // failures are warnings on the module either way.
    ProgressPrinter printer(llvm::errs(), o.progress);
    TuningEventCallback show = onEvent ? onEvent : printer.asCallback();
    CostModelUse modelUse;
    ModuleOp module = getOperation();
    auto onPassEvent = [&](const TuningEvent &e) {
      modelUse.count(e);
      if (e.kind == TuningEvent::Kind::CostModelFailed) {
        module.emitWarning() << "dltune-autotune: cost model: " << e.message
                             << " (proposing at random until the next fit)";
        return;
      }
      show(e);
    };
    llvm::Expected<std::vector<TaskSummary>> tasks = tuneModule(module, o, onPassEvent);
    if (!tasks) {
      getOperation().emitError() << "dltune-autotune: " << llvm::toString(tasks.takeError());
      return signalPassFailure();
    }
    if (!onEvent) {
      if (o.progress && !tasks->empty()) {
        printTaskTable(*tasks, llvm::errs());
        printModelSummary(*tasks, llvm::errs());
      }
      if (o.progress && modelUse.fits)
        printModelUse(modelUse.fits, modelUse.proposals, llvm::errs());
    }
    // The work was not done: a script (and the pass manager) must see it.
    // What was measured stays in the database for apply-best.
    int64_t untuned = llvm::count_if(*tasks, [](const TaskSummary &t) { return !t.error.empty(); });
    if (untuned) {
      const TaskSummary &first =
          *llvm::find_if(*tasks, [](const TaskSummary &t) { return !t.error.empty(); });
      getOperation().emitError() << "dltune-autotune: " << untuned << " of " << tasks->size()
                                 << " tasks could not be tuned (" << first.description << ": "
                                 << first.error << ")";
      return signalPassFailure();
    }
  }

  TunerOptionSet tunerOptions;
  TuningEventCallback onEvent; // set by createDLTuneAutotune; clones share it
};
} // namespace

std::unique_ptr<Pass>
mlir::dltune::createDLTuneAutotune(const ModuleTunerOptions &options,
                                   std::function<void(const TuningEvent &)> onEvent) {
  return std::make_unique<AutotunePass>(options, std::move(onEvent));
}
