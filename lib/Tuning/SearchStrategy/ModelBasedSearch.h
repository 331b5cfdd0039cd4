//===- ModelBasedSearch.h - The loop shared by model-based strategies -*- C++ -*-===//
//
// Private to lib/Tuning. The model-based strategies share AutoTVM's
// ModelBasedTuner loop (ModelBasedSearch.cpp); each optimiser that picks a
// plan from the model lives in its own file:
//
//   sa            SimulatedAnnealing.cpp
//   evolutionary  EvolutionarySearch.cpp
//   bo            BayesianOptimization.cpp
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TUNING_MODELBASEDSEARCH_H
#define DLTUNE_LIB_TUNING_MODELBASEDSEARCH_H

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"

#include <map>
#include <set>

namespace mlir::dltune {

/// AutoTVM's ModelBasedTuner: measure random configurations until
/// `firstFit` (AutoTVM: the plan size) are in, fit the cost model, let the
/// optimiser pick a plan of the `planSize` best predicted unmeasured
/// configurations, propose from it in order - its last
/// int(randomShare * planSize) entries replaced by random ones - and refit
/// and re-plan after every further `planSize` measurements.
class ModelBasedStrategy : public SearchStrategy {
public:
  explicit ModelBasedStrategy(StrategyOptions options) : options(std::move(options)) {}

  void initialize(const SearchSpace &s, uint64_t seed) override;
  std::vector<Config> propose(size_t count, const TuningHistory &history) override;

protected:
  /// The best `k` unmeasured configurations by the optimiser's measure,
  /// best first.
  virtual llvm::Expected<std::vector<Config>> findMaximums(const TuningHistory &history,
                                                           size_t k) = 0;

  llvm::Expected<std::vector<double>> score(const std::vector<Config> &configs) const;
  std::optional<Config> randomUnmeasured(const TuningHistory &history,
                                         const std::set<Config> &also);
  /// AutoTVM's ConfigSpace.random_walk: set a random knob to a random
  /// candidate, again and again on the result, until the config differs
  /// from `c` and is valid (AutoTVM loops without bound; after 1000 moves
  /// this gives up and returns `c`).
  Config randomWalk(const Config &c);

  const SearchSpace *space = nullptr;
  StrategyOptions options;
  std::unique_ptr<CostModel> model;
  std::mt19937_64 rng;

private:
  void retrain(const TuningHistory &history);
  void reportError(llvm::Error e);

  size_t trainCount = 0;
  /// Scores since the last fit (score() predicts only what is not here).
  mutable std::map<Config, double> scoreCache;
  std::vector<Config> plan;
  size_t planPos = 0;
};

/// Keeps the k best (score, config) pairs, each config once; a score must
/// beat the worst kept one to enter a full set (AutoTVM's heap).
class TopK {
public:
  explicit TopK(size_t k) : k(k) {}
  bool offer(double s, const Config &c);
  /// Best first, with their scores.
  std::vector<std::pair<double, Config>> descending() const;
  /// The configurations alone, best first.
  std::vector<Config> configs() const;

private:
  size_t k;
  std::multimap<double, Config> byScore;
  std::set<Config> entries;
};

std::unique_ptr<SearchStrategy> createSimulatedAnnealing(const StrategyOptions &options);
std::unique_ptr<SearchStrategy> createEvolutionarySearch(const StrategyOptions &options);
std::unique_ptr<SearchStrategy> createBayesianOptimization(const StrategyOptions &options);

/// The model a model-based strategy uses: options.makeCostModel, else
/// options.costModel (empty: xgb, or rf for bo).
llvm::Expected<std::unique_ptr<CostModel>>
makeStrategyCostModel(llvm::StringRef strategy, const StrategyOptions &options, uint64_t seed);

/// "sa", "evolutionary" or "bo"; the cost model comes from
/// options.makeCostModel or options.costModel (default xgb, rf for bo).
llvm::Expected<std::unique_ptr<SearchStrategy>>
createModelBasedStrategy(llvm::StringRef name, const StrategyOptions &options);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TUNING_MODELBASEDSEARCH_H
