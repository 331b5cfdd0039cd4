//===- MultiTaskTuner.cpp - Tuning a model's tasks under one budget -------===//

#include "dltune/Tuning/TaskScheduler/MultiTaskTuner.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>

using namespace mlir::dltune;

double mlir::dltune::computeModelLatency(llvm::ArrayRef<TaskState> tasks, double constantMs) {
  double total = constantMs;
  for (const TaskState &t : tasks)
    total += t.weight * t.currentMs();
  return total;
}

namespace {
std::vector<TaskState> statesOf(llvm::ArrayRef<ModelTask> tasks) {
  std::vector<TaskState> states;
  states.reserve(tasks.size());
  for (const ModelTask &t : tasks)
    states.push_back(t.state);
  return states;
}

/// Adds one measurement to a task's state.
void recordMeasurement(TaskState &s, const MeasureRecord &r) {
  ++s.trials;
  ++s.trialsSinceImprovement;
  if (r.isOk() && std::isfinite(r.timeMs))
    s.validMs.push_back(r.timeMs);
  if (r.isOk() && r.timeMs < s.bestMs) {
    s.bestMs = r.timeMs;
    s.trialsSinceImprovement = 0;
  }
  s.bestTrace.push_back(std::isfinite(s.bestMs) ? s.bestMs : s.untunedMs);
}

/// Keeps task state, model latency and clock current during a slot and
/// passes each result on to the observer.
class SlotRecorder : public MeasureCallback {
public:
  SlotRecorder(std::vector<ModelTask> &tasks, size_t task, ModelProgress &progress,
               const ModelTuningOptions &options, double clockBefore,
               ModelTuningObserver *observer)
      : tasks(tasks), task(task), progress(progress), options(options),
        clockBase(progress.clockSeconds), clockBefore(clockBefore), observer(observer) {}

  void onResult(const Config &config, const MeasureRecord &r, const TuningProgress &slot) override {
    ModelTask &t = tasks[task];
    progress.slot = slot;
    recordMeasurement(t.state, r);
    ++progress.model.trialsDone;
    progress.clockSeconds = clockBase + (t.measurer->getClockSeconds() - clockBefore);
    // O(tasks) per measurement; cheap next to any measurement.
    double latency = options.constantMs;
    for (const ModelTask &other : tasks)
      latency += other.state.weight * other.state.currentMs();
    progress.model.modelLatencyMs = latency;
    if (observer)
      observer->onMeasurement(task, config, r, tasks, progress);
  }

  /// Another worker's result counts for the task and the model budget
  /// like this run's own, without being reported as measured here.
  void onOthersResult(const Config &, const MeasureRecord &r) override {
    recordMeasurement(tasks[task].state, r);
    ++progress.model.trialsDone;
  }

private:
  std::vector<ModelTask> &tasks;
  size_t task;
  ModelProgress &progress;
  const ModelTuningOptions &options;
  double clockBase, clockBefore;
  ModelTuningObserver *observer;
};

/// The record of the task's untuned configuration, if it was measured.
const MeasureRecord *untunedRecord(const ModelTask &t) {
  return t.untunedConfig ? t.history.find(*t.untunedConfig) : nullptr;
}
} // namespace

ModelProgress mlir::dltune::runModelTuning(std::vector<ModelTask> &tasks,
                                           TaskScheduler &scheduler,
                                           const ModelTuningOptions &options,
                                           ModelTuningObserver *observer) {
  ModelProgress progress;
  ModelState &model = progress.model;
  model.trialsBudget = options.trials;
  model.slotTrials = std::max<int64_t>(1, options.slotTrials);
  model.canTimeModel = options.modelTimer != nullptr;

  // A resumed run: rebuild each task's state from the history it holds.
  for (ModelTask &t : tasks) {
    TaskState &s = t.state;
    s.bestMs = INFINITY;
    s.bestTrace.clear();
    s.validMs.clear();
    s.trials = s.trialsSinceImprovement = 0;
    for (const MeasureRecord &r : t.history.records)
      recordMeasurement(s, r);
    // The earlier run's measurements count as one slot, unless all it
    // measured was the untuned configuration (not a slot, below).
    int64_t notInSlots = untunedRecord(t) ? 1 : 0;
    if (s.trials > notInSlots && s.slots == 0) {
      s.slots = 1;
      s.slotBest.assign(1, s.bestTrace.back());
    }
    model.trialsDone += s.trials;
  }

  auto finish = [&](std::string reason) {
    progress.stopReason = std::move(reason);
    if (observer)
      observer->onFinish(tasks, progress);
    return progress;
  };

  // Runs `n` measurements of task `i` through its strategy; `asSlot`: the
  // scheduler gave them (the task's slot, its seconds in its cost per
  // slot, the observer's slot events), else the untuned configuration's.
  auto runSlot = [&](size_t i, int64_t n, bool asSlot) {
    ModelTask &t = tasks[i];
    if (observer && asSlot)
      observer->onSlotStart(i, tasks, progress);
    TuningOptions slot;
    slot.trials = static_cast<int64_t>(t.history.records.size()) + n;
    slot.batchSize = options.batchSize > 0 ? options.batchSize
                                           : static_cast<size_t>(std::min<int64_t>(n, 8));
    slot.seed = t.seed ? *t.seed : options.seed * 1000 + i;
    slot.initializeStrategy = !t.initialized;
    if (options.timeBudgetSeconds > 0)
      slot.timeBudgetSeconds = options.timeBudgetSeconds - progress.clockSeconds;
    double clockBase = progress.clockSeconds;
    double clockBefore = t.measurer->getClockSeconds();
    SlotRecorder recorder(tasks, i, progress, options, clockBefore, observer);
    MeasureCallback *callbacks[] = {&recorder};
    TuningProgress done =
        runTuningLoop(t.space, *t.strategy, *t.measurer, t.history, callbacks, slot);
    t.initialized = true;
    double spent = t.measurer->getClockSeconds() - clockBefore;
    progress.clockSeconds = clockBase + spent;
    if (asSlot) {
      t.state.seconds += spent;
      ++t.state.slots;
      t.state.slotBest.push_back(t.state.bestTrace.empty() ? t.state.untunedMs
                                                           : t.state.bestTrace.back());
      ++model.slotsDone;
    }
    // Fewer measurements than asked with time left: the space is exhausted.
    bool outOfTime = options.timeBudgetSeconds > 0 &&
                     progress.clockSeconds >= options.timeBudgetSeconds;
    if (done.trialsDone + done.othersResults < n && !outOfTime)
      t.state.finished = true;
    if (observer && asSlot)
      observer->onSlotDone(i, tasks, progress);
  };

  // A measurer that cannot go on (a full disk, a database that cannot
  // record) ends the run; the caller reports why.
  auto measuringStopped = [&] {
    for (const ModelTask &t : tasks)
      if (!t.measurer->getStopReason().empty())
        return true;
    return false;
  };

  // One end-to-end timing, charged to the model's clock. A timer that
  // fails (or answers nonsense) is not asked again: the run goes on with
  // the sum of task latencies.
  auto timeModelNow = [&] {
    ++model.modelTimings;
    std::string error;
    llvm::Expected<ModelTiming> timing = options.modelTimer->timeModel(tasks);
    if (timing && !(std::isfinite(timing->latencyMs) && timing->latencyMs > 0 &&
                    std::isfinite(timing->seconds) && timing->seconds >= 0))
      error = llvm::formatv("the model timing gave {0} ms in {1} s", timing->latencyMs,
                            timing->seconds)
                  .str();
    else if (!timing)
      error = llvm::toString(timing.takeError());
    if (error.empty()) {
      model.timedModelLatencyMs = timing->latencyMs;
      model.modelTimingSeconds += timing->seconds;
      progress.clockSeconds += timing->seconds;
    } else {
      model.timedModelLatencyMs = NAN;
      model.canTimeModel = false;
    }
    if (observer)
      observer->onModelTimed(tasks, progress, error);
  };
  // With a timer the goal is the timed latency's: the sum leaves out
  // untuned ops and is no stand-in for it, not even before the first timing.
  auto goalReached = [&]() -> const char * {
    if (options.latencyGoalMs <= 0)
      return nullptr;
    if (model.canTimeModel)
      return model.timedModelLatencyMs <= options.latencyGoalMs
                 ? "latency goal reached (timed end to end)"
                 : nullptr;
    return model.modelLatencyMs <= options.latencyGoalMs ? "latency goal reached" : nullptr;
  };

  auto computeUntunedLatency = [&] {
    std::vector<TaskState> untuned = statesOf(tasks);
    for (TaskState &s : untuned)
      s.bestMs = INFINITY;
    return computeModelLatency(untuned, options.constantMs);
  };
  model.untunedModelLatencyMs = computeUntunedLatency();

  // Each task's untuned configuration before any slot: its latency is what
  // the scheduler weighs the task by and what the model starts from.
  for (size_t i = 0; i < tasks.size(); ++i) {
    ModelTask &t = tasks[i];
    if (!t.untunedConfig || t.history.measured.count(*t.untunedConfig) || t.state.finished ||
        (options.trialsPerTask > 0 && t.state.trials >= options.trialsPerTask))
      continue;
    if (measuringStopped() || model.trialsDone >= options.trials ||
        (options.timeBudgetSeconds > 0 && progress.clockSeconds >= options.timeBudgetSeconds) ||
        (options.latencyGoalMs > 0 && !model.canTimeModel &&
         computeModelLatency(statesOf(tasks), options.constantMs) <= options.latencyGoalMs))
      break;
    runSlot(i, 1, /*asSlot=*/false);
  }
  for (ModelTask &t : tasks)
    if (const MeasureRecord *r = untunedRecord(t); r && r->isOk() && std::isfinite(r->timeMs))
      t.state.untunedMs = r->timeMs;
  model.untunedModelLatencyMs = computeUntunedLatency();

  bool timedSinceSlot = false;
  while (true) {
    // What other workers sharing the database measured of any task since
    // the last look: it spends the model budget and informs the scheduler
    // now, not when the scheduler next picks that task.
    for (ModelTask &t : tasks)
      for (auto &[config, record] : t.measurer->collectOthersResults(t.history)) {
        recordMeasurement(t.state, record);
        ++model.trialsDone;
        t.history.add(std::move(config), std::move(record));
      }
    std::vector<TaskState> states = statesOf(tasks);
    model.modelLatencyMs = computeModelLatency(states, options.constantMs);
    if (measuringStopped())
      return finish("measuring stopped");
    if (model.trialsDone >= options.trials)
      return finish("trial budget spent");
    if (options.timeBudgetSeconds > 0 && progress.clockSeconds >= options.timeBudgetSeconds)
      return finish("time budget spent");
    if (const char *goal = goalReached())
      return finish(goal);
    bool anyAlive = false;
    for (size_t i = 0; i < tasks.size(); ++i) {
      TaskState &s = tasks[i].state;
      if ((options.trialsPerTask > 0 && s.trials >= options.trialsPerTask) ||
          (options.taskEarlyStop > 0 && s.trialsSinceImprovement >= options.taskEarlyStop))
        s.finished = true;
      states[i].finished = s.finished;
      anyAlive |= !s.finished;
    }
    if (!anyAlive)
      return finish("every task finished");

    auto start = std::chrono::steady_clock::now();
    std::optional<SlotRequest> request = scheduler.next(states, model);
    progress.schedulerSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!request) {
      std::string why = scheduler.getStopReason();
      return finish(why.empty() ? "scheduler stopped" : "scheduler stopped: " + why);
    }
    if (request->timeModel) {
      // Twice without a slot between would time the same configurations.
      if (!model.canTimeModel || timedSinceSlot)
        return finish("scheduler asked for a model timing it cannot use");
      timeModelNow();
      timedSinceSlot = true;
      continue;
    }
    timedSinceSlot = false;
    if (request->task >= tasks.size() || tasks[request->task].state.finished)
      return finish("scheduler chose a finished task");

    size_t i = request->task;
    ModelTask &t = tasks[i];
    int64_t n = model.slotTrials;
    if (request->maxTrials > 0)
      n = std::min(n, request->maxTrials);
    n = std::min(n, options.trials - model.trialsDone);
    if (options.trialsPerTask > 0)
      n = std::min(n, options.trialsPerTask - t.state.trials);
    runSlot(i, n, /*asSlot=*/true);
    scheduler.onSlotDone(i, statesOf(tasks));
  }
}
