//===- SimulatedAnnealing.cpp - AutoTVM's SimulatedAnnealingOptimizer -----===//
//
// 128 persistent parallel chains, 500 iterations, temperature 1 -> 0
// linearly, acceptance exp(min((new - old) / (t + 1e-5), 1)), random-walk
// moves, a heap of the best unmeasured points that ends the search after
// 50 iterations without a change, and, as AutoTVM does, only points with a
// non-negative predicted score in the plan.
//
//===----------------------------------------------------------------------===//

#include "SearchStrategy/ModelBasedSearch.h"

#include <cmath>

using namespace mlir::dltune;

namespace {
class SimulatedAnnealing : public ModelBasedStrategy {
public:
  using ModelBasedStrategy::ModelBasedStrategy;
  llvm::StringRef getName() const override { return "sa"; }

protected:
  llvm::Expected<std::vector<Config>> findMaximums(const TuningHistory &history,
                                                   size_t k) override {
    constexpr int kIterations = 500, kEarlyStop = 50;
    constexpr size_t kChains = 128;
    // Persistent chains: continue from where the last plan left them.
    if (points.size() != kChains) {
      points.clear();
      for (size_t i = 0; i < kChains; ++i)
        if (std::optional<Config> c = space->sample(rng))
          points.push_back(*c);
      if (points.empty())
        return std::vector<Config>();
    }
    llvm::Expected<std::vector<double>> scores = score(points);
    if (!scores)
      return scores.takeError();
    TopK top(k);
    for (size_t i = 0; i < points.size(); ++i)
      if (!history.contains(points[i]))
        top.offer((*scores)[i], points[i]);
    double t = 1.0;
    const double cool = 1.0 / (kIterations + 1);
    int lastModified = 0;
    std::uniform_real_distribution<double> coin(0, 1);
    for (int it = 0; it < kIterations && it < lastModified + kEarlyStop; ++it) {
      std::vector<Config> next(points.size());
      for (size_t i = 0; i < points.size(); ++i)
        next[i] = randomWalk(points[i]);
      llvm::Expected<std::vector<double>> nextScores = score(next);
      if (!nextScores)
        return nextScores.takeError();
      for (size_t i = 0; i < points.size(); ++i) {
        double accept = std::exp(std::min(((*nextScores)[i] - (*scores)[i]) / (t + 1e-5), 1.0));
        if (coin(rng) < accept) {
          points[i] = next[i];
          (*scores)[i] = (*nextScores)[i];
        }
        if (!history.contains(next[i]) && top.offer((*nextScores)[i], next[i]))
          lastModified = it;
      }
      t -= cool;
    }
    // AutoTVM keeps only entries with a score >= 0; the rest of the plan is
    // filled with random configurations.
    std::vector<Config> plan;
    for (auto &[s, c] : top.descending())
      if (s >= 0)
        plan.push_back(c);
    return plan;
  }

private:
  std::vector<Config> points;
};
} // namespace

std::unique_ptr<SearchStrategy>
mlir::dltune::createSimulatedAnnealing(const StrategyOptions &options) {
  return std::make_unique<SimulatedAnnealing>(options);
}
