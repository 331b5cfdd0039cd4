//===- DeviceMean.cpp - Log-time offset explained by device features ------===//

#include "dltune/Tuning/Transfer/DeviceMean.h"

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <map>

using namespace mlir::dltune;

namespace {
/// Ridge regression with an unpenalised intercept on standardised columns.
struct RidgeFit {
  double intercept = 0;
  Eigen::VectorXd weights;
};

RidgeFit fitRidge(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, double penalty) {
  RidgeFit fit;
  double meanY = y.mean();
  Eigen::RowVectorXd meanX = x.colwise().mean();
  Eigen::MatrixXd centred = x.rowwise() - meanX;
  // Dual form: there are fewer devices than features.
  Eigen::MatrixXd gram = centred * centred.transpose();
  gram.diagonal().array() += penalty;
  Eigen::VectorXd alpha = gram.ldlt().solve((y.array() - meanY).matrix());
  fit.weights = centred.transpose() * alpha;
  fit.intercept = meanY - meanX.dot(fit.weights);
  return fit;
}
} // namespace

DeviceMean DeviceMean::fit(const std::vector<std::vector<float>> &devices,
                           const std::vector<double> &logTimes) {
  DeviceMean result;
  std::map<std::vector<float>, std::pair<double, size_t>> sums;
  for (size_t i = 0; i < devices.size() && i < logTimes.size(); ++i) {
    auto &[sum, count] = sums[devices[i]];
    sum += logTimes[i];
    ++count;
  }
  result.deviceCount = sums.size();
  if (sums.empty())
    return result;
  size_t cols = sums.begin()->first.size();
  size_t n = sums.size();
  Eigen::MatrixXd x(n, cols);
  Eigen::VectorXd y(n);
  size_t row = 0;
  for (const auto &[features, sc] : sums) {
    for (size_t c = 0; c < cols; ++c)
      x(row, c) = features[c];
    y(row++) = sc.first / static_cast<double>(sc.second);
  }
  // Standardise over devices; a constant column carries nothing.
  result.featureMean.assign(cols, 0);
  result.featureScale.assign(cols, 0);
  for (size_t c = 0; c < cols; ++c) {
    double mean = x.col(c).mean();
    double sd = std::sqrt((x.col(c).array() - mean).square().mean());
    result.featureMean[c] = mean;
    result.featureScale[c] = sd > 1e-9 ? 1.0 / sd : 0.0;
    x.col(c) = (x.col(c).array() - mean) * result.featureScale[c];
  }
  result.weights.assign(cols, 0);
  result.intercept = y.mean();
  if (n < 2)
    return result;
  double penalty = 1.0;
  if (n >= 3) {
    // Leave one device out: the error that matters is on a device not seen.
    double bestError = std::numeric_limits<double>::infinity();
    for (double candidate : {1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0}) {
      double error = 0;
      for (size_t out = 0; out < n; ++out) {
        Eigen::MatrixXd xTrain(n - 1, cols);
        Eigen::VectorXd yTrain(n - 1);
        for (size_t i = 0, k = 0; i < n; ++i)
          if (i != out) {
            xTrain.row(k) = x.row(i);
            yTrain(k++) = y(i);
          }
        RidgeFit fit = fitRidge(xTrain, yTrain, candidate);
        double predicted = fit.intercept + x.row(out).dot(fit.weights);
        error += (predicted - y(out)) * (predicted - y(out));
      }
      if (error < bestError) {
        bestError = error;
        penalty = candidate;
      }
    }
  }
  RidgeFit fit = fitRidge(x, y, penalty);
  result.penalty = penalty;
  result.intercept = fit.intercept;
  for (size_t c = 0; c < cols; ++c)
    result.weights[c] = fit.weights(c);
  return result;
}

double DeviceMean::predict(const std::vector<float> &device) const {
  double value = intercept;
  for (size_t c = 0; c < weights.size() && c < device.size(); ++c)
    value += weights[c] * (device[c] - featureMean[c]) * featureScale[c];
  return value;
}
