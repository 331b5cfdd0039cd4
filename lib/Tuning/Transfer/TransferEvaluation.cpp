//===- TransferEvaluation.cpp - OpML'19's comparison of transfer strategies ===//

#include "dltune/Tuning/Transfer/TransferEvaluation.h"
#include "dltune/Tuning/Transfer/ModelShift.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace mlir::dltune;

std::optional<TransferStrategyKind>
mlir::dltune::parseTransferStrategyKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<TransferStrategyKind>>(name)
      .Case("cold", TransferStrategyKind::Cold)
      .Case("dm", TransferStrategyKind::Direct)
      .Case("lms", TransferStrategyKind::LinearShift)
      .Case("nlms", TransferStrategyKind::NonLinearShift)
      .Case("gs", TransferStrategyKind::GuidedSampling)
      .Default(std::nullopt);
}

llvm::StringRef mlir::dltune::getTransferStrategyName(TransferStrategyKind kind) {
  switch (kind) {
  case TransferStrategyKind::Cold:
    return "cold";
  case TransferStrategyKind::Direct:
    return "dm";
  case TransferStrategyKind::LinearShift:
    return "lms";
  case TransferStrategyKind::NonLinearShift:
    return "nlms";
  case TransferStrategyKind::GuidedSampling:
    return "gs";
  }
  llvm_unreachable("every strategy is named");
}

static std::vector<double> logOf(const std::vector<double> &times) {
  std::vector<double> logs(times.size());
  std::transform(times.begin(), times.end(), logs.begin(), [](double t) { return std::log(t); });
  return logs;
}

/// `samples` rows of `target` that gs's stepwise regression asks for, as
/// indices; where the target has no record of a proposed configuration (or
/// the regression runs dry) random unmeasured rows make up the count.
static std::vector<size_t> getGuidedRows(const StepwiseRegression &guided,
                                         const SearchSpace &space, const TimedConfigs &target,
                                         size_t samples, std::mt19937_64 &rng) {
  std::map<std::string, size_t> rowOf;
  for (size_t i = 0; i < target.size(); ++i)
    rowOf.emplace(space.formatConfig(target.configs[i]), i);
  std::vector<size_t> rows;
  std::set<size_t> taken;
  for (const Config &c : sampleGuidedConfigs(space, guided, samples, rng)) {
    auto it = rowOf.find(space.formatConfig(c));
    if (it != rowOf.end() && taken.insert(it->second).second)
      rows.push_back(it->second);
  }
  std::vector<size_t> rest;
  for (size_t i = 0; i < target.size(); ++i)
    if (!taken.count(i))
      rest.push_back(i);
  std::shuffle(rest.begin(), rest.end(), rng);
  for (size_t i = 0; rows.size() < samples && i < rest.size(); ++i)
    rows.push_back(rest[i]);
  return rows;
}

llvm::Expected<TransferEvalCase> mlir::dltune::evaluateTransferStrategy(
    TransferStrategyKind kind, llvm::StringRef model, const TimedConfigs &history,
    const StepwiseRegression *guided, const SearchSpace &space, const TimedConfigs &target,
    const FeatureExtractor &features, size_t samples, uint64_t seed, int dgpIterations) {
  bool needsHistory = kind == TransferStrategyKind::Direct ||
                      kind == TransferStrategyKind::LinearShift ||
                      kind == TransferStrategyKind::NonLinearShift;
  bool needsSamples = kind != TransferStrategyKind::Direct;
  if (needsHistory && history.size() == 0)
    return makeError(getTransferStrategyName(kind) + " needs history to train on");
  if (needsSamples && samples < 3)
    return makeError(getTransferStrategyName(kind) + " needs at least 3 target samples");
  if (samples >= target.size())
    return makeError("cannot measure " + llvm::Twine(samples) + " of the target's " +
                     llvm::Twine(target.size()) + " configurations and keep any to test");
  if (kind == TransferStrategyKind::GuidedSampling && !guided)
    return makeError("gs needs the stepwise regression on the history");
  if (!history.context.empty() || !target.context.empty())
    return makeError("transfer strategies are compared without device features");

  std::mt19937_64 rng(seed);
  TransferEvalCase result;
  if (kind == TransferStrategyKind::GuidedSampling) {
    result.measuredRows = getGuidedRows(*guided, space, target, samples, rng);
  } else if (needsSamples) {
    std::vector<size_t> order(target.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    result.measuredRows.assign(order.begin(), order.begin() + samples);
  }
  std::set<size_t> measured(result.measuredRows.begin(), result.measuredRows.end());
  TimedConfigs sampled, test;
  for (size_t i : result.measuredRows)
    sampled.appendRow(target, i);
  for (size_t i = 0; i < target.size(); ++i)
    if (!measured.count(i))
      test.appendRow(target, i);
  result.testRows = test.size();

  llvm::Expected<std::unique_ptr<LogTimeRegressor>> learner =
      createLogTimeRegressor(model, seed, dgpIterations);
  if (!learner)
    return learner.takeError();
  const TimedConfigs &trainOn = needsHistory ? history : sampled;
  if (llvm::Error e = (*learner)->fit(extractFeatures(features, trainOn), logOf(trainOn.timesMs)))
    return std::move(e);
  std::vector<double> testPrediction, variance;
  if (llvm::Error e =
          (*learner)->predict(extractFeatures(features, test), testPrediction, variance))
    return std::move(e);

  if (kind == TransferStrategyKind::LinearShift || kind == TransferStrategyKind::NonLinearShift) {
    // The shift maps the source model's prediction of a configuration to
    // the target's measured log-time.
    std::vector<double> sampledPrediction;
    if (llvm::Error e =
            (*learner)->predict(extractFeatures(features, sampled), sampledPrediction, variance))
      return std::move(e);
    std::vector<double> sampledLogs = logOf(sampled.timesMs);
    if (kind == TransferStrategyKind::LinearShift) {
      llvm::Expected<LinearShift> shift = fitLinearShift(sampledPrediction, sampledLogs);
      if (!shift)
        return shift.takeError();
      for (double &p : testPrediction)
        p = shift->intercept + shift->slope * p;
      result.shift = llvm::formatv("target = {0:f3} + {1:f3} x source", shift->intercept,
                                   shift->slope)
                         .str();
    } else {
      // A forest of one input, as ModelShift's nlms; its trees' spread is
      // not a variance of the transfer, so it is dropped.
      llvm::Expected<std::unique_ptr<LogTimeRegressor>> forest =
          createLogTimeRegressor("rf", seed);
      if (!forest)
        return forest.takeError();
      FeatureMatrix x, y;
      x.cols = y.cols = 1;
      for (double p : sampledPrediction)
        x.data.push_back(static_cast<float>(p));
      for (double p : testPrediction)
        y.data.push_back(static_cast<float>(p));
      if (llvm::Error e = (*forest)->fit(x, sampledLogs))
        return std::move(e);
      if (llvm::Error e = (*forest)->predict(y, testPrediction, variance))
        return std::move(e);
    }
    variance.clear();
  }
  // A transferred model's variance says nothing about the target (dm) or
  // belongs to another quantity (shifts): only the learner's own counts.
  if (kind == TransferStrategyKind::Direct)
    variance.clear();
  result.metrics = computePredictionMetrics(logOf(test.timesMs), testPrediction, variance);
  return result;
}
