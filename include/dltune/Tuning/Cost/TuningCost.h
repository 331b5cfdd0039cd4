//===- TuningCost.h - What tuning a task cost, in time and energy -*- C++ -*-===//
//
// Trimmer (docs/trimmer.md) asks what tuning costs, not only what it finds:
// every candidate is paid for in build and measurement seconds, and in
// energy, whether it turns out fast, cold (far slower than what was already
// known) or failed. This sums a task's records into that account. Energy is
// modelled from CPU seconds with a declared power model, because the
// records hold no whole-candidate meter reading (`energy_j` is per kernel
// call) and these VMs expose no RAPL; every figure derived from it says
// "modelled". Records made where a meter was readable carry the
// candidate's metered joules (MeasureRecord::candidateEnergyJ); those
// count as metered, and the account says how many did.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_COST_TUNINGCOST_H
#define DLTUNE_TUNING_COST_TUNINGCOST_H

#include "dltune/Tuning/MeasureCallback/MeasureResult.h"

#include <cmath>
#include <optional>
#include <vector>

namespace mlir::dltune {

/// Watts charged per busy core: a builder keeps one core busy for its build
/// seconds, a measurement `threads` cores (the config's `threads` knob, 1
/// without one) for its run seconds. Idle power is not charged to tuning.
struct PowerModel {
  /// 10 W: a server core under load (e.g. a 64-core, 280 W EPYC package
  /// runs about 4 W per core; with its share of memory and uncore, about
  /// twice that), rounded up. A declaration, not a measurement.
  double busyWattsPerCore = 10.0;
};

struct TuningCostOptions {
  /// A candidate is cold when its time is more than this factor above the
  /// best ok time measured before it (Trimmer's "slower than the running
  /// best" variant; the task's first ok candidate is never cold).
  double coldFactor = 2.0;
  PowerModel power;
};

/// One task's candidates on one device.
struct TaskCost {
  int64_t candidates = 0, failed = 0, cold = 0;
  double buildSeconds = 0, runSeconds = 0;
  /// Joules of all candidates, of the cold ones and of the failed ones
  /// (build and, where it ran, measurement): metered where the record has a
  /// reading, modelled for the others.
  double joules = 0, coldJoules = 0, failedJoules = 0;
  /// The power model's joules of all candidates, metered or not (for
  /// comparisons with runs on machines without a meter).
  double modelledJoules = 0;
  /// Candidates whose joules are metered (the rest are modelled).
  int64_t meteredCandidates = 0;
  double coldSeconds = 0, failedSeconds = 0;
  /// Untuned (reference) ms per call when the database has it; the first
  /// ok candidate's and the best ok candidate's ms.
  double untunedMs = NAN, firstMs = NAN, bestMs = NAN;

  /// The seconds and joules of the tasks whose saving is counted (all of a
  /// single task's when it has an untuned and a best time, NaN otherwise).
  double savingSeconds = NAN, savingJoules = NAN;

  double getSeconds() const { return buildSeconds + runSeconds; }
  /// Per call, against the untuned lowering (NaN without one, or when
  /// nothing was saved).
  double getSavedMs() const {
    double saved = untunedMs - bestMs;
    return saved > 0 ? saved : NAN;
  }
  /// The paper's Fig. 13 metric: cost per millisecond of latency saved.
  double getSecondsPerMsSaved() const { return savingSeconds / getSavedMs(); }
  double getJoulesPerMsSaved() const { return savingJoules / getSavedMs(); }
  /// Adds `other` (totals over tasks): counts, seconds and joules always;
  /// untuned, first and best ms, and the saving's seconds and joules, only
  /// where `other` has both an untuned and a best time (a best slower than
  /// the untuned lowering counts as no saving, not a negative one).
  void add(const TaskCost &other);
};

/// What one tuning run (or database) spent and got: the cost of its
/// candidates and the latency it reached (a sum over the tasks compared).
struct TuningOutcome {
  double seconds = 0, joules = 0, latencyMs = 0;
};

/// A run against a baseline run of the same tasks, as the deep-GP paper
/// compares tuners (its Table 1): reductions in percent of the baseline's
/// (negative: more), and their hypervolume, the product of the search-time
/// reduction and the latency reduction over 100 (NaN unless both reduce:
/// the product of two increases is positive and means nothing there).
struct CostComparison {
  double timeReduction = NAN, energyReduction = NAN, latencyReduction = NAN;
  double getTimeHypervolume() const { return hypervolume(timeReduction); }
  double getEnergyHypervolume() const { return hypervolume(energyReduction); }

private:
  double hypervolume(double costReduction) const {
    return costReduction > 0 && latencyReduction > 0 ? costReduction * latencyReduction / 100
                                                     : NAN;
  }
};
CostComparison compareTuningOutcomes(const TuningOutcome &run, const TuningOutcome &baseline);

/// Seconds until `budget` measurements are made, at the rate of those so
/// far (measured = createdAt.size(), from the first record's time to the
/// last's): (budget - measured) / rate, 0 once the budget is spent. NaN
/// with fewer than two records or all at one instant (no rate).
double estimateSecondsLeft(const std::vector<double> &createdAt, int64_t budget);

/// The account of `records` (in any order: they are taken in order of
/// `createdAt`, as they were measured). Records imported from elsewhere
/// (`source` other than "measured") cost nothing here and are skipped.
TaskCost summarizeTaskCost(std::vector<MeasureRecord> records, std::optional<double> untunedMs,
                           const TuningCostOptions &options = {});

/// The threads a record's config ran on: its `threads=N`, else 1.
int64_t getRecordThreads(const std::string &config);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COST_TUNINGCOST_H
