//===- RankCorrelation.cpp - Spearman's rho and Kendall's tau ----------===//

#include "dltune/Tuning/CostModel/CostModel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

double mlir::dltune::spearmanRankCorrelation(const std::vector<double> &x,
                                             const std::vector<double> &y) {
  auto ranks = [](const std::vector<double> &v) {
    std::vector<size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < idx.size(); ++i)
      r[idx[i]] = static_cast<double>(i);
    return r;
  };
  std::vector<double> rx = ranks(x), ry = ranks(y);
  double n = x.size(), d2 = 0;
  for (size_t i = 0; i < x.size(); ++i)
    d2 += (rx[i] - ry[i]) * (rx[i] - ry[i]);
  return 1 - 6 * d2 / (n * (n * n - 1));
}

// O(n^2) pair count: the test sets of model-eval have at most ~20,000 rows,
// well under a second, and the plain count is easy to check by hand.
double mlir::dltune::kendallRankCorrelation(const std::vector<double> &x,
                                            const std::vector<double> &y) {
  double concordantMinusDiscordant = 0, pairsUntiedX = 0, pairsUntiedY = 0;
  size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      double dx = x[i] - x[j], dy = y[i] - y[j];
      if (dx != 0)
        pairsUntiedX += 1;
      if (dy != 0)
        pairsUntiedY += 1;
      if (dx != 0 && dy != 0)
        concordantMinusDiscordant += (dx > 0) == (dy > 0) ? 1 : -1;
    }
  if (pairsUntiedX == 0 || pairsUntiedY == 0)
    return 0;
  return concordantMinusDiscordant / std::sqrt(pairsUntiedX * pairsUntiedY);
}
