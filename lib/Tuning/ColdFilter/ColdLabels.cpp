//===- ColdLabels.cpp - Which measured candidates were cold ---------------===//

#include "dltune/Tuning/ColdFilter/ColdLabels.h"

#include <algorithm>
#include <cmath>

using namespace mlir::dltune;

std::vector<bool> mlir::dltune::labelColdByRunningBest(const std::vector<double> &times,
                                                       double factor) {
  std::vector<bool> cold(times.size(), false);
  double best = INFINITY;
  for (size_t i = 0; i < times.size(); ++i) {
    if (!(times[i] > 0) || !std::isfinite(times[i]))
      continue;
    cold[i] = std::isfinite(best) && times[i] > factor * best;
    best = std::min(best, times[i]);
  }
  return cold;
}

std::vector<double> mlir::dltune::getLoessTrend(const std::vector<double> &y, double span) {
  size_t n = y.size();
  std::vector<double> trend(n);
  if (n < 3) {
    for (size_t i = 0; i < n; ++i)
      trend[i] = y[i];
    return trend;
  }
  size_t q = std::clamp<size_t>(static_cast<size_t>(std::ceil(span * double(n))), 3, n);
  for (size_t i = 0; i < n; ++i) {
    // The q nearest indices form a window around i.
    size_t lo = i >= q / 2 ? i - q / 2 : 0;
    lo = std::min(lo, n - q);
    size_t hi = lo + q; // exclusive
    double maxDist = std::max(double(i - lo), double(hi - 1 - i)) + 1;
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t j = lo; j < hi; ++j) {
      double u = std::fabs(double(j) - double(i)) / maxDist;
      double w = std::pow(1 - u * u * u, 3);
      double x = double(j) - double(i);
      sw += w;
      sx += w * x;
      sy += w * y[j];
      sxx += w * x * x;
      sxy += w * x * y[j];
    }
    double det = sw * sxx - sx * sx;
    // The fit's value at x = 0 (the point itself).
    trend[i] = std::fabs(det) > 1e-12 ? (sy * sxx - sx * sxy) / det : sy / sw;
  }
  return trend;
}

std::vector<bool> mlir::dltune::labelColdByTrend(const std::vector<double> &times, double span,
                                                 double margin) {
  std::vector<size_t> okIndex;
  std::vector<double> logs;
  for (size_t i = 0; i < times.size(); ++i)
    if (times[i] > 0 && std::isfinite(times[i])) {
      okIndex.push_back(i);
      logs.push_back(std::log(times[i]));
    }
  std::vector<bool> cold(times.size(), false);
  std::vector<double> trend = getLoessTrend(logs, span);
  for (size_t k = 0; k < okIndex.size(); ++k)
    cold[okIndex[k]] = logs[k] > trend[k] + std::log1p(margin);
  return cold;
}
