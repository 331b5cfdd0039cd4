//===- TuningCost.cpp - What tuning a task cost, in time and energy -------===//

#include "dltune/Tuning/Cost/TuningCost.h"
#include "dltune/Tuning/ColdFilter/ColdLabels.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cmath>

using namespace mlir::dltune;

int64_t mlir::dltune::getRecordThreads(const std::string &config) {
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(config).split(parts, ',');
  for (llvm::StringRef p : parts) {
    auto [name, value] = p.split('=');
    int64_t n = 0;
    if (name.trim() == "threads" && !value.trim().getAsInteger(10, n) && n > 0)
      return n;
  }
  return 1;
}

void TaskCost::add(const TaskCost &o) {
  candidates += o.candidates;
  failed += o.failed;
  cold += o.cold;
  buildSeconds += o.buildSeconds;
  runSeconds += o.runSeconds;
  joules += o.joules;
  modelledJoules += o.modelledJoules;
  meteredCandidates += o.meteredCandidates;
  coldJoules += o.coldJoules;
  failedJoules += o.failedJoules;
  coldSeconds += o.coldSeconds;
  failedSeconds += o.failedSeconds;
  // Latencies only of tasks that have both: the saving stays a like-for-like
  // difference.
  if (std::isnan(o.untunedMs) || std::isnan(o.bestMs))
    return;
  auto sum = [](double a, double b) { return std::isnan(a) ? b : a + b; };
  untunedMs = sum(untunedMs, o.untunedMs);
  firstMs = sum(firstMs, o.firstMs);
  bestMs = sum(bestMs, std::min(o.bestMs, o.untunedMs));
  savingSeconds = sum(savingSeconds, o.getSeconds());
  savingJoules = sum(savingJoules, o.joules);
}

CostComparison mlir::dltune::compareTuningOutcomes(const TuningOutcome &run,
                                                  const TuningOutcome &baseline) {
  auto reduction = [](double value, double base) {
    return base > 0 ? 100 * (base - value) / base : NAN;
  };
  CostComparison c;
  c.timeReduction = reduction(run.seconds, baseline.seconds);
  c.energyReduction = reduction(run.joules, baseline.joules);
  c.latencyReduction = reduction(run.latencyMs, baseline.latencyMs);
  return c;
}

double mlir::dltune::estimateSecondsLeft(const std::vector<double> &createdAt,
                                        int64_t budget) {
  int64_t measured = static_cast<int64_t>(createdAt.size());
  if (measured >= budget)
    return 0;
  if (measured < 2)
    return NAN;
  auto [first, last] = std::minmax_element(createdAt.begin(), createdAt.end());
  if (!(*last > *first))
    return NAN;
  // n records span n - 1 intervals.
  double perSecond = static_cast<double>(measured - 1) / (*last - *first);
  return static_cast<double>(budget - measured) / perSecond;
}

TaskCost mlir::dltune::summarizeTaskCost(std::vector<MeasureRecord> records,
                                         std::optional<double> untunedMs,
                                         const TuningCostOptions &options) {
  std::stable_sort(records.begin(), records.end(),
                   [](const MeasureRecord &a, const MeasureRecord &b) {
                     return a.createdAt < b.createdAt;
                   });
  std::vector<MeasureRecord> measured;
  for (MeasureRecord &r : records)
    if (r.source == "measured")
      measured.push_back(std::move(r));
  std::vector<double> times;
  for (const MeasureRecord &r : measured)
    times.push_back(r.isOk() ? r.timeMs : NAN);
  std::vector<bool> cold = labelColdByRunningBest(times, options.coldFactor);
  TaskCost cost;
  if (untunedMs)
    cost.untunedMs = *untunedMs;
  for (size_t i = 0; i < measured.size(); ++i) {
    const MeasureRecord &r = measured[i];
    double build = std::max(0.0, r.buildSeconds), run = std::max(0.0, r.runSeconds);
    double modelled = options.power.busyWattsPerCore *
                      (build + run * static_cast<double>(getRecordThreads(r.config)));
    bool metered = r.candidateEnergyJ && std::isfinite(*r.candidateEnergyJ) &&
                   *r.candidateEnergyJ >= 0;
    double joules = metered ? *r.candidateEnergyJ : modelled;
    ++cost.candidates;
    cost.meteredCandidates += metered;
    cost.buildSeconds += build;
    cost.runSeconds += run;
    cost.joules += joules;
    cost.modelledJoules += modelled;
    if (!r.isOk()) {
      ++cost.failed;
      cost.failedSeconds += build + run;
      cost.failedJoules += joules;
      continue;
    }
    if (!r.hasUsableTime())
      continue; // a damaged record: paid for, but says nothing about speed
    if (std::isnan(cost.firstMs))
      cost.firstMs = r.timeMs;
    if (cold[i]) {
      ++cost.cold;
      cost.coldSeconds += build + run;
      cost.coldJoules += joules;
    }
    cost.bestMs = std::isnan(cost.bestMs) ? r.timeMs : std::min(cost.bestMs, r.timeMs);
  }
  if (!std::isnan(cost.untunedMs) && !std::isnan(cost.bestMs)) {
    cost.savingSeconds = cost.getSeconds();
    cost.savingJoules = cost.joules;
  }
  return cost;
}
