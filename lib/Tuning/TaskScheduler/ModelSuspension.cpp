//===- ModelSuspension.cpp - Trimmer's multi-model suspension -------------===//

#include "dltune/Tuning/TaskScheduler/ModelSuspension.h"

#include <cmath>

using namespace mlir::dltune;

static double improvementAt(const IntervalLatencies &l, size_t i) {
  // A latency that is not finite yet (a task never measured ok) improves
  // by nothing measurable; one that becomes finite improves by everything.
  if (!std::isfinite(l[i - 1]))
    return std::isfinite(l[i]) ? 1.0 : 0.0;
  return l[i - 1] > 0 ? (l[i - 1] - l[i]) / l[i - 1] : 0.0;
}

std::optional<double> mlir::dltune::lastIntervalImprovement(const IntervalLatencies &latencies) {
  if (latencies.size() < 2)
    return std::nullopt;
  return improvementAt(latencies, latencies.size() - 1);
}

bool mlir::dltune::hasPlateaued(const IntervalLatencies &latencies,
                                const ModelSuspensionOptions &options) {
  size_t n = static_cast<size_t>(std::max(options.plateauIntervals, 1));
  if (latencies.size() < n + 1)
    return false;
  for (size_t i = latencies.size() - n; i < latencies.size(); ++i)
    if (improvementAt(latencies, i) >= options.minImprovement)
      return false;
  return true;
}

std::optional<size_t>
mlir::dltune::chooseModelToSuspend(llvm::ArrayRef<IntervalLatencies> models,
                                   llvm::ArrayRef<bool> active,
                                   const ModelSuspensionOptions &options) {
  std::optional<size_t> worst;
  double worstImprovement = 0;
  for (size_t m = 0; m < models.size() && m < active.size(); ++m) {
    if (!active[m] || !hasPlateaued(models[m], options))
      continue;
    double improvement = *lastIntervalImprovement(models[m]);
    if (!worst || improvement < worstImprovement) {
      worst = m;
      worstImprovement = improvement;
    }
  }
  return worst;
}
