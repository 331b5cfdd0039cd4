//===- Autotune.cpp - --dltune-autotune, --dltune-apply-best, pipeline ----===//

#include "dltune/Execution/ModuleTuner.h"
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
struct AutotunePass : public dltune::impl::DLTuneAutotuneBase<AutotunePass> {
  using DLTuneAutotuneBase::DLTuneAutotuneBase;
  void runOnOperation() override {
    ModuleTunerOptions o;
    o.target = target;
    o.dbPath = db;
    o.trials = trials;
    o.timeBudgetSeconds = timeBudget;
    o.seed = seed;
    o.strategy = strategy;
    o.costModel = costModel;
    o.planSize = planSize;
    o.jobs = jobs;
    o.buildTimeoutSeconds = buildTimeout;
    o.runTimeoutSeconds = runTimeout;
    o.memoryLimitMB = memLimitMB;
    o.minTimeMs = minTimeMs;
    o.workerPath = worker;
    o.workDir = workDir;
    o.progress = !quiet;
    o.gpuChip = chip;
    if (trials < 1) {
      getOperation().emitError() << "dltune-autotune: trials must be at least 1";
      return signalPassFailure();
    }
    llvm::Expected<std::vector<TaskSummary>> tasks =
        tuneModule(getOperation(), o, llvm::errs());
    if (!tasks) {
      getOperation().emitError() << "dltune-autotune: " << llvm::toString(tasks.takeError());
      return signalPassFailure();
    }
    if (!quiet && !tasks->empty())
      printTaskTable(*tasks, llvm::errs());
  }
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
  Option<std::string> db{*this, "db", llvm::cl::desc("Tuning database"),
                         llvm::cl::init("dltune.db")};
  Option<int64_t> trials{*this, "trials", llvm::cl::desc("Measurements per task"),
                         llvm::cl::init(64)};
  Option<uint64_t> seed{*this, "seed", llvm::cl::desc("Random seed"), llvm::cl::init(0)};
  Option<unsigned> jobs{*this, "jobs", llvm::cl::desc("Parallel builds"), llvm::cl::init(1)};
  Option<int64_t> threads{*this, "threads",
                          llvm::cl::desc("CPU threads per kernel (0: all cores)"),
                          llvm::cl::init(0)};
};
} // namespace

void mlir::dltune::registerDLTuneTuningPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "dltune-pipeline",
      "Annotate, autotune (CPU), apply the best configurations and lower to LLVM",
      [](OpPassManager &pm, const PipelineOptions &opts) {
        DLTuneAnnotateOptions annotate;
        annotate.numThreads = opts.threads;
        pm.addPass(createDLTuneAnnotate(annotate));
        DLTuneAutotuneOptions tune;
        tune.db = opts.db;
        tune.trials = opts.trials;
        tune.seed = opts.seed;
        tune.jobs = opts.jobs;
        pm.addPass(createDLTuneAutotune(tune));
        pm.addPass(createDLTuneApply());
        pm.addPass(createDLTuneStrip());
        pm.addPass(createDLTuneLowerCPU());
      });
}
