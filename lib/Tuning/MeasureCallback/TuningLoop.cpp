//===- TuningLoop.cpp - Propose, measure, record --------------------------===//

#include "dltune/Tuning/MeasureCallback/TuningLoop.h"

using namespace mlir::dltune;

TuningProgress mlir::dltune::runTuningLoop(const SearchSpace &space,
                                           SearchStrategy &strategy,
                                           Measurer &measurer, TuningHistory &history,
                                           llvm::ArrayRef<MeasureCallback *> callbacks,
                                           const TuningOptions &options) {
  TuningProgress progress;
  progress.trialsBudget = std::max<int64_t>(
      0, options.trials - static_cast<int64_t>(history.records.size()));
  // The best so far: of the history, other workers' results and this run's.
  auto noteBest = [&](const Config &config, const MeasureRecord &record) {
    if (record.isOk() && record.timeMs < progress.bestMs) {
      progress.bestMs = record.timeMs;
      progress.best = config;
    }
  };
  for (size_t i = 0; i < history.records.size(); ++i)
    noteBest(history.configs[i], history.records[i]);
  if (options.initializeStrategy)
    strategy.initialize(space, options.seed);
  double start = measurer.getClockSeconds();
  // Rounds in a row whose every proposal another process had claimed: past
  // this many, the rest of the space is someone else's.
  constexpr int kMaxClaimedRounds = 64;
  int claimedRounds = 0;
  while (progress.trialsDone < progress.trialsBudget && measurer.getStopReason().empty()) {
    if (options.timeBudgetSeconds > 0 &&
        measurer.getClockSeconds() - start >= options.timeBudgetSeconds)
      break;
    // Other workers' results since the last round: shared budget, shared
    // knowledge.
    std::vector<std::pair<Config, MeasureRecord>> others = measurer.collectOthersResults(history);
    for (auto &[config, record] : others) {
      for (MeasureCallback *cb : callbacks)
        cb->onOthersResult(config, record);
      noteBest(config, record);
      history.add(std::move(config), std::move(record));
    }
    progress.othersResults += static_cast<int64_t>(others.size());
    progress.trialsBudget = std::max<int64_t>(
        progress.trialsDone, progress.trialsBudget - static_cast<int64_t>(others.size()));
    if (progress.trialsDone >= progress.trialsBudget)
      break;
    size_t want = std::min<size_t>(options.batchSize,
                                   progress.trialsBudget - progress.trialsDone);
    std::vector<Config> batch = strategy.propose(std::max<size_t>(want, 1), history);
    if (batch.empty())
      break; // exhausted
    std::vector<bool> mine = measurer.claim(batch);
    if (!measurer.getStopReason().empty())
      break;
    std::vector<Config> kept;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (mine[i])
        kept.push_back(batch[i]);
      else
        history.measured.insert(batch[i]); // not proposed again
    }
    if (kept.empty()) {
      if (++claimedRounds >= kMaxClaimedRounds)
        break;
      continue;
    }
    claimedRounds = 0;
    batch = std::move(kept);
    // Each result reaches history and callbacks (the database) the moment
    // it is final: a kill loses only the candidates still in flight.
    std::vector<MeasureRecord> records =
        measurer.measureEach(batch, [&](size_t i, const MeasureRecord &result) {
          MeasureRecord r = result;
          r.config = space.formatConfig(batch[i]);
          history.add(batch[i], r);
          ++progress.trialsDone;
          progress.failures += !r.isOk();
          noteBest(batch[i], r);
          progress.elapsedSeconds = measurer.getClockSeconds() - start;
          for (MeasureCallback *cb : callbacks)
            cb->onResult(batch[i], r, progress);
        });
    strategy.update(batch, records);
  }
  progress.elapsedSeconds = measurer.getClockSeconds() - start;
  for (MeasureCallback *cb : callbacks)
    cb->onFinish(progress);
  return progress;
}
