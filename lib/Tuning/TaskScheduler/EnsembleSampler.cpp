//===- EnsembleSampler.cpp - Affine-invariant ensemble MCMC ---------------===//

#include "dltune/Tuning/TaskScheduler/EnsembleSampler.h"

#include <cassert>
#include <cmath>
#include <random>

using namespace mlir::dltune;

EnsembleChain mlir::dltune::runEnsembleSampler(const LogDensity &logDensity,
                                               const std::vector<std::vector<double>> &start,
                                               const EnsembleOptions &options) {
  EnsembleChain chain;
  chain.walkers = start.size();
  chain.dims = start.empty() ? 0 : start[0].size();
  assert(chain.walkers >= 4 && chain.walkers % 2 == 0 && "even number of walkers >= 4");
  const size_t n = chain.walkers, d = chain.dims, half = n / 2;
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double a = options.stretch;

  std::vector<std::vector<double>> x = start;
  std::vector<double> lp(n);
  for (size_t k = 0; k < n; ++k)
    lp[k] = logDensity(x[k]);

  chain.positions.reserve(static_cast<size_t>(options.steps) * n * d);
  size_t accepted = 0, proposed = 0;
  std::vector<double> y(d);
  for (int step = 0; step < options.steps; ++step) {
    // Walkers of one half move using the other half's current positions:
    // the moves of a half are then independent of each other (detailed
    // balance holds for the ensemble).
    for (size_t first = 0; first < 2; ++first) {
      size_t begin = first * half, otherBegin = (1 - first) * half;
      std::uniform_int_distribution<size_t> pickOther(0, half - 1);
      for (size_t k = begin; k < begin + half; ++k) {
        const std::vector<double> &xj = x[otherBegin + pickOther(rng)];
        // z from g(z) ∝ 1/sqrt(z) on [1/a, a] by inverting its CDF.
        double u = unit(rng);
        double z = std::pow((a - 1) * u + 1, 2) / a;
        for (size_t i = 0; i < d; ++i)
          y[i] = xj[i] + z * (x[k][i] - xj[i]);
        double lpy = logDensity(y);
        double logAccept = (static_cast<double>(d) - 1) * std::log(z) + lpy - lp[k];
        ++proposed;
        if (std::isfinite(lpy) && std::log(unit(rng)) < logAccept) {
          x[k] = y;
          lp[k] = lpy;
          ++accepted;
        }
      }
    }
    for (size_t k = 0; k < n; ++k)
      chain.positions.insert(chain.positions.end(), x[k].begin(), x[k].end());
  }
  chain.acceptanceFraction = proposed ? static_cast<double>(accepted) / proposed : 0;
  return chain;
}
