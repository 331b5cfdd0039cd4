//===- SimulatedCluster.h - Several models tuned on one cluster -*- C++ -*-===//
//
// Trimmer's cluster setting (issues 33 and 34, docs/trimmer.md): several
// models share W workers. Models are tuned in synchronised rounds: in each
// round every active model runs one interval (`intervalTrials`
// measurements through its own task scheduler); then, with suspension on,
// ModelSuspension.h may suspend one model, whose workers go to the others.
// A model ends when it reaches its latency goal, spends its budget or has
// nothing left to measure.
//
// Time is simulated from the measurers' clocks (replay: the recorded
// compile and benchmark seconds). The workers form one work-conserving
// pool: a round takes the sum of its measurement seconds over W, as if the
// workers split each round's measurements evenly (the single-task
// simulation, SimulatedWorkers.h, shows the near-linear scaling this
// assumes for batches of a task's candidates). Both policies use the same
// pool, so what suspension changes is only which measurements are made.
// Energy is modelled: `busyWattsPerWorker` per busy worker, idle power not
// charged (as `dltune db cost` does).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_REPLAY_SIMULATEDCLUSTER_H
#define DLTUNE_TUNING_REPLAY_SIMULATEDCLUSTER_H

#include "dltune/Tuning/TaskScheduler/ModelSuspension.h"
#include "dltune/Tuning/TaskScheduler/MultiTaskTuner.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::dltune {

/// One model of the cluster: its tasks, its scheduler over them and its
/// options (trials: the model's whole budget; latencyGoalMs: its goal, 0:
/// none; slotTrials, constantMs, seed as for runModelTuning).
struct ClusterModel {
  std::string name;
  std::vector<ModelTask> tasks;
  std::unique_ptr<TaskScheduler> scheduler;
  ModelTuningOptions options;
  /// Its measurements between synchronisations (0: the cluster's
  /// intervalTrials); Trimmer's epoch is a slot per task.
  int64_t intervalTrials = 0;
};

struct SimulatedClusterOptions {
  int workers = 4;
  int64_t intervalTrials = 64; // a model's measurements between synchronisations, unless it sets its own
  bool suspend = true;
  ModelSuspensionOptions suspension;
  double busyWattsPerWorker = 10;
};

enum class ClusterModelEnd { Tuning, GoalReached, BudgetSpent, Exhausted, Suspended };
llvm::StringRef toString(ClusterModelEnd end);

struct ClusterModelResult {
  std::string name;
  IntervalLatencies latencies; // [0] untuned, then after each of its intervals
  int64_t measurements = 0;
  double busySeconds = 0;      // its measurements' simulated seconds
  double endWallSeconds = 0;   // simulated cluster time when it ended
  ClusterModelEnd end = ClusterModelEnd::Tuning;
  double finalMs() const { return latencies.back(); }
};

struct SimulatedClusterRun {
  std::vector<ClusterModelResult> models;
  int64_t rounds = 0;
  int64_t measurements = 0;
  double busySeconds = 0; // all workers' measurement seconds
  double wallSeconds = 0; // until the last model ended
  double energyJoules = 0; // modelled: busy seconds x busy watts
};

/// Runs the models to their ends. Each model's scheduler and tasks are
/// used in place (their histories hold what was measured).
SimulatedClusterRun simulateCluster(std::vector<ClusterModel> &models,
                                    const SimulatedClusterOptions &options);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_REPLAY_SIMULATEDCLUSTER_H
