//===- TuningLoop.h - Propose, measure, record --------------------*- C++ -*-===//
//
// The loop every tuning run goes through - the autotune pass on real
// hardware and `dltune replay` on recorded data alike: the strategy
// proposes a batch, the measurer measures it, and measure callbacks (the
// database, progress output, reports) see every result as it arrives.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_MEASURECALLBACK_TUNINGLOOP_H
#define DLTUNE_TUNING_MEASURECALLBACK_TUNINGLOOP_H

#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"

#include <functional>

namespace mlir::dltune {

/// Turns configurations into measurements (builds and runs them, or looks
/// them up). Results come back in the order of `configs`.
class Measurer {
public:
  /// Called once per configuration, as soon as its result is final.
  using ResultHandler = std::function<void(size_t index, const MeasureRecord &record)>;

  virtual ~Measurer() = default;
  virtual std::vector<MeasureRecord> measure(const std::vector<Config> &configs) = 0;
  /// Like `measure`, but hands each result to `onResult` the moment it is
  /// known (a failed build before the others are timed), so that callers
  /// can commit it at once. The default reports after the whole batch.
  virtual std::vector<MeasureRecord> measureEach(const std::vector<Config> &configs,
                                                 const ResultHandler &onResult) {
    std::vector<MeasureRecord> records = measure(configs);
    for (size_t i = 0; i < records.size(); ++i)
      onResult(i, records[i]);
    return records;
  }
  /// Seconds spent so far: wall time, or simulated time for replay.
  virtual double getClockSeconds() const = 0;
  /// Which of `configs` this process may measure: false for one that a
  /// process sharing the database has measured or is measuring. The loop
  /// skips those (the strategy proposes others). Default: all.
  virtual std::vector<bool> claim(const std::vector<Config> &configs) {
    return std::vector<bool>(configs.size(), true);
  }
  /// What processes sharing the database measured for this task since it
  /// was read, that `history` lacks: the loop adds it to the history (it
  /// counts towards `trials`, guides the search and is never proposed
  /// again), so that workers tuning one task share its budget and its
  /// knowledge. Default: none.
  virtual std::vector<std::pair<Config, MeasureRecord>>
  collectOthersResults(const TuningHistory &history) {
    return {};
  }
  /// Non-empty once measuring cannot go on (a full disk, a database that
  /// cannot record): the loop stops, and the caller reports it as an error.
  virtual std::string getStopReason() const { return ""; }
};

struct TuningProgress {
  int64_t trialsDone = 0;   // measurements of this run (after the history)
  int64_t trialsBudget = 0;
  /// Results other workers sharing the database committed, added to the
  /// history during this run (they count towards `trials`).
  int64_t othersResults = 0;
  int64_t failures = 0;
  std::optional<Config> best;
  double bestMs = INFINITY;
  double elapsedSeconds = 0;
};

/// Sees each result as it arrives; `index` counts measurements of this run.
class MeasureCallback {
public:
  virtual ~MeasureCallback() = default;
  virtual void onResult(const Config &config, const MeasureRecord &record,
                        const TuningProgress &progress) = 0;
  virtual void onFinish(const TuningProgress &progress) {}
  /// Sees a result another worker committed, as it joins the history (not
  /// this run's measurement: nothing to commit).
  virtual void onOthersResult(const Config &config, const MeasureRecord &record) {}
};

struct TuningOptions {
  int64_t trials = 64;        // measurements, history included (resume)
  double timeBudgetSeconds = 0; // 0: no time budget
  size_t batchSize = 1;
  uint64_t seed = 0;
  /// False when the strategy already holds state from an earlier call on
  /// the same task (the model tuner's slots): it goes on, not starts over.
  bool initializeStrategy = true;
};

/// Runs the loop until the trial or time budget is spent or the space is
/// exhausted. `history` holds earlier results (resumed from a database);
/// they count towards `trials` and are never proposed again.
TuningProgress runTuningLoop(const SearchSpace &space, SearchStrategy &strategy,
                             Measurer &measurer, TuningHistory &history,
                             llvm::ArrayRef<MeasureCallback *> callbacks,
                             const TuningOptions &options);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_MEASURECALLBACK_TUNINGLOOP_H
