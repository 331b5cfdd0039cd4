//===- SimulatedWorkers.h - A study's workers on a recorded space -*- C++ -*-===//
//
// How a task's tuning scales with the number of workers sharing it
// (issue 34, docs/distributed.md), past what a 2-core machine can run: N
// simulated workers tune one recorded space (Kernel Tuner cache) as a
// study's workers tune one task - each with its own strategy (seeded
// apart), claims so that no configuration is measured twice, every worker
// seeing the others' results once they are committed, one shared budget -
// on simulated clocks advanced by the recorded compile and benchmark times.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_REPLAY_SIMULATEDWORKERS_H
#define DLTUNE_TUNING_REPLAY_SIMULATEDWORKERS_H

#include "dltune/Tuning/Replay/KernelTunerCache.h"
#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"

#include <functional>
#include <memory>
#include <vector>

namespace mlir::dltune {

struct SimulatedWorkersOptions {
  int workers = 1;
  int64_t trials = 200;   // the task's budget, all workers together
  size_t batchSize = 1;   // configurations a worker claims and measures at once
  uint64_t seed = 0;
  bool stochastic = false; // draw one recorded repeat instead of the mean
};

/// One committed result, in commit order.
struct SimulatedResult {
  double commitSeconds = 0; // simulated wall time when it was committed
  int worker = 0;
  Config config;
  MeasureRecord record;
};

struct SimulatedWorkersRun {
  std::vector<SimulatedResult> results; // sorted by commit time
  double wallSeconds = 0;               // when the last worker stopped
  /// Proposals skipped because another worker had claimed or measured them.
  int64_t skippedClaims = 0;
  /// Simulated seconds until the best committed result is within `factor`
  /// of `optimumMs` (NaN: never).
  double secondsToReach(double optimumMs, double factor) const;
  /// Results committed by then (0 when never reached).
  int64_t measurementsToReach(double optimumMs, double factor) const;
  double bestMs() const;
};

/// Runs the simulation; `makeStrategy(worker)` gives each worker its own,
/// uninitialised strategy.
SimulatedWorkersRun
simulateWorkers(const KernelTunerCache &cache,
                const std::function<std::unique_ptr<SearchStrategy>(int worker)> &makeStrategy,
                const SimulatedWorkersOptions &options);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_REPLAY_SIMULATEDWORKERS_H
