//===- my-tuner.cpp - Tuning through dltune's C++ API ---------------------===//
//
//   my-tuner INPUT.mlir DB
//
// 1. annotates INPUT with dltune's default search spaces and tunes it with
//    tuneModule (a small budget), showing progress through its own
//    callback instead of dltune's live line;
// 2. on a fresh copy of INPUT, attaches the best configurations from DB
//    without measuring (what a build machine does with a database that a
//    tuning machine filled) and lowers it to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "dltune/DLTune.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static OwningOpRef<ModuleOp> parseAndAnnotate(MLIRContext &ctx, const char *path) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &ctx);
  if (!module)
    return nullptr;
  PassManager pm(&ctx);
  dltune::DLTuneAnnotateOptions annotate;
  annotate.numThreads = 1;
  pm.addPass(dltune::createDLTuneAnnotate(annotate));
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: my-tuner INPUT.mlir DB\n";
    return 2;
  }
  DialectRegistry registry;
  dltune::registerDLTuneDialects(registry);
  MLIRContext ctx(registry);
  // Remarks about ops without a space are not this program's news.
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &d) {
    return success(d.getSeverity() == DiagnosticSeverity::Remark);
  });

  // 1. Tune.
  OwningOpRef<ModuleOp> module = parseAndAnnotate(ctx, argv[1]);
  if (!module)
    return 1;
  dltune::ModuleTunerOptions options;
  options.dbPath = argv[2];
  options.trials = 6;
  options.confirmTop = 2;
  options.workerPath = MY_DLTUNE_WORKER;
  int64_t measured = 0;
  auto onEvent = [&](const dltune::TuningEvent &e) {
    using Kind = dltune::TuningEvent::Kind;
    switch (e.kind) {
    case Kind::TaskStarted:
      llvm::outs() << "my-tuner: start " << e.getLabel() << " (" << e.previousTrials
                   << " earlier measurements)\n";
      break;
    case Kind::Measured:
      ++measured;
      llvm::outs() << "my-tuner: measured " << e.record->config << ": "
                   << dltune::toString(e.record->status) << "\n";
      break;
    case Kind::TaskFinished:
      llvm::outs() << "my-tuner: finished " << e.getLabel() << ", best "
                   << e.summary->bestConfig << "\n";
      break;
    case Kind::Note:
    case Kind::Warning:
    case Kind::TaskFailed:
    case Kind::CostModelFailed:
      llvm::outs() << "my-tuner: " << e.getLabel() << ": " << e.message << "\n";
      break;
    case Kind::CostModelFitted:
    case Kind::CostModelProposed:
      break; // what a model-based strategy did with its model: counts only
    case Kind::ModelTimed:
    case Kind::ModelFinished:
      // Model-level: with a task scheduler (and `entry`, for timings).
      if (!e.message.empty())
        llvm::outs() << "my-tuner: model: " << e.message << "\n";
      break;
    }
  };
  llvm::Expected<std::vector<dltune::TaskSummary>> tasks =
      dltune::tuneModule(*module, options, onEvent);
  if (!tasks) {
    llvm::errs() << "my-tuner: " << llvm::toString(tasks.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "my-tuner: " << tasks->size() << " tasks, " << measured
               << " measurements this run\n";
  dltune::printTaskTable(*tasks, llvm::outs());

  // 2. Apply from the database, without measuring, and lower.
  OwningOpRef<ModuleOp> fresh = parseAndAnnotate(ctx, argv[1]);
  if (!fresh)
    return 1;
  llvm::Expected<int> applied = dltune::applyBestFromDatabase(*fresh, options.dbPath, "cpu");
  if (!applied) {
    llvm::errs() << "my-tuner: " << llvm::toString(applied.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "my-tuner: attached " << *applied << " configurations from the database\n";
  PassManager lower(&ctx);
  lower.addPass(dltune::createDLTuneApply());
  lower.addPass(dltune::createDLTuneStrip());
  lower.addPass(dltune::createDLTuneLowerCPU());
  if (failed(lower.run(*fresh)))
    return 1;
  int64_t llvmFuncs = 0;
  fresh->walk([&](LLVM::LLVMFuncOp) { ++llvmFuncs; });
  llvm::outs() << "my-tuner: lowered to " << llvmFuncs << " llvm.func ops\n";
  return llvmFuncs > 0 ? 0 : 1;
}
