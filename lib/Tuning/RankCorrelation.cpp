//===- RankCorrelation.cpp - Spearman's rho of predictions ----------------===//

#include "dltune/Tuning/CostModel.h"

#include <algorithm>
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
