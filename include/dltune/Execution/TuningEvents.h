//===- TuningEvents.h - What tuneModule tells its caller --------*- C++ -*-===//
//
// tuneModule never writes to the terminal: everything a user might want to
// see (a task starting, each measurement, notes, warnings, a task that could
// not be tuned, what the cost model did) reaches the caller as a TuningEvent
// through one callback. The
// CLI and the pass turn events into the live line (ProgressPrinter); a
// downstream compiler can log them, drive its own UI or ignore them.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_TUNINGEVENTS_H
#define DLTUNE_EXECUTION_TUNINGEVENTS_H

#include "dltune/Tuning/MeasureCallback/TuningLoop.h"

#include <cmath>
#include <functional>
#include <string>

namespace mlir::dltune {

struct TaskSummary;

struct TuningEvent {
  enum class Kind {
    TaskStarted,  // a task's tuning begins (after its history was read)
    Note,         // something the user may want to know ("running the reference")
    Warning,      // something went wrong but tuning goes on
    TaskFailed,   // the task cannot be tuned (message says why); the others go on
    Measured,     // one candidate's result, committed to the database
    TaskFinished, // the task's search (and confirmation) is over
    CostModelFitted,   // the strategy's cost model was fitted on `count` measurements
    CostModelProposed, // `count` candidates of a batch came from the model's plan
    CostModelFailed,   // a fit or prediction failed (message); proposals go random
    /// With a task scheduler: the whole model was timed end to end
    /// (timedModelLatencyMs, the count-th timing; message: why it failed).
    /// Not a task's event: taskName is "model".
    ModelTimed,
    /// With a task scheduler: the model's tuning stopped (message: why).
    ModelFinished,
  };
  Kind kind;
  size_t taskIndex = 0, taskCount = 0; // 0-based index among the module's tasks
  std::string taskName;                // e.g. "linalg.matmul 256x256x256"
  std::string message;                 // Note, Warning, TaskFailed, CostModelFailed
  int64_t count = 0;                   // CostModelFitted, CostModelProposed
  double taskFlops = 0;
  /// Measurements of the task in the database before this run (resumed).
  int64_t previousTrials = 0;
  /// Measured: the configuration and its record; progress of this run.
  const Config *config = nullptr;
  const MeasureRecord *record = nullptr;
  const TuningProgress *progress = nullptr;
  /// Measured, when a task scheduler spends one model budget: the model's
  /// latency now (sum over tasks of ops x best-or-untuned latency) and
  /// untuned, the model's measurements and tuning seconds so far. NaN
  /// otherwise.
  double modelLatencyMs = NAN, untunedModelLatencyMs = NAN;
  int64_t modelTrialsDone = 0, modelTrialsBudget = 0;
  double modelSeconds = 0;
  /// ModelTimed: the model's latency timed end to end; NaN when it failed.
  double timedModelLatencyMs = NAN;
  /// TaskFinished and TaskFailed: the task's summary as tuneModule returns it.
  const TaskSummary *summary = nullptr;

  /// "[i/n] name", how the CLI labels a task.
  std::string getLabel() const {
    return "[" + std::to_string(taskIndex + 1) + "/" + std::to_string(taskCount) + "] " +
           taskName;
  }
};

/// Called on the tuning thread, in order; it must not throw.
using TuningEventCallback = std::function<void(const TuningEvent &)>;

/// How much a model-based strategy used its model, from the events: the
/// "cost model: N fits, M candidates proposed" line.
struct CostModelUse {
  int64_t fits = 0, proposals = 0;
  void count(const TuningEvent &e) {
    if (e.kind == TuningEvent::Kind::CostModelFitted)
      ++fits;
    else if (e.kind == TuningEvent::Kind::CostModelProposed)
      proposals += e.count;
  }
};

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_TUNINGEVENTS_H
