//===- ReplayMeasurer.h - Answering from recorded measurements --*- C++ -*-===//
#ifndef DLTUNE_TUNING_REPLAY_REPLAYMEASURER_H
#define DLTUNE_TUNING_REPLAY_REPLAYMEASURER_H

#include "dltune/Tuning/Replay/KernelTunerCache.h"
#include "dltune/Tuning/MeasureCallback/TuningLoop.h"

namespace mlir::dltune {

/// Looks measurements up in a recorded cache instead of running them: the
/// mean time, or (stochastic) one of the recorded repeats drawn at random;
/// recorded failures come back as their failure class; configurations the
/// cache does not hold are invalid. Compile, verification, benchmark and
/// framework times advance a simulated clock, so time budgets work.
class ReplayMeasurer : public Measurer {
public:
  ReplayMeasurer(const KernelTunerCache &cache, bool stochastic, uint64_t seed)
      : cache(cache), stochastic(stochastic), rng(seed) {}
  std::vector<MeasureRecord> measure(const std::vector<Config> &configs) override;
  double getClockSeconds() const override { return clock; }

private:
  const KernelTunerCache &cache;
  bool stochastic;
  std::mt19937_64 rng;
  double clock = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_REPLAY_REPLAYMEASURER_H
