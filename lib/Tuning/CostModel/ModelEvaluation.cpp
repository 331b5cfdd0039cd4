//===- ModelEvaluation.cpp - Cost models scored on an unseen space --------===//

#include "dltune/Tuning/CostModel/ModelEvaluation.h"

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/Transfer/DeviceMean.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

using namespace mlir::dltune;

static std::vector<size_t> bestFirst(const std::vector<double> &logTime, size_t count) {
  std::vector<size_t> order(logTime.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + count, order.end(),
                    [&](size_t a, size_t b) { return logTime[a] < logTime[b]; });
  order.resize(count);
  return order;
}

double mlir::dltune::topFractionRecall(const std::vector<double> &trueLogTime,
                                       const std::vector<double> &predictedLogTime,
                                       double fraction) {
  size_t n = trueLogTime.size();
  if (n == 0)
    return 0;
  size_t count = std::clamp<size_t>(static_cast<size_t>(std::ceil(fraction * n)), 1, n);
  std::vector<size_t> truth = bestFirst(trueLogTime, count);
  std::vector<size_t> predicted = bestFirst(predictedLogTime, count);
  std::sort(truth.begin(), truth.end());
  std::sort(predicted.begin(), predicted.end());
  std::vector<size_t> common;
  std::set_intersection(truth.begin(), truth.end(), predicted.begin(), predicted.end(),
                        std::back_inserter(common));
  return static_cast<double>(common.size()) / count;
}

PredictionMetrics
mlir::dltune::computePredictionMetrics(const std::vector<double> &trueLogTime,
                                       const std::vector<double> &predictedLogTime,
                                       const std::vector<double> &predictedVariance) {
  PredictionMetrics m;
  size_t n = trueLogTime.size();
  if (n == 0)
    return m;
  double squared = 0, percent = 0;
  for (size_t i = 0; i < n; ++i) {
    double error = predictedLogTime[i] - trueLogTime[i];
    squared += error * error;
    percent += std::fabs(std::exp(predictedLogTime[i]) / std::exp(trueLogTime[i]) - 1);
  }
  m.rmse = std::sqrt(squared / n);
  m.mape = 100 * percent / n;
  m.spearman = spearmanRankCorrelation(predictedLogTime, trueLogTime);
  m.kendall = kendallRankCorrelation(predictedLogTime, trueLogTime);
  m.top1Recall = topFractionRecall(trueLogTime, predictedLogTime, 0.01);
  if (predictedVariance.size() == n) {
    // Two-sided 90% interval of a Gaussian: mean +- 1.6449 sd.
    const double z90 = 1.6448536269514722;
    double nll = 0, inside = 0;
    for (size_t i = 0; i < n; ++i) {
      double variance = std::max(predictedVariance[i], 1e-12);
      double error = trueLogTime[i] - predictedLogTime[i];
      nll += 0.5 * (std::log(2 * M_PI * variance) + error * error / variance);
      inside += std::fabs(error) <= z90 * std::sqrt(variance);
    }
    m.nll = nll / n;
    m.coverage90 = inside / n;
  }
  return m;
}

namespace {
/// dgp and gp: labels exp(-(log-time - offset)) are a throughput the GP
/// wrapper regresses in log space; its latent moments give log-time back.
class GaussianProcessLogTime : public LogTimeRegressor {
public:
  explicit GaussianProcessLogTime(std::unique_ptr<CostModel> model) : model(std::move(model)) {}
  llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &logTimes) override {
    offset = *std::min_element(logTimes.begin(), logTimes.end());
    std::vector<double> labels(logTimes.size());
    for (size_t i = 0; i < labels.size(); ++i)
      labels[i] = std::exp(-(logTimes[i] - offset));
    return model->fit(x, labels);
  }
  llvm::Error predict(const FeatureMatrix &x, std::vector<double> &mean,
                      std::vector<double> &variance) const override {
    if (llvm::Error e = predictLogLabel(*model, x, mean, variance, /*includeNoise=*/true))
      return e;
    for (double &m : mean)
      m = offset - m;
    return llvm::Error::success();
  }

private:
  std::unique_ptr<CostModel> model;
  double offset = 0;
};

/// xgb and rf: squared-error regression on -log-time (higher is better, as
/// the cost models' labels and XGBoost's early stopping on recall expect).
class TreeLogTime : public LogTimeRegressor {
public:
  explicit TreeLogTime(std::unique_ptr<CostModel> model) : model(std::move(model)) {}
  llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &logTimes) override {
    std::vector<double> labels(logTimes.size());
    for (size_t i = 0; i < labels.size(); ++i)
      labels[i] = -logTimes[i];
    return model->fit(x, labels);
  }
  llvm::Error predict(const FeatureMatrix &x, std::vector<double> &mean,
                      std::vector<double> &variance) const override {
    variance.clear();
    if (model->hasVariance()) {
      if (llvm::Error e = model->predictWithVariance(x, mean, variance))
        return e;
    } else {
      llvm::Expected<std::vector<double>> predicted = model->predict(x);
      if (!predicted)
        return predicted.takeError();
      mean = std::move(*predicted);
    }
    for (double &m : mean)
      m = -m;
    return llvm::Error::success();
  }

private:
  std::unique_ptr<CostModel> model;
};
} // namespace

llvm::Expected<std::unique_ptr<LogTimeRegressor>>
mlir::dltune::createLogTimeRegressor(llvm::StringRef model, uint64_t seed, int dgpIterations,
                                     int dgpInducing, int dgpHidden) {
  llvm::StringRef costModelName;
  if (model == "dgp" || model == "gp" || model == "rf")
    costModelName = model;
  else if (model == "xgb")
    costModelName = "xgb-reg";
  else
    return makeError("unknown model '" + model + "' (known: dgp, gp, xgb, rf)");
  llvm::Expected<std::unique_ptr<CostModel>> costModel = createCostModel(costModelName, seed);
  if (!costModel)
    return costModel.takeError();
  if (model == "dgp" && (dgpIterations > 0 || dgpInducing > 0 || dgpHidden > 0)) {
    DeepGPOptions options;
    options.seed = seed;
    if (dgpIterations > 0)
      options.iterations = dgpIterations;
    if (dgpInducing > 0)
      options.inducingPoints = dgpInducing;
    if (dgpHidden > 0)
      options.hiddenDims = dgpHidden;
    *costModel = createDeepGPCostModel(options);
  }
  if (model == "dgp" || model == "gp")
    return std::make_unique<GaussianProcessLogTime>(std::move(*costModel));
  return std::make_unique<TreeLogTime>(std::move(*costModel));
}

llvm::Expected<ModelEvalCase>
mlir::dltune::evaluateModelOnTarget(llvm::StringRef model, const TimedConfigs &history,
                                    const TimedConfigs &target, const FeatureExtractor &features,
                                    size_t targetSamples, uint64_t seed,
                                    const ModelEvalOptions &options) {
  if (targetSamples >= target.size())
    return makeError("cannot sample " + llvm::Twine(targetSamples) + " of the target's " +
                     llvm::Twine(target.size()) + " valid configurations and keep any to test");
  if (history.size() + targetSamples == 0)
    return makeError("nothing to train on: no history and no target samples");
  if (history.size() && history.context.empty() != target.context.empty())
    return makeError("history and target must both have device features or neither");
  if (options.deviceMean && target.context.empty())
    return makeError("a device mean needs rows with device features");
  if (options.calibrate && history.size() == 0)
    return makeError("calibration needs history to train on (the target samples calibrate)");
  if (options.calibrate && targetSamples == 0)
    return makeError("calibration needs target samples to calibrate on");
  std::vector<size_t> order(target.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);

  TimedConfigs train = history;
  TimedConfigs test, calibration;
  for (size_t i = 0; i < order.size(); ++i)
    (i < targetSamples ? (options.calibrate ? calibration : train) : test)
        .appendRow(target, order[i]);
  auto logOf = [](const std::vector<double> &times) {
    std::vector<double> logs(times.size());
    std::transform(times.begin(), times.end(), logs.begin(),
                   [](double t) { return std::log(t); });
    return logs;
  };
  std::vector<double> trainLogs = logOf(train.timesMs);
  std::optional<DeviceMean> deviceMean;
  if (options.deviceMean) {
    deviceMean = DeviceMean::fit(train.context, trainLogs);
    for (size_t i = 0; i < train.size(); ++i)
      trainLogs[i] -= deviceMean->predict(train.context[i]);
  }

  llvm::Expected<std::unique_ptr<LogTimeRegressor>> regressor =
      createLogTimeRegressor(model, seed, options.dgpIterations, options.dgpInducing,
                             options.dgpHidden);
  if (!regressor)
    return regressor.takeError();
  ModelEvalCase result;
  result.trainRows = train.size();
  result.testRows = test.size();
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error e = (*regressor)->fit(extractFeatures(features, train), trainLogs))
    return std::move(e);
  result.fitSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<double> mean, variance;
  if (llvm::Error e = (*regressor)->predict(extractFeatures(features, test), mean, variance))
    return std::move(e);
  if (deviceMean) {
    for (size_t i = 0; i < test.size(); ++i)
      mean[i] += deviceMean->predict(test.context[i]);
    result.targetDeviceMean = deviceMean->predict(test.context.front());
  }
  result.metrics = computePredictionMetrics(logOf(test.timesMs), mean, variance);
  if (options.calibrate) {
    std::vector<double> calMean, calVariance;
    if (llvm::Error e =
            (*regressor)->predict(extractFeatures(features, calibration), calMean, calVariance))
      return std::move(e);
    if (deviceMean)
      for (size_t i = 0; i < calibration.size(); ++i)
        calMean[i] += deviceMean->predict(calibration.context[i]);
    result.calibration =
        PredictiveCalibration::fit(logOf(calibration.timesMs), calMean, calVariance);
    result.calibration.apply(mean, variance);
    result.calibrated = computePredictionMetrics(logOf(test.timesMs), mean, variance);
  }
  return result;
}
