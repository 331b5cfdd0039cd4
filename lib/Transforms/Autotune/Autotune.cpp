//===- Autotune.cpp - --dltune-autotune, --dltune-apply-best, pipeline ----===//

#include "dltune/Execution/ModuleTuner.h"
#include "dltune/Execution/ProgressPrinter.h"
#include "dltune/Transforms/AutotunePasses.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEAPPLYBEST
#define GEN_PASS_DEF_DLTUNEAUTOTUNE
#include "dltune/Transforms/AutotunePasses.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {
/// The tuner options as options of a pass or a pipeline (`parent`).
template <typename Parent> TunerOptionSet makeTunerPassOptions(Parent &parent) {
  return TunerOptionSet([&](llvm::StringRef name, llvm::StringRef help, const auto &init) {
    using T = std::decay_t<decltype(init)>;
    using OptionT = std::conditional_t<std::is_base_of_v<Pass, Parent>, Pass::Option<T>,
                                       detail::PassOptions::Option<T>>;
    return std::unique_ptr<llvm::cl::Option>(
        new OptionT(parent, name, llvm::cl::desc(help), llvm::cl::init(init)));
  });
}

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

struct ApplyBestPass : public dltune::impl::DLTuneApplyBestBase<ApplyBestPass> {
  using DLTuneApplyBestBase::DLTuneApplyBestBase;
  void runOnOperation() override {
    llvm::Expected<int> n = applyBestFromDatabase(getOperation(), db, target);
    if (!n) {
      getOperation().emitError() << "dltune-apply-best: " << llvm::toString(n.takeError());
      return signalPassFailure();
    }
  }
};

struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<int64_t> threads{*this, "threads",
                          llvm::cl::desc("CPU threads per kernel (0: all cores)"),
                          llvm::cl::init(0)};
  Option<bool> winograd{*this, "winograd",
                        llvm::cl::desc("CPU: compute 3x3 stride-1 convolutions by "
                                       "Winograd's F(2x2, 3x3) first (--dltune-winograd)"),
                        llvm::cl::init(true)};
  TunerOptionSet tuner = makeTunerPassOptions<detail::PassOptions>(*this);
};
} // namespace

std::unique_ptr<Pass>
mlir::dltune::createDLTuneAutotune(const ModuleTunerOptions &options,
                                   std::function<void(const TuningEvent &)> onEvent) {
  return std::make_unique<AutotunePass>(options, std::move(onEvent));
}

void mlir::dltune::registerDLTuneTuningPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "dltune-pipeline",
      "Annotate, autotune, apply the best configurations and lower (to LLVM for "
      "target=cpu, to NVVM and a host launcher for target=gpu); takes every "
      "--dltune-autotune option and `threads`",
      [](OpPassManager &pm, const PipelineOptions &opts) {
        ModuleTunerOptions tune = opts.tuner.getValues();
        DLTuneAnnotateOptions annotate;
        annotate.numThreads = opts.threads;
        annotate.target = tune.target;
        if (opts.winograd && tune.target != "gpu") {
          DLTuneWinogradOptions winograd;
          winograd.threads = opts.threads;
          pm.addPass(createDLTuneWinograd(winograd));
        }
        pm.addPass(createDLTuneAnnotate(annotate));
        pm.addPass(createDLTuneAutotune(tune));
        pm.addPass(createDLTuneApply());
        pm.addPass(createDLTuneStrip());
        if (tune.target == "gpu")
          pm.addPass(createDLTuneLowerGPU());
        else
          pm.addPass(createDLTuneLowerCPU());
      });
}
