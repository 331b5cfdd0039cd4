//===- ModuleTuner.h - Tuning every task of a module ------------*- C++ -*-===//
//
// What --dltune-autotune does, as a library: group annotated ops into tasks,
// resume each task's history from the database, build and measure
// candidates proposed by a search strategy (committing every result as it
// finishes), and attach each task's best configuration to its ops.
// Every run goes through a task scheduler (runModelTuning): the `scheduler`
// option's over one model budget, or, without one, `sequential` over each
// task's own budget in turn. Options are in TunerOptions.h, the table
// printers in TaskSummary.h, progress reaches the caller as TuningEvents.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_MODULETUNER_H
#define DLTUNE_EXECUTION_MODULETUNER_H

#include "dltune/Execution/ProcessMeasurer.h"
#include "dltune/Execution/TaskSummary.h"
#include "dltune/Execution/TunerOptions.h"
#include "dltune/Execution/TuningEvents.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dltune {

/// Indices of the records re-measured at the end of a task: the `top`
/// fastest ok records (cut-off ones excluded), and `reference` (dltune's
/// default config) if it was measured ok, whatever its sampled time.
std::vector<size_t> getConfirmationCandidates(const TuningHistory &history, size_t top,
                                              const std::optional<Config> &reference);

/// Tunes every task of `module` and sets dltune.config on its ops. Nothing
/// is printed: progress, notes and warnings reach `onEvent` (may be empty),
/// and the result is the summaries (printTaskTable shows them). A task whose
/// reference fails gets a TaskFailed event and its summary's `error`, and
/// the others are tuned; only errors that concern every task (database,
/// options) fail the call.
llvm::Expected<std::vector<TaskSummary>> tuneModule(ModuleOp module,
                                                    const ModuleTunerOptions &options,
                                                    const TuningEventCallback &onEvent = {});

/// Attaches the best known configuration from the database to every task
/// of `module` without measuring; returns how many tasks got one. For a
/// task the database has no valid record of, or whose record does not fit
/// its space, each op keeps the configuration it has or gets the generated
/// default configuration (a remark, or a warning for a record that does
/// not fit, says which).
llvm::Expected<int> applyBestFromDatabase(ModuleOp module, const std::string &dbPath,
                                          const std::string &target);

/// The `dltune` executable whose `worker` command builds and measures
/// candidates: $DLTUNE_WORKER if set, else `dltune` next to the running
/// executable, else on PATH; empty if none.
std::string findWorkerExecutable();

/// Who claims configurations in the database (and names a study's worker):
/// `host:pid:random`, the random part so that a reused pid is someone else.
std::string makeOwnerName();

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_MODULETUNER_H
