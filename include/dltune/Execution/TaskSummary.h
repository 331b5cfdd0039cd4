//===- TaskSummary.h - What tuning a task came to, as a table ---*- C++ -*-===//
//
// tuneModule returns one TaskSummary per task; the printers below are the
// table and the model line that `dltune tune` and the autotune pass show.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_TASKSUMMARY_H
#define DLTUNE_EXECUTION_TASKSUMMARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace mlir::dltune {

struct TaskSummary {
  std::string hash, description;
  int64_t weight = 0;
  /// untunedMs: the unscheduled lowering (the correctness reference);
  /// defaultMs: dltune's default configuration (what an untuned task
  /// compiles to), NAN when it was not measured.
  double untunedMs = NAN, defaultMs = NAN, bestMs = NAN, flops = 0;
  /// The task runs on a GPU while its unscheduled reference runs on the
  /// CPU: untunedMs is no baseline for it (a GPU task is compared with its
  /// default configuration instead).
  bool referenceOnOtherDevice = false;
  double bestMinMs = NAN, bestMaxMs = NAN; // spread of the confirmed best
  int confirmRounds = 0;                   // 0: the best is not confirmed
  std::string bestConfig;
  std::string error; // why the task could not be tuned; the others go on
  int64_t trials = 0, newTrials = 0, failures = 0;
  double tuningSeconds = 0;
  /// Seconds of tuningSeconds spent on transfer: loading the history,
  /// pretraining (or reusing) the model, and the negative-transfer guard's
  /// refits; NAN when the task was tuned without transfer. The table shows
  /// a column of them when any task has one.
  double transferSeconds = NAN;
};

void printTaskTable(llvm::ArrayRef<TaskSummary> tasks, llvm::raw_ostream &os);

/// The model's latency untuned (unscheduled lowering), with dltune's default
/// configurations (where they were measured) and now (sum over tasks of ops
/// x latency; ops that are not tuned are not counted), and each task's share
/// of this run's measurements.
void printModelSummary(llvm::ArrayRef<TaskSummary> tasks, llvm::raw_ostream &os);

/// The line that says a model-based strategy used its model.
inline void printModelUse(int64_t fits, int64_t proposals, llvm::raw_ostream &os) {
  os << "cost model: " << fits << " fits, " << proposals << " candidates proposed from its plans\n";
}

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_TASKSUMMARY_H
