//===- ModuleTuner.h - Tuning every task of a module ------------*- C++ -*-===//
//
// What --dltune-autotune does, as a library: group annotated ops into tasks,
// resume each task's history from the database, build and measure
// candidates proposed by a search strategy (committing every result as it
// finishes), and attach each task's best configuration to its ops.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_MODULETUNER_H
#define DLTUNE_EXECUTION_MODULETUNER_H

#include "dltune/Execution/ProcessMeasurer.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::dltune {

struct ModuleTunerOptions {
  std::string target = "cpu";
  std::string dbPath = "dltune.db";
  int64_t trials = 64;           // per task, history included
  double timeBudgetSeconds = 0;  // per task; 0: none
  uint64_t seed = 0;
  std::string strategy = "random";
  std::string costModel = "xgb"; // for model-based strategies
  unsigned planSize = 64;
  unsigned jobs = 1;
  double buildTimeoutSeconds = 60, runTimeoutSeconds = 30;
  uint64_t memoryLimitMB = 4096;
  double minTimeMs = 50;
  std::string workerPath; // empty: `dltune` next to this executable, or on PATH
  std::string workDir;    // empty: <db>.work
  bool progress = true;
  /// GPU tasks: the chip to build for; empty: the detected GPU, else sm_90.
  std::string gpuChip;
};

struct TaskSummary {
  std::string hash, description;
  int64_t weight = 0;
  double untunedMs = NAN, bestMs = NAN, flops = 0;
  std::string bestConfig;
  int64_t trials = 0, newTrials = 0, failures = 0;
  double tuningSeconds = 0;
};

/// Tunes every task of `module` and sets dltune.config on its ops. Progress
/// and the final table go to `log`.
llvm::Expected<std::vector<TaskSummary>> tuneModule(ModuleOp module,
                                                    const ModuleTunerOptions &options,
                                                    llvm::raw_ostream &log);

/// Attaches the best known configuration from the database to every task
/// of `module` without measuring; returns how many tasks got one.
llvm::Expected<int> applyBestFromDatabase(ModuleOp module, const std::string &dbPath,
                                          const std::string &target);

void printTaskTable(llvm::ArrayRef<TaskSummary> tasks, llvm::raw_ostream &os);

/// Path of the `dltune` executable next to the running one, else on PATH.
std::string findWorkerExecutable();

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_MODULETUNER_H
