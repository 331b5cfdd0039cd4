//===- RandomSearch.cpp - Uniform random and exhaustive grid search -------===//

#include "SearchStrategy/ModelBasedSearch.h"


using namespace mlir::dltune;

namespace {
/// Uniform sampling over the valid configurations not measured yet. When
/// samples keep hitting measured configs (a nearly exhausted space), the
/// rest is enumerated once and drawn without replacement.
class RandomSearch : public SearchStrategy {
public:
  llvm::StringRef getName() const override { return "random"; }
  void initialize(const SearchSpace &s, uint64_t seed) override {
    space = &s;
    rng.seed(seed);
    remaining.reset();
  }
  std::vector<Config> propose(size_t count, const TuningHistory &history) override {
    std::vector<Config> out;
    std::set<Config> picked;
    int misses = 0;
    while (out.size() < count && !remaining && misses < 200) {
      std::optional<Config> c = space->sample(rng);
      if (!c)
        return out;
      if (history.contains(*c) || picked.count(*c)) {
        ++misses;
        continue;
      }
      picked.insert(*c);
      out.push_back(std::move(*c));
    }
    if (out.size() < count) {
      if (!remaining) {
        remaining.emplace();
        space->enumerate([&](const Config &c) {
          if (!history.contains(c) && !picked.count(c))
            remaining->push_back(c);
          return remaining->size() < 10'000'000;
        });
      }
      while (out.size() < count && !remaining->empty()) {
        std::uniform_int_distribution<size_t> pick(0, remaining->size() - 1);
        size_t i = pick(rng);
        std::swap((*remaining)[i], remaining->back());
        Config c = std::move(remaining->back());
        remaining->pop_back();
        if (!history.contains(c) && !picked.count(c)) {
          picked.insert(c);
          out.push_back(std::move(c));
        }
      }
    }
    return out;
  }

private:
  const SearchSpace *space = nullptr;
  std::mt19937_64 rng;
  std::optional<std::vector<Config>> remaining;
};

/// Enumeration order, skipping measured configs: exhaustive search.
class GridSearch : public SearchStrategy {
public:
  llvm::StringRef getName() const override { return "grid"; }
  void initialize(const SearchSpace &s, uint64_t) override {
    space = &s;
    order.clear();
    next = 0;
    space->enumerate([&](const Config &c) {
      order.push_back(c);
      return order.size() < 10'000'000;
    });
  }
  std::vector<Config> propose(size_t count, const TuningHistory &history) override {
    std::vector<Config> out;
    while (out.size() < count && next < order.size()) {
      const Config &c = order[next++];
      if (!history.contains(c))
        out.push_back(c);
    }
    return out;
  }

private:
  const SearchSpace *space = nullptr;
  std::vector<Config> order;
  size_t next = 0;
};
} // namespace

std::unique_ptr<SearchStrategy> mlir::dltune::createRandomSearch() {
  return std::make_unique<RandomSearch>();
}

std::unique_ptr<SearchStrategy> mlir::dltune::createGridSearch() {
  return std::make_unique<GridSearch>();
}
