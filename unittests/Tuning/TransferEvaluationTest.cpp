//===- TransferEvaluationTest.cpp - OpML'19's transfer strategies compared ===//

#include "dltune/Tuning/Transfer/TransferEvaluation.h"

#include "gtest/gtest.h"

#include <cmath>
#include <set>

using namespace mlir::dltune;

namespace {
/// A 10 x 8 x 2 space: time depends on x strongly, on y weakly, not on z;
/// the target is the source times 3 (a uniform shift of log-time).
struct Spaces {
  SearchSpace space;
  TimedConfigs source, target;
};

Spaces makeSpaces() {
  llvm::Expected<SearchSpace> space = SearchSpace::create(
      {{"x", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}, {"y", {1, 2, 3, 4, 5, 6, 7, 8}}, {"z", {0, 1}}},
      {}, {});
  EXPECT_TRUE(static_cast<bool>(space));
  Spaces s{std::move(*space), {}, {}};
  for (int64_t x = 1; x <= 10; ++x)
    for (int64_t y = 1; y <= 8; ++y)
      for (int64_t z = 0; z <= 1; ++z) {
        double t = 1 + 0.5 * x * x + 0.2 * y;
        s.source.configs.push_back({x, y, z});
        s.source.timesMs.push_back(t);
        s.target.configs.push_back({x, y, z});
        s.target.timesMs.push_back(3 * t);
      }
  return s;
}

TransferEvalCase evaluate(TransferStrategyKind kind, const Spaces &s, size_t samples,
                          const StepwiseRegression *guided = nullptr, uint64_t seed = 1) {
  std::unique_ptr<FeatureExtractor> features = createKnobFeatureExtractor(s.space);
  llvm::Expected<TransferEvalCase> result = evaluateTransferStrategy(
      kind, "rf", s.source, guided, s.space, s.target, *features, samples, seed);
  EXPECT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  return result ? std::move(*result) : TransferEvalCase();
}
} // namespace

TEST(TransferEvaluation, NamesRoundTrip) {
  for (llvm::StringRef name : {"cold", "dm", "lms", "nlms", "gs"})
    EXPECT_EQ(getTransferStrategyName(*parseTransferStrategyKind(name)), name);
  EXPECT_FALSE(parseTransferStrategyKind("map").has_value());
}

// The source model as is misses the factor 3 (MAPE about 67%); a linear
// shift of log-time learns it from a few target rows.
TEST(TransferEvaluation, LinearShiftLearnsWhatDirectReuseMisses) {
  Spaces s = makeSpaces();
  TransferEvalCase dm = evaluate(TransferStrategyKind::Direct, s, 0);
  EXPECT_TRUE(dm.measuredRows.empty());
  EXPECT_EQ(dm.testRows, 160u);
  EXPECT_NEAR(dm.metrics.mape, 100.0 * 2 / 3, 5);
  EXPECT_GT(dm.metrics.spearman, 0.95); // the order transfers
  TransferEvalCase lms = evaluate(TransferStrategyKind::LinearShift, s, 8);
  EXPECT_EQ(lms.measuredRows.size(), 8u);
  EXPECT_EQ(lms.testRows, 152u);
  EXPECT_LT(lms.metrics.mape, 10);
  EXPECT_NE(lms.shift.find("x source"), std::string::npos);
  TransferEvalCase nlms = evaluate(TransferStrategyKind::NonLinearShift, s, 16);
  EXPECT_LT(nlms.metrics.mape, dm.metrics.mape);
  // Eight random target rows alone know much less than the shifted source.
  TransferEvalCase cold = evaluate(TransferStrategyKind::Cold, s, 8);
  EXPECT_GT(cold.metrics.mape, lms.metrics.mape);
}

// gs measures configurations that vary the knob the stepwise regression
// names (x), and the same seed measures the same rows.
TEST(TransferEvaluation, GuidedSamplingMeasuresTheInfluentialKnob) {
  Spaces s = makeSpaces();
  Eigen::MatrixXd x(s.source.size(), 3);
  Eigen::VectorXd y(s.source.size());
  for (size_t i = 0; i < s.source.size(); ++i) {
    for (int k = 0; k < 3; ++k)
      x(i, k) = static_cast<double>(s.source.configs[i][k]);
    y(i) = std::log(s.source.timesMs[i]);
  }
  llvm::Expected<StepwiseRegression> guided = fitStepwiseRegression(x, y);
  ASSERT_TRUE(static_cast<bool>(guided)) << llvm::toString(guided.takeError());
  ASSERT_FALSE(guided->terms.empty());
  TransferEvalCase gs = evaluate(TransferStrategyKind::GuidedSampling, s, 10, &*guided);
  ASSERT_EQ(gs.measuredRows.size(), 10u);
  std::set<int64_t> xs;
  for (size_t row : gs.measuredRows)
    xs.insert(s.target.configs[row][0]);
  EXPECT_GE(xs.size(), 8u); // x runs through (nearly) all its values
  EXPECT_EQ(evaluate(TransferStrategyKind::GuidedSampling, s, 10, &*guided).measuredRows,
            gs.measuredRows);
  EXPECT_LT(gs.metrics.mape, evaluate(TransferStrategyKind::Cold, s, 10).metrics.mape * 1.5);
}

TEST(TransferEvaluation, RefusesWhatItCannotEvaluate) {
  Spaces s = makeSpaces();
  std::unique_ptr<FeatureExtractor> features = createKnobFeatureExtractor(s.space);
  auto message = [&](TransferStrategyKind kind, const TimedConfigs &history, size_t samples) {
    llvm::Expected<TransferEvalCase> r = evaluateTransferStrategy(
        kind, "rf", history, nullptr, s.space, s.target, *features, samples, 1);
    return r ? std::string("ok") : llvm::toString(r.takeError());
  };
  EXPECT_EQ(message(TransferStrategyKind::Direct, TimedConfigs(), 0),
            "dm needs history to train on");
  EXPECT_EQ(message(TransferStrategyKind::LinearShift, s.source, 2),
            "lms needs at least 3 target samples");
  EXPECT_EQ(message(TransferStrategyKind::Cold, s.source, 160),
            "cannot measure 160 of the target's 160 configurations and keep any to test");
  EXPECT_EQ(message(TransferStrategyKind::GuidedSampling, s.source, 10),
            "gs needs the stepwise regression on the history");
}
