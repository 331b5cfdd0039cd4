//===- DeferredSearch.h - A strategy built when it is first asked -*- C++ -*-===//
//
// A task scheduler prepares every task of a model before its first slot,
// but a transfer strategy should learn from what the run measured before
// the task's turn came: the tasks tuned in earlier slots. DeferredSearch
// stands in for a strategy until its first proposal and builds it then;
// results that arrived before (the seeded default configuration) are
// passed on once it exists. When the factory has nothing to offer (no
// history yet), the fallback strategy is used instead.
//
// The history keeps growing while the run goes on (other tasks' later
// slots). With a refresh rule, the strategy is built again before a
// proposal whenever the rule says the history has grown enough; the new
// one takes over with every result measured so far.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_SEARCHSTRATEGY_DEFERREDSEARCH_H
#define DLTUNE_TUNING_SEARCHSTRATEGY_DEFERREDSEARCH_H

#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"

namespace mlir::dltune {

class DeferredSearch : public SearchStrategy {
public:
  /// `build` returns the strategy, null to use `fallback`, or an error,
  /// which `onError` is told of before the fallback takes over.
  using Factory = std::function<llvm::Expected<std::unique_ptr<SearchStrategy>>()>;
  /// Asked before a proposal once built, when the records have changed
  /// since it was last asked: whether to build again now.
  using Refresh = std::function<bool(const TuningHistory &)>;
  DeferredSearch(Factory build, std::unique_ptr<SearchStrategy> fallback,
                 std::function<void(llvm::Error)> onError, Refresh refresh = nullptr)
      : build(std::move(build)), fallback(std::move(fallback)), onError(std::move(onError)),
        refresh(std::move(refresh)) {}

  llvm::StringRef getName() const override {
    return built ? built->getName() : fallback->getName();
  }
  void initialize(const SearchSpace &space, uint64_t seed) override;
  std::vector<Config> propose(size_t count, const TuningHistory &history) override;
  void update(const std::vector<Config> &configs,
              const std::vector<MeasureRecord> &records) override;
  /// Whether the strategy has been built (the first proposal was asked).
  bool isBuilt() const { return built != nullptr; }
  /// How many times the factory gave a strategy that took over.
  size_t getBuildCount() const { return builds; }

private:
  /// Asks the factory; false (after onError for an error) when it gave
  /// nothing and the current strategy stays.
  bool rebuild(const TuningHistory *history);

  Factory build;
  std::unique_ptr<SearchStrategy> fallback;
  std::function<void(llvm::Error)> onError;
  Refresh refresh;
  size_t rowsAtRefresh = 0; // records when refresh was last asked
  size_t builds = 0;
  SearchStrategy *built = nullptr; // the factory's strategy, or fallback
  std::unique_ptr<SearchStrategy> owned;
  const SearchSpace *space = nullptr;
  uint64_t seed = 0;
  std::vector<Config> earlyConfigs;
  std::vector<MeasureRecord> earlyRecords;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SEARCHSTRATEGY_DEFERREDSEARCH_H
