//===- ModelSuspension.h - Trimmer's multi-model suspension ----*- C++ -*-===//
//
// Trimmer (docs/trimmer.md, "Multi-model suspension") tunes several models
// on one cluster and, at each synchronisation (every model has completed a
// batch interval), ranks the models by the latency improvement of their
// last interval and suspends the worst, so that its workers go to models
// that still improve. The paper leaves the rule's numbers open ("a number
// of configurable plateau iterations"); dltune suspends, at each
// synchronisation, at most one model: among the active models whose last
// `plateauIntervals` intervals each improved by less than `minImprovement`,
// the one whose last interval improved least.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TASKSCHEDULER_MODELSUSPENSION_H
#define DLTUNE_TUNING_TASKSCHEDULER_MODELSUSPENSION_H

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <vector>

namespace mlir::dltune {

struct ModelSuspensionOptions {
  /// Consecutive intervals that must each improve by less than
  /// minImprovement before a model may be suspended.
  int plateauIntervals = 2;
  /// Relative reduction of the model latency over one interval,
  /// (before - after) / before, below which the interval is a plateau.
  double minImprovement = 0.01;
};

/// A model's latency after each synchronisation: [0] before tuning (its
/// untuned latency), then one entry per completed interval.
using IntervalLatencies = std::vector<double>;

/// The last interval's relative improvement; nullopt before the first.
std::optional<double> lastIntervalImprovement(const IntervalLatencies &latencies);

/// Whether each of the last `plateauIntervals` intervals improved by less
/// than `minImprovement` (false until that many intervals are done).
bool hasPlateaued(const IntervalLatencies &latencies, const ModelSuspensionOptions &options);

/// The model to suspend now: among the `active` ones that have plateaued,
/// the one whose last interval improved least (the lower index on a tie);
/// nullopt when none has plateaued.
std::optional<size_t> chooseModelToSuspend(llvm::ArrayRef<IntervalLatencies> models,
                                           llvm::ArrayRef<bool> active,
                                           const ModelSuspensionOptions &options);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TASKSCHEDULER_MODELSUSPENSION_H
