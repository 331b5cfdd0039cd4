//===- MultiTaskTuner.h - Tuning a model's tasks under one budget -*- C++ -*-===//
//
// The driver of model-level tuning: it holds every task's search space,
// strategy (with its cost model) and measurer between slots, asks a
// TaskScheduler which task gets the next slot, runs that slot through the
// same tuning loop single-task tuning uses, and tracks the model latency
// (a constant for untuned ops + the sum of weight x best latency). The
// autotune pass and `dltune replay-model` differ only in their measurers.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TASKSCHEDULER_MULTITASKTUNER_H
#define DLTUNE_TUNING_TASKSCHEDULER_MULTITASKTUNER_H

#include "dltune/Tuning/TaskScheduler/TaskScheduler.h"
#include "dltune/Tuning/MeasureCallback/TuningLoop.h"

namespace mlir::dltune {

/// One task of a model and what it keeps between slots.
struct ModelTask {
  TaskState state; // name, kind, weight, flops, untunedMs filled by the caller
  SearchSpace space;
  std::unique_ptr<SearchStrategy> strategy;
  std::unique_ptr<Measurer> measurer;
  TuningHistory history;
  bool initialized = false; // strategy initialised (first slot done)
  /// The configuration the task runs with when it is not tuned (live:
  /// dltune's default, which apply-best falls back to and the task's search
  /// proposes first). When set, the task measures it before the scheduler
  /// decides anything (one measurement of the budget, not a slot) and its
  /// latency becomes state.untunedMs: the model's latency before tuning is
  /// then what the model compiles to untuned, and a task nobody schedules
  /// is charged that, not an unscheduled kernel's time.
  std::optional<Config> untunedConfig;
  /// The strategy's seed; unset: ModelTuningOptions::seed * 1000 + the
  /// task's index.
  std::optional<uint64_t> seed;
};

/// One end-to-end timing of the model.
struct ModelTiming {
  double latencyMs = 0; // the model's latency with the configurations timed
  double seconds = 0;   // what the timing cost (builds included), on the model's clock
};

/// Times the whole model end to end with each task's best configuration so
/// far: the latency a user gets, with what the sum of task latencies leaves
/// out (untuned ops, fusion, caches between ops). Survey tuning stops on it
/// (Trimmer, Section IV-C). Live: the model JIT-compiled and run; replay and
/// tests: a script.
class ModelTimer {
public:
  virtual ~ModelTimer() = default;
  /// An error leaves the driver on the sum of task latencies for the rest
  /// of the run.
  virtual llvm::Expected<ModelTiming> timeModel(llvm::ArrayRef<ModelTask> tasks) = 0;
};

struct ModelTuningOptions {
  int64_t trials = 1000;        // the whole model's measurements
  int64_t trialsPerTask = 0;    // cap per task; 0: none
  double timeBudgetSeconds = 0; // tuning seconds for the model; 0: none
  double latencyGoalMs = 0;     // stop once the model is this fast; 0: none
  int64_t slotTrials = 32;      // measurements per slot
  /// A task is finished after this many measurements without improvement
  /// (DynaTune's "finished" operator, Ansor's per-task early stopping).
  /// 0: never.
  int64_t taskEarlyStop = 0;
  double constantMs = 0;        // ops that are not tuned
  uint64_t seed = 0;            // strategy seeds: seed * 1000 + task index
  /// Candidates proposed (and built in parallel) at once; 0: up to 8.
  size_t batchSize = 0;
  /// Times the model end to end when the scheduler asks (null: never).
  /// While it works, latencyGoalMs is checked against the timed latency
  /// (after each timing), never against the sum.
  ModelTimer *modelTimer = nullptr;
};

struct ModelProgress {
  ModelState model;
  double clockSeconds = 0;     // tuning seconds (sum of the measurers' slots)
  double schedulerSeconds = 0; // wall time spent choosing tasks
  std::string stopReason;      // once finished
  /// The running slot's progress as its tuning loop counts it (this slot's
  /// measurements against the slot's budget).
  TuningProgress slot;
};

/// Hears progress; the library prints nothing.
class ModelTuningObserver {
public:
  virtual ~ModelTuningObserver() = default;
  /// One measurement of `task`, with the model state after it.
  virtual void onMeasurement(size_t task, const Config &config, const MeasureRecord &record,
                             llvm::ArrayRef<ModelTask> tasks, const ModelProgress &progress) {}
  virtual void onSlotStart(size_t task, llvm::ArrayRef<ModelTask> tasks,
                           const ModelProgress &progress) {}
  virtual void onSlotDone(size_t task, llvm::ArrayRef<ModelTask> tasks,
                          const ModelProgress &progress) {}
  /// The model was timed end to end (progress.model.timedModelLatencyMs;
  /// NaN and `error` set when the timing failed).
  virtual void onModelTimed(llvm::ArrayRef<ModelTask> tasks, const ModelProgress &progress,
                            const std::string &error) {}
  virtual void onFinish(llvm::ArrayRef<ModelTask> tasks, const ModelProgress &progress) {}
};

/// constant + sum over tasks of weight x currentMs().
double computeModelLatency(llvm::ArrayRef<TaskState> tasks, double constantMs);

/// Tunes until the model budget (trials or time) is spent, the latency goal
/// is reached, every task is finished or the scheduler stops. Tasks that
/// already hold history (a resumed run) continue where they stopped: their
/// measurements count towards the budget and are never proposed again.
/// Tasks with an untunedConfig not yet measured measure it first, in
/// declaration order.
ModelProgress runModelTuning(std::vector<ModelTask> &tasks, TaskScheduler &scheduler,
                             const ModelTuningOptions &options,
                             ModelTuningObserver *observer = nullptr);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TASKSCHEDULER_MULTITASKTUNER_H
