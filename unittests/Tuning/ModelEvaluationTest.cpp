//===- ModelEvaluationTest.cpp - model-eval metrics and knob matching -----===//

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/CostModel/ModelEvaluation.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::dltune;

TEST(RankCorrelation, KendallCountsPairs) {
  // One discordant pair (indices 1, 2) of six: (5 - 1) / 6.
  EXPECT_NEAR(kendallRankCorrelation({1, 2, 3, 4}, {1, 3, 2, 4}), 4.0 / 6, 1e-12);
  // tau-b: one pair tied in x, one tied in y, the other four concordant:
  // 4 / sqrt(5 * 5).
  EXPECT_NEAR(kendallRankCorrelation({1, 2, 2, 3}, {1, 2, 3, 3}), 0.8, 1e-12);
  EXPECT_NEAR(kendallRankCorrelation({1, 2, 3}, {3, 2, 1}), -1, 1e-12);
  EXPECT_EQ(kendallRankCorrelation({1, 1, 1}, {1, 2, 3}), 0);
}

TEST(ModelEvaluation, RmseOnLogTime) {
  PredictionMetrics m = computePredictionMetrics({0, 1, 2}, {0, 1, 3}, {});
  EXPECT_NEAR(m.rmse, std::sqrt(1.0 / 3), 1e-12);
}

TEST(ModelEvaluation, MapeOnTime) {
  // Times 1 and 2 ms predicted as 1.1 and 2 ms: (10% + 0%) / 2.
  PredictionMetrics m =
      computePredictionMetrics({0, std::log(2.0)}, {std::log(1.1), std::log(2.0)}, {});
  EXPECT_NEAR(m.mape, 5, 1e-9);
}

TEST(ModelEvaluation, RankMetrics) {
  PredictionMetrics m = computePredictionMetrics({1, 2, 3, 4}, {1, 3, 2, 4}, {});
  EXPECT_NEAR(m.spearman, 1 - 6.0 * 2 / (4 * 15), 1e-12);
  EXPECT_NEAR(m.kendall, 4.0 / 6, 1e-12);
  // Best 1% of 4 rows is one row: index 0 both ways.
  EXPECT_EQ(m.top1Recall, 1);
}

TEST(ModelEvaluation, TopFractionRecall) {
  std::vector<double> truth = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<double> predicted = {3, 1, 2, 4, 5, 6, 7, 8, 9, 10};
  // Best 1 (one row): the truth's best is row 0, the prediction's row 1.
  EXPECT_EQ(topFractionRecall(truth, predicted, 0.01), 0);
  // Best 2: {0, 1} against {1, 2}: one in common.
  EXPECT_EQ(topFractionRecall(truth, predicted, 0.2), 0.5);
  EXPECT_EQ(topFractionRecall(truth, predicted, 0.3), 1);
}

TEST(ModelEvaluation, NllAndCoverage) {
  // Errors 0, 1 and 2 under unit variance: density terms 0.5 log(2 pi) +
  // e^2 / 2; 0 and 1 lie inside +-1.645, 2 does not.
  PredictionMetrics m = computePredictionMetrics({0, 1, 2}, {0, 0, 0}, {1, 1, 1});
  ASSERT_TRUE(m.nll && m.coverage90);
  EXPECT_NEAR(*m.nll, 0.5 * std::log(2 * M_PI) + (0 + 0.5 + 2) / 3, 1e-12);
  EXPECT_NEAR(*m.coverage90, 2.0 / 3, 1e-12);
  EXPECT_FALSE(computePredictionMetrics({0, 1}, {0, 1}, {}).nll);
}

TEST(KnobMatching, PermutedSpaceMatchesByName) {
  std::vector<Knob> source = {{"b", {1, 2}}, {"extra", {7, 9}}, {"a", {4, 8}}};
  std::vector<Knob> target = {{"a", {4, 8}}, {"b", {1, 2}}};
  llvm::Expected<KnobMatch> match = matchKnobsByName(source, target, "src");
  ASSERT_TRUE(static_cast<bool>(match)) << llvm::toString(match.takeError());
  EXPECT_EQ(match->toTarget({2, 9, 4}), (Config{4, 2}));
  EXPECT_EQ(match->droppedSourceKnobs, std::vector<std::string>{"extra"});

  llvm::Expected<KnobMatch> missing = matchKnobsByName(target, source, "small");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "'small' has no knob 'extra' of the target space");
}

// A source device whose times are a monotone transform of the target's:
// trained on the source alone, a model should rank the target well.
TEST(ModelEvaluation, ZeroShotOnMonotoneTransform) {
  llvm::Expected<SearchSpace> space =
      SearchSpace::create({{"x", {1, 2, 3, 4, 5, 6, 7, 8}}, {"y", {1, 2, 3, 4, 5, 6}}}, {}, {});
  ASSERT_TRUE(static_cast<bool>(space));
  TimedConfigs source, target;
  for (int64_t x = 1; x <= 8; ++x)
    for (int64_t y = 1; y <= 6; ++y) {
      double t = 1 + std::pow(x - 5.0, 2) + 0.5 * std::pow(y - 2.0, 2);
      target.configs.push_back({x, y});
      target.timesMs.push_back(t);
      source.configs.push_back({x, y});
      source.timesMs.push_back(3 * std::pow(t, 1.2));
    }
  std::unique_ptr<FeatureExtractor> features = createKnobFeatureExtractor(*space);
  llvm::Expected<ModelEvalCase> result =
      evaluateModelOnTarget("xgb", source, target, *features, /*targetSamples=*/8, /*seed=*/1);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->trainRows, 48u + 8u);
  EXPECT_EQ(result->testRows, 40u);
  EXPECT_GT(result->metrics.spearman, 0.9);
  EXPECT_FALSE(result->metrics.nll);

  llvm::Expected<ModelEvalCase> tooMany =
      evaluateModelOnTarget("xgb", source, target, *features, 48, 1);
  ASSERT_FALSE(static_cast<bool>(tooMany));
  llvm::consumeError(tooMany.takeError());
  llvm::Expected<ModelEvalCase> unknown =
      evaluateModelOnTarget("magic", source, target, *features, 0, 1);
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()), "unknown model 'magic' (known: dgp, gp, xgb, rf)");
}
