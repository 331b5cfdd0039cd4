//===- SearchStrategy.h - Proposing configurations to measure --*- C++ -*-===//
#ifndef DLTUNE_TUNING_SEARCHSTRATEGY_SEARCHSTRATEGY_H
#define DLTUNE_TUNING_SEARCHSTRATEGY_SEARCHSTRATEGY_H

#include "dltune/Tuning/MeasureCallback/MeasureResult.h"
#include "dltune/Tuning/Space/SearchSpace.h"

#include "llvm/Support/Error.h"

#include <functional>
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
  /// Appends the result of `c` (this process's, or another worker's).
  void add(Config c, MeasureRecord record) {
    measured.insert(c);
    configs.push_back(std::move(c));
    records.push_back(std::move(record));
  }
  /// The record of `c`, or null when it was not measured.
  const MeasureRecord *find(const Config &c) const {
    if (!contains(c))
      return nullptr;
    for (size_t i = 0; i < configs.size(); ++i)
      if (configs[i] == c)
        return &records[i];
    return nullptr;
  }
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

class CostModel;
class FeatureExtractor;

/// Hears what a model-based strategy does with its cost model. This is how
/// callers count fits and learn of model errors: the strategy goes on with
/// random proposals until the next fit, and the caller shows the error.
class StrategyObserver {
public:
  virtual ~StrategyObserver() = default;
  /// The model was fitted on `rows` measurements.
  virtual void onModelFit(size_t rows) {}
  /// `count` proposals of one batch came from the model's plan.
  virtual void onModelProposals(size_t count) {}
  /// A fit or a prediction failed.
  virtual void onModelError(llvm::Error error) = 0;
};

/// What model-based strategies are built with.
struct StrategyOptions {
  /// See createCostModel; empty: the strategy's default (xgb; rf for bo).
  /// Model-free strategies refuse a non-empty name.
  std::string costModel;
  /// Makes the model instead of `costModel` (tests, pre-trained models).
  std::function<std::unique_ptr<CostModel>(uint64_t seed)> makeCostModel;
  /// Features of configurations; null: knob features of the space.
  std::shared_ptr<const FeatureExtractor> features;
  size_t planSize = 64;  // AutoTVM: retrain and re-plan every 64 measurements
  /// Measurements before the first fit (AutoTVM: planSize). Fewer lets the
  /// model steer sooner on spaces where good points are common.
  size_t firstFit = 64;
  /// Rows measured before this strategy took over (a transfer abandoned
  /// after its probes): its random start still measures firstFit of its
  /// own before the first fit, as it would cold.
  size_t rowsBefore = 0;
  /// AutoTVM's e-greedy share: the last int(randomShare * planSize) entries
  /// of each plan are replaced by random configurations.
  double randomShare = 0.05;
  /// Told of fits, model proposals and model errors. Null drops the errors:
  /// every tool and pass in dltune sets one, and library callers should.
  StrategyObserver *observer = nullptr;
};

/// Creates a strategy by name: "random", "grid" (model-free), "sa"
/// (AutoTVM's model-based simulated annealing), "evolutionary"
/// (MetaSchedule-like), "bo" (expected improvement; refuses a model without
/// variance). Errors: an unknown name (the message lists the known ones), an
/// unknown cost model, a cost model for a model-free strategy.
llvm::Expected<std::unique_ptr<SearchStrategy>>
createSearchStrategy(llvm::StringRef name, const StrategyOptions &options = {});

/// "random" and "grid" (RandomSearch.cpp), model-free.
std::unique_ptr<SearchStrategy> createRandomSearch();
std::unique_ptr<SearchStrategy> createGridSearch();

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SEARCHSTRATEGY_SEARCHSTRATEGY_H
