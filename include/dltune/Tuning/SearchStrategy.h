//===- SearchStrategy.h - Proposing configurations to measure --*- C++ -*-===//
#ifndef DLTUNE_TUNING_SEARCHSTRATEGY_H
#define DLTUNE_TUNING_SEARCHSTRATEGY_H

#include "dltune/Tuning/MeasureResult.h"
#include "dltune/Tuning/SearchSpace.h"

#include <memory>
#include <set>

namespace mlir::dltune {

/// What has been measured for a task so far. Owned by the tuning loop and
/// filled only through measure results; strategies read it.
struct TuningHistory {
  std::vector<Config> configs;
  std::vector<MeasureRecord> records;
  std::set<Config> measured;
  bool contains(const Config &c) const { return measured.count(c) != 0; }
};

/// Proposes batches of valid, not yet measured configurations. Strategies
/// never touch the database or the runner: they see the space and the
/// history, and are told of new results through `update`.
class SearchStrategy {
public:
  virtual ~SearchStrategy() = default;
  virtual llvm::StringRef getName() const = 0;
  virtual void initialize(const SearchSpace &space, uint64_t seed) = 0;
  /// Up to `count` distinct configs that are valid and not in `history`;
  /// fewer (or none) when the space is exhausted.
  virtual std::vector<Config> propose(size_t count, const TuningHistory &history) = 0;
  virtual void update(const std::vector<Config> &configs,
                      const std::vector<MeasureRecord> &records) {}
};

class FeatureExtractor;

/// What model-based strategies are built with.
struct StrategyOptions {
  std::string costModel = "xgb"; // see createCostModel
  /// Features of configurations; null: knob features of the space.
  std::shared_ptr<const FeatureExtractor> features;
  size_t planSize = 64;  // AutoTVM: retrain and re-plan every 64 measurements
  /// Measurements before the first fit (AutoTVM: planSize). Fewer lets the
  /// model steer sooner on spaces where good points are common.
  size_t firstFit = 64;
  double epsilon = 0.05; // share of random proposals
};

/// Creates a strategy by name: "random", "grid" (model-free), "sa"
/// (AutoTVM's model-based simulated annealing), "evolutionary"
/// (MetaSchedule-like), "bo" (expected improvement; needs a model with
/// variance, e.g. "rf"). The error lists the names.
llvm::Expected<std::unique_ptr<SearchStrategy>>
createSearchStrategy(llvm::StringRef name, const StrategyOptions &options = {});

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SEARCHSTRATEGY_H
