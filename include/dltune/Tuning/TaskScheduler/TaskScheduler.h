//===- TaskScheduler.h - Which task of a model gets the next slot -*- C++ -*-===//
//
// A model has many tuning tasks (operators) with very different payoffs. A
// task scheduler spends the model's measurement budget a slot (a batch of
// measurements) at a time: before each slot it sees every task's weight,
// FLOPs, untuned and best-so-far latency and history, and picks the task
// that gets the slot. Tasks keep their search strategy and cost model
// between slots (rested arms); that is the driver's job (MultiTaskTuner.h).
// One implementation per file, created by name (createTaskScheduler).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TASKSCHEDULER_TASKSCHEDULER_H
#define DLTUNE_TUNING_TASKSCHEDULER_TASKSCHEDULER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::dltune {

/// What a scheduler knows of one task. Filled by the driver.
struct TaskState {
  std::string name;
  /// Operator kind ("matmul", "conv2d", a kernel name): with the FLOPs, it
  /// decides which tasks are similar (similarityTag).
  std::string kind;
  double weight = 1;    // occurrences in the model
  double flops = 0;     // per occurrence; 0: unknown
  double untunedMs = 0; // latency before tuning
  double bestMs = INFINITY; // best valid measurement so far
  /// Best-so-far latency after each measurement (untunedMs until the first
  /// valid one), one entry per measurement of this task.
  std::vector<double> bestTrace;
  /// Best-so-far latency at the end of each slot, one entry per slot.
  std::vector<double> slotBest;
  /// Latency of every valid measurement, in measurement order: how widely
  /// the task's configurations spread (dynatune's gap estimate).
  std::vector<double> validMs;
  int64_t trials = 0;   // measurements of this task
  int64_t slots = 0;    // slots given to this task
  int64_t trialsSinceImprovement = 0;
  double seconds = 0;   // tuning seconds of this task's slots (clock of its measurer)
  /// No more slots: space exhausted, early-stopped or at its trial cap.
  bool finished = false;

  /// The latency the model runs with now: the better of untuned and best.
  double currentMs() const { return std::min(untunedMs, bestMs); }
  /// Seconds per slot so far; 0 before the first slot.
  double secondsPerSlot() const { return slots ? seconds / slots : 0; }
};

/// Model-level state before a slot.
struct ModelState {
  int64_t trialsDone = 0;
  int64_t trialsBudget = 0;  // the model's total
  int64_t slotsDone = 0;
  int64_t slotTrials = 0;    // measurements per slot
  double modelLatencyMs = 0; // constant + sum of weight x currentMs
  double untunedModelLatencyMs = 0;
  /// The driver can time the whole model end to end (a ModelTimer): a
  /// scheduler may ask for it (SlotRequest::timeModel).
  bool canTimeModel = false;
  /// The latest end-to-end timing of the model with every task's best
  /// configuration so far (ms); NaN before the first, after a failed one
  /// and without a timer.
  double timedModelLatencyMs = NAN;
  int64_t modelTimings = 0;       // end-to-end timings so far (failed ones too)
  double modelTimingSeconds = 0;  // seconds they took (in the model's clock)
};

/// The scheduler's answer: which task, and at most how many measurements
/// (the driver also caps by the budget left and the per-task cap).
struct SlotRequest {
  size_t task = 0;
  int64_t maxTrials = 0; // 0: a full slot
  /// No slot: time the model end to end first (only when
  /// ModelState::canTimeModel), then ask again. `task` is ignored.
  bool timeModel = false;
};

struct SchedulerOptions {
  uint64_t seed = 0;
  /// sequential: a task gives up its leftover budget after this many
  /// measurements without improvement (AutoTVM's early_stopping). 0: never.
  int64_t earlyStop = 200;
  // gradient, gradient-ms (Ansor, MetaSchedule defaults).
  double alpha = 0.2;
  double beta = 2;
  int backwardWindow = 3;
  // dynatune.
  double ucbC = 2;
  int walkers = 10;
  int mcmcSteps = 500;
  int posteriorSamples = 200;
  /// The changes to the paper (docs/task-schedulers.md); each can be
  /// turned off to get the paper's scheduler back.
  bool normalizeReward = true;   // reward in percent of the model latency
  /// Reward per second of tuning. Off: with the gap reward it needed more
  /// measurements on every replay model and no less simulated time on most
  /// (docs/task-schedulers.md). Its cost is seconds per slot, so a task
  /// after a probe (probeShare < 1) looks cheaper than it is.
  bool costAware = false;
  bool similarityPrior = true;   // curves of similar tasks as priors
  bool saturatingCurves = true;  // curve shape c <= -1
  /// The reward from the task's measured spread (its remaining-gap estimate)
  /// instead of its learning curve; with it the curve options do nothing.
  bool gapReward = true;
  /// A task's upper confidence bound is clipped at its share of the model
  /// latency, and an untried task comes first only while no tried task's
  /// expected reward exceeds its share (else it is worth its share).
  /// Needs normalizeReward (the share is in the reward's unit). Off: it
  /// helps on replay models with negligible tasks but starves the small
  /// tasks of the live encoder, whose shares stay below the large tasks'
  /// expected rewards (docs/task-schedulers.md, change 6).
  bool shareCap = false;
  /// An untried task's first slot is this share of a slot (at least what
  /// leaves it tried, 3 measurements): enough for its spread to be estimated, and no full slot
  /// spent on a task that may have nothing to give. 1: a full slot (the
  /// paper's). Replay, 20 seeds: fewer measurements to 5% on 10 of 11
  /// models than with full first slots (docs/task-schedulers.md, change 7).
  double probeShare = 0.5;
  /// survey (Trimmer): the stop threshold phi of Eq. 2, and whether to use
  /// the equation as printed (a sum) instead of the difference it means
  /// (SurveyRule.h).
  double surveyPhi = -0.25;
  bool surveyPrintedRule = false;
};

class TaskScheduler {
public:
  virtual ~TaskScheduler() = default;
  virtual llvm::StringRef getName() const = 0;
  /// The task that gets the next slot, or nullopt to stop tuning. Only
  /// unfinished tasks may be returned.
  virtual std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks,
                                          const ModelState &model) = 0;
  /// Told after every slot, with the states already updated.
  virtual void onSlotDone(size_t task, llvm::ArrayRef<TaskState> tasks) {}
  /// Once next() returned nullopt: why, in a few words (empty: no more to
  /// say than that the scheduler stopped).
  virtual std::string getStopReason() const { return ""; }
};

/// The scheduler names createTaskScheduler knows.
llvm::ArrayRef<llvm::StringRef> getTaskSchedulerNames();

/// "sequential", "round-robin", "random", "flops", "gradient" (Ansor),
/// "gradient-ms" (MetaSchedule), "dynatune". Errors: an unknown name (the
/// message lists the known ones) or out-of-range options.
llvm::Expected<std::unique_ptr<TaskScheduler>>
createTaskScheduler(llvm::StringRef name, const SchedulerOptions &options = {});

/// Ansor's similarity tag (derive_similarity_tag): the kind and the FLOP
/// class int(log(flops + 1) / log(1.618)); empty when flops are unknown
/// (such a task is similar to no other).
std::string similarityTag(const TaskState &task);

/// Indices of the tasks that are not finished.
std::vector<size_t> aliveTasks(llvm::ArrayRef<TaskState> tasks);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TASKSCHEDULER_TASKSCHEDULER_H
