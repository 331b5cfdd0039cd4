//===- SimulatedWorkers.cpp - A study's workers on a recorded space -------===//
//
// Event-driven: the worker whose clock is earliest acts next. It takes the
// results committed up to its clock into its history, proposes a batch,
// claims it (configurations another worker measured or has in flight are
// skipped, as Database::claim skips them), measures the claimed ones one
// after the other on its clock and commits each as it finishes. The shared
// budget counts committed and in-flight results, so the task ends with at
// most the budget measured.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/Replay/SimulatedWorkers.h"
#include "dltune/Tuning/Replay/ReplayMeasurer.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace mlir::dltune;

namespace {
struct Worker {
  std::unique_ptr<SearchStrategy> strategy;
  std::unique_ptr<ReplayMeasurer> measurer;
  TuningHistory history;
  double clock = 0;
  size_t seen = 0; // results of `committed` (commit order) already considered
  bool stopped = false;
};
} // namespace

SimulatedWorkersRun mlir::dltune::simulateWorkers(
    const KernelTunerCache &cache,
    const std::function<std::unique_ptr<SearchStrategy>(int worker)> &makeStrategy,
    const SimulatedWorkersOptions &options) {
  SearchSpace space = cache.getSpace();
  int n = std::max(1, options.workers);
  std::vector<Worker> workers(n);
  for (int w = 0; w < n; ++w) {
    workers[w].strategy = makeStrategy(w);
    workers[w].strategy->initialize(space, options.seed * 1000 + w);
    workers[w].measurer =
        std::make_unique<ReplayMeasurer>(cache, options.stochastic, options.seed * 1000 + w);
  }
  SimulatedWorkersRun run;
  std::vector<SimulatedResult> &committed = run.results; // kept in commit-time order
  std::set<Config> claimed; // measured or in flight
  int64_t spent = 0;        // committed or in flight
  constexpr int kMaxClaimedRounds = 64;
  while (true) {
    auto next = std::min_element(workers.begin(), workers.end(), [](const Worker &a,
                                                                     const Worker &b) {
      if (a.stopped != b.stopped)
        return !a.stopped;
      return a.clock < b.clock;
    });
    if (next == workers.end() || next->stopped)
      break;
    Worker &me = *next;
    int id = static_cast<int>(next - workers.begin());
    if (spent >= options.trials) {
      me.stopped = true;
      continue;
    }
    // What the others committed by now (own results are already there).
    for (const SimulatedResult &r : committed)
      if (r.worker != id && r.commitSeconds <= me.clock && !me.history.contains(r.config))
        me.history.add(r.config, r.record);
    std::vector<Config> kept;
    for (int round = 0; round < kMaxClaimedRounds && kept.empty(); ++round) {
      size_t want = std::min<size_t>(options.batchSize, options.trials - spent);
      std::vector<Config> batch = me.strategy->propose(std::max<size_t>(want, 1), me.history);
      if (batch.empty())
        break;
      for (const Config &c : batch) {
        if (claimed.insert(c).second)
          kept.push_back(c);
        else {
          ++run.skippedClaims;
          me.history.measured.insert(c); // not proposed again
        }
      }
    }
    if (kept.empty()) {
      me.stopped = true; // exhausted, or everything left is someone else's
      continue;
    }
    spent += static_cast<int64_t>(kept.size());
    std::vector<MeasureRecord> records;
    for (const Config &c : kept) {
      double before = me.measurer->getClockSeconds();
      MeasureRecord r = me.measurer->measure({c}).front();
      r.config = space.formatConfig(c);
      me.clock += me.measurer->getClockSeconds() - before;
      SimulatedResult result{me.clock, id, c, r};
      committed.insert(std::upper_bound(committed.begin(), committed.end(), result,
                                        [](const SimulatedResult &a, const SimulatedResult &b) {
                                          return a.commitSeconds < b.commitSeconds;
                                        }),
                       result);
      me.history.add(c, r);
      records.push_back(r);
    }
    me.strategy->update(kept, records);
  }
  for (const Worker &w : workers)
    run.wallSeconds = std::max(run.wallSeconds, w.clock);
  return run;
}

double SimulatedWorkersRun::bestMs() const {
  double best = INFINITY;
  for (const SimulatedResult &r : results)
    if (r.record.isOk() && r.record.timeMs < best)
      best = r.record.timeMs;
  return best;
}

double SimulatedWorkersRun::secondsToReach(double optimumMs, double factor) const {
  for (const SimulatedResult &r : results)
    if (r.record.isOk() && r.record.timeMs * factor <= optimumMs)
      return r.commitSeconds;
  return NAN;
}

int64_t SimulatedWorkersRun::measurementsToReach(double optimumMs, double factor) const {
  for (size_t i = 0; i < results.size(); ++i)
    if (results[i].record.isOk() && results[i].record.timeMs * factor <= optimumMs)
      return static_cast<int64_t>(i) + 1;
  return 0;
}
