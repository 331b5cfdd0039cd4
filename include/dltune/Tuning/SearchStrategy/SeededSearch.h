//===- SeededSearch.h - Measure known-good configs first --------*- C++ -*-===//
//
// The heuristic default configuration is what a user gets without tuning;
// a tuner that never measures it can end a short run worse than no tuning
// at all. SeededSearch wraps any strategy and proposes the seed configs
// (those not measured yet) before anything the wrapped strategy proposes;
// results reach the wrapped strategy as usual, so a model-based one learns
// from them.
//
//===----------------------------------------------------------------------===//

#ifndef DLTUNE_TUNING_SEARCHSTRATEGY_SEEDEDSEARCH_H
#define DLTUNE_TUNING_SEARCHSTRATEGY_SEEDEDSEARCH_H

#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"

#include <memory>
#include <vector>

namespace mlir::dltune {

class SeededSearch : public SearchStrategy {
public:
  SeededSearch(std::unique_ptr<SearchStrategy> inner, std::vector<Config> seeds)
      : inner(std::move(inner)), seeds(std::move(seeds)) {}

  llvm::StringRef getName() const override { return inner->getName(); }
  void initialize(const SearchSpace &space, uint64_t seed) override {
    inner->initialize(space, seed);
  }
  std::vector<Config> propose(size_t count, const TuningHistory &history) override;
  void update(const std::vector<Config> &configs,
              const std::vector<MeasureRecord> &records) override {
    inner->update(configs, records);
  }

private:
  std::unique_ptr<SearchStrategy> inner;
  std::vector<Config> seeds; // not yet proposed
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SEARCHSTRATEGY_SEEDEDSEARCH_H
