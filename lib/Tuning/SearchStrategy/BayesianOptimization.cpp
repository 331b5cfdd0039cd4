//===- BayesianOptimization.cpp - Expected improvement over a model -------===//
//
// Expected improvement (xi = 0.01) over the mean and variance of a model
// that has a variance (the factory refuses others); candidates are 2000
// random configurations and the neighbours of the 8 best measured ones.
//
//===----------------------------------------------------------------------===//

#include "SearchStrategy/ModelBasedSearch.h"

#include <algorithm>
#include <cmath>

using namespace mlir::dltune;

namespace {
class BayesianOptimization : public ModelBasedStrategy {
public:
  using ModelBasedStrategy::ModelBasedStrategy;
  llvm::StringRef getName() const override { return "bo"; }

protected:
  llvm::Expected<std::vector<Config>> findMaximums(const TuningHistory &history,
                                                   size_t k) override {
    // Candidates: random configurations and neighbours of the best measured.
    std::set<Config> pool;
    for (int i = 0; i < 2000; ++i)
      if (std::optional<Config> c = space->sample(rng); c && !history.contains(*c))
        pool.insert(*c);
    std::vector<std::pair<double, size_t>> best;
    for (size_t i = 0; i < history.records.size(); ++i)
      if (history.records[i].isOk())
        best.push_back({history.records[i].timeMs, i});
    std::sort(best.begin(), best.end());
    for (size_t b = 0; b < best.size() && b < 8; ++b)
      for (const Config &n : space->getNeighbours(history.configs[best[b].second]))
        if (!history.contains(n))
          pool.insert(n);
    std::vector<Config> candidates(pool.begin(), pool.end());
    if (candidates.empty())
      return std::vector<Config>();
    std::vector<double> mean, variance;
    if (llvm::Error e =
            model->predictWithVariance(options.features->extractAll(candidates), mean, variance))
      return std::move(e);
    // Labels are normalised: the best measured configuration scores 1.
    const double incumbent = 1.0, xi = 0.01;
    TopK top(k);
    for (size_t i = 0; i < candidates.size(); ++i) {
      double sigma = std::sqrt(variance[i]);
      double improve = mean[i] - incumbent - xi;
      double ei;
      if (sigma < 1e-12) {
        // The trees agree: EI is the plain improvement; ties by the mean.
        ei = std::max(improve, 0.0) + 1e-9 * mean[i];
      } else {
        double z = improve / sigma;
        double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
        double pdf = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
        ei = improve * cdf + sigma * pdf;
      }
      top.offer(ei, candidates[i]);
    }
    return top.configs();
  }
};
} // namespace

std::unique_ptr<SearchStrategy>
mlir::dltune::createBayesianOptimization(const StrategyOptions &options) {
  return std::make_unique<BayesianOptimization>(options);
}
