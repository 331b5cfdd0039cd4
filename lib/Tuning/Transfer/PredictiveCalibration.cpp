//===- PredictiveCalibration.cpp - Recalibrating a transferred model ------===//

#include "dltune/Tuning/Transfer/PredictiveCalibration.h"

#include <algorithm>
#include <cmath>

using namespace mlir::dltune;

/// The standard normal quantile (Acklam's rational approximation, relative
/// error below 1.2e-9: plenty for an interval's width).
static double normalQuantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                             -2.759285104469687e+02, 1.383577518672690e+02,
                             -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                             -1.556989798598866e+02, 6.680131188771972e+01,
                             -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                             -2.400758277161838e+00, -2.549732539343734e+00,
                             4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                             2.445134137142996e+00, 3.754408661907416e+00};
  const double low = 0.02425;
  if (p < low) {
    double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low)
    return -normalQuantile(1 - p);
  double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

PredictiveCalibration PredictiveCalibration::fit(const std::vector<double> &y,
                                                 const std::vector<double> &mean,
                                                 const std::vector<double> &variance,
                                                 double coverage) {
  PredictiveCalibration c;
  std::vector<double> residuals;
  std::vector<double> sd;
  bool withVariance = !variance.empty();
  for (size_t i = 0; i < y.size() && i < mean.size(); ++i) {
    double r = y[i] - mean[i];
    if (!std::isfinite(r))
      continue;
    if (withVariance && !(variance[i] > 0 && std::isfinite(variance[i])))
      continue;
    residuals.push_back(r);
    sd.push_back(withVariance ? std::sqrt(variance[i]) : 1.0);
  }
  c.rows = residuals.size();
  if (residuals.empty())
    return c;
  std::vector<double> sorted = residuals;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  double median = sorted[sorted.size() / 2];
  if (sorted.size() % 2 == 0) {
    double below = *std::max_element(sorted.begin(), sorted.begin() + sorted.size() / 2);
    median = (median + below) / 2;
  }
  c.meanShift = median;
  if (!withVariance)
    return c;
  std::vector<double> scores;
  for (size_t i = 0; i < residuals.size(); ++i)
    scores.push_back(std::fabs(residuals[i] - c.meanShift) / sd[i]);
  std::sort(scores.begin(), scores.end());
  size_t n = scores.size();
  size_t k = static_cast<size_t>(std::ceil(double(n + 1) * coverage));
  if (k > n) {
    k = n;
    c.scaleFromMaximum = true;
  }
  double q = scores[k - 1];
  double z = normalQuantile(0.5 + coverage / 2);
  // Never narrower than zero width: a perfect fit keeps a tiny interval.
  c.scale = std::max(q / z, 1e-6);
  return c;
}

void PredictiveCalibration::apply(std::vector<double> &mean, std::vector<double> &variance) const {
  for (double &m : mean)
    m += meanShift;
  for (double &v : variance)
    v *= scale * scale;
}
