//===- EvolutionarySearch.cpp - MetaSchedule-like evolutionary search -----===//
//
// After MetaSchedule's EvolutionarySearch: a population of 256 seeded with
// the best fifth of the measured configurations and random ones, 4
// generations of mutation (a random walk, probability 0.85) or uniform
// crossover, roulette selection on the predicted score.
//
//===----------------------------------------------------------------------===//

#include "SearchStrategy/ModelBasedSearch.h"

#include <algorithm>
#include <cmath>

using namespace mlir::dltune;

namespace {
class EvolutionarySearch : public ModelBasedStrategy {
public:
  using ModelBasedStrategy::ModelBasedStrategy;
  llvm::StringRef getName() const override { return "evolutionary"; }

protected:
  llvm::Expected<std::vector<Config>> findMaximums(const TuningHistory &history,
                                                   size_t k) override {
    constexpr size_t kPopulation = 256;
    constexpr int kGenerations = 4;
    constexpr double kMutation = 0.85;
    // Seed: the best measured configurations (a fifth), the rest random.
    std::vector<size_t> order(history.records.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      double ta = history.records[a].isOk() ? history.records[a].timeMs : INFINITY;
      double tb = history.records[b].isOk() ? history.records[b].timeMs : INFINITY;
      return ta < tb;
    });
    std::vector<Config> population;
    for (size_t i = 0; i < order.size() && population.size() < kPopulation / 5; ++i)
      if (history.records[order[i]].isOk())
        population.push_back(history.configs[order[i]]);
    while (population.size() < kPopulation) {
      std::optional<Config> c = space->sample(rng);
      if (!c)
        break;
      population.push_back(*c);
    }
    if (population.empty())
      return std::vector<Config>();
    TopK top(k);
    // Scores the population and offers its unmeasured members to `top`.
    auto offerAll = [&]() -> llvm::Expected<std::vector<double>> {
      llvm::Expected<std::vector<double>> scores = score(population);
      if (scores)
        for (size_t i = 0; i < population.size(); ++i)
          if (!history.contains(population[i]))
            top.offer((*scores)[i], population[i]);
      return scores;
    };
    std::uniform_real_distribution<double> coin(0, 1);
    for (int g = 0; g < kGenerations; ++g) {
      llvm::Expected<std::vector<double>> scores = offerAll();
      if (!scores)
        return scores.takeError();
      // Roulette selection on scores shifted to be positive.
      double lo = *std::min_element(scores->begin(), scores->end());
      std::vector<double> weights;
      for (double s : *scores)
        weights.push_back(s - lo + 1e-6);
      std::discrete_distribution<size_t> select(weights.begin(), weights.end());
      std::vector<Config> children;
      while (children.size() < kPopulation) {
        Config child = population[select(rng)];
        if (coin(rng) < kMutation) {
          child = randomWalk(child);
        } else {
          const Config &other = population[select(rng)];
          Config mixed = child;
          for (size_t i = 0; i < mixed.size(); ++i)
            if (coin(rng) < 0.5)
              mixed[i] = other[i];
          if (space->isValid(mixed))
            child = mixed;
        }
        children.push_back(std::move(child));
      }
      population = std::move(children);
    }
    if (llvm::Expected<std::vector<double>> scores = offerAll(); !scores)
      return scores.takeError();
    return top.configs();
  }
};
} // namespace

std::unique_ptr<SearchStrategy>
mlir::dltune::createEvolutionarySearch(const StrategyOptions &options) {
  return std::make_unique<EvolutionarySearch>(options);
}
