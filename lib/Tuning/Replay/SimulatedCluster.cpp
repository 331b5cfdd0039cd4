//===- SimulatedCluster.cpp - Several models tuned on one cluster ---------===//

#include "dltune/Tuning/Replay/SimulatedCluster.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace mlir::dltune;

llvm::StringRef mlir::dltune::toString(ClusterModelEnd end) {
  switch (end) {
  case ClusterModelEnd::Tuning:
    return "tuning";
  case ClusterModelEnd::GoalReached:
    return "goal reached";
  case ClusterModelEnd::BudgetSpent:
    return "budget spent";
  case ClusterModelEnd::Exhausted:
    return "nothing left to measure";
  case ClusterModelEnd::Suspended:
    return "suspended";
  }
  return "";
}

SimulatedClusterRun mlir::dltune::simulateCluster(std::vector<ClusterModel> &models,
                                                  const SimulatedClusterOptions &options) {
  SimulatedClusterRun run;
  int workers = std::max(options.workers, 1);
  int64_t defaultInterval = std::max<int64_t>(options.intervalTrials, 1);
  std::vector<int64_t> done(models.size(), 0);
  for (ClusterModel &m : models) {
    ClusterModelResult r;
    r.name = m.name;
    std::vector<TaskState> states;
    for (const ModelTask &t : m.tasks)
      states.push_back(t.state);
    r.latencies.push_back(computeModelLatency(states, m.options.constantMs));
    run.models.push_back(std::move(r));
  }
  auto isActive = [&](size_t i) { return run.models[i].end == ClusterModelEnd::Tuning; };

  while (true) {
    bool any = false;
    double roundSeconds = 0;
    for (size_t i = 0; i < models.size(); ++i) {
      if (!isActive(i))
        continue;
      any = true;
      ClusterModel &m = models[i];
      ClusterModelResult &r = run.models[i];
      // One interval: the model's driver resumes from its tasks' histories
      // and stops at the interval's end (or earlier: goal, budget).
      int64_t interval = m.intervalTrials > 0 ? m.intervalTrials : defaultInterval;
      ModelTuningOptions step = m.options;
      step.trials = std::min(m.options.trials, done[i] + interval);
      ModelProgress p = runModelTuning(m.tasks, *m.scheduler, step);
      int64_t before = done[i];
      int64_t measured = p.model.trialsDone - before;
      done[i] = p.model.trialsDone;
      r.measurements += measured;
      r.busySeconds += p.clockSeconds;
      roundSeconds += p.clockSeconds;
      r.latencies.push_back(p.model.modelLatencyMs);
      if (m.options.latencyGoalMs > 0 && p.model.modelLatencyMs <= m.options.latencyGoalMs)
        r.end = ClusterModelEnd::GoalReached;
      else if (done[i] >= m.options.trials)
        r.end = ClusterModelEnd::BudgetSpent;
      else if (measured < step.trials - before)
        r.end = ClusterModelEnd::Exhausted; // every task finished, or the scheduler stopped
    }
    if (!any)
      break;
    ++run.rounds;
    run.wallSeconds += roundSeconds / workers;
    run.busySeconds += roundSeconds;
    for (size_t i = 0; i < models.size(); ++i)
      if (!isActive(i) && run.models[i].endWallSeconds == 0)
        run.models[i].endWallSeconds = run.wallSeconds;
    if (options.suspend) {
      std::vector<IntervalLatencies> latencies;
      llvm::SmallVector<bool, 8> active;
      for (size_t i = 0; i < models.size(); ++i) {
        latencies.push_back(run.models[i].latencies);
        active.push_back(isActive(i));
      }
      if (std::optional<size_t> s = chooseModelToSuspend(latencies, active, options.suspension)) {
        run.models[*s].end = ClusterModelEnd::Suspended;
        run.models[*s].endWallSeconds = run.wallSeconds;
      }
    }
  }
  for (const ClusterModelResult &r : run.models)
    run.measurements += r.measurements;
  run.energyJoules = run.busySeconds * options.busyWattsPerWorker;
  return run;
}
