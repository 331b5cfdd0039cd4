//===- GuidedSamplingTest.cpp - Stepwise regression and guided samples ---===//

#include "dltune/Tuning/Transfer/GuidedSampling.h"
#include "dltune/Tuning/Transfer/TransferSearch.h"

#include "gtest/gtest.h"

#include <random>
#include <set>

using namespace mlir::dltune;

namespace {
/// `rows` random configurations of six knobs drawn from `values`, and
/// labels `label(x) + N(0, noise)`.
struct Sample {
  Eigen::MatrixXd x;
  Eigen::VectorXd y;
};

Sample drawSample(const std::vector<double> &values, size_t rows, double noise,
                  const std::function<double(const Eigen::VectorXd &)> &label) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
  std::normal_distribution<double> gauss(0, noise);
  Sample s{Eigen::MatrixXd(rows, 6), Eigen::VectorXd(rows)};
  for (size_t r = 0; r < rows; ++r) {
    for (int k = 0; k < 6; ++k)
      s.x(r, k) = values[pick(rng)];
    s.y(r) = label(s.x.row(r).transpose()) + gauss(rng);
  }
  return s;
}

std::set<std::pair<size_t, size_t>> termSet(const StepwiseRegression &model) {
  std::set<std::pair<size_t, size_t>> out;
  for (const RegressionTerm &t : model.terms)
    out.insert({t.first, t.second});
  return out;
}

/// Knobs x1..x<count>, each with `values`.
std::vector<Knob> numberedKnobs(size_t count, const std::vector<int64_t> &values) {
  std::vector<Knob> knobs;
  for (size_t k = 1; k <= count; ++k)
    knobs.push_back({"x" + std::to_string(k), values});
  return knobs;
}

} // namespace

TEST(StudentT, TwoSidedPValuesMatchTables) {
  EXPECT_NEAR(studentTTwoSidedPValue(12.706, 1), 0.05, 1e-4);
  EXPECT_NEAR(studentTTwoSidedPValue(2.228, 10), 0.05, 1e-4);
  EXPECT_NEAR(studentTTwoSidedPValue(-2.228, 10), 0.05, 1e-4);
  EXPECT_NEAR(studentTTwoSidedPValue(2.576, 1e6), 0.01, 1e-4);
  EXPECT_NEAR(studentTTwoSidedPValue(0, 5), 1, 1e-12);
  EXPECT_EQ(studentTTwoSidedPValue(INFINITY, 5), 0);
}

TEST(StepwiseRegression, RetainsExactlyTheTermsThatExplainTheLabel) {
  // y = 3 x1 + 2 x1 x2 + noise; x3..x6 are irrelevant. On the centred
  // knobs x1 x2 = (x1 - m)(x2 - m) + m x1 + m x2 - m^2, so x2 has a real
  // main effect here too.
  Sample s = drawSample({1, 2, 3, 4, 5}, 400, 1.0,
                        [](const Eigen::VectorXd &x) { return 3 * x(0) + 2 * x(0) * x(1); });
  llvm::Expected<StepwiseRegression> model = fitStepwiseRegression(s.x, s.y);
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  std::set<std::pair<size_t, size_t>> expected = {{0, 0}, {1, 1}, {0, 1}};
  EXPECT_EQ(termSet(*model), expected) << model->formatTerms(numberedKnobs(6, {}));
  EXPECT_GT(model->rSquared, 0.95);
  EXPECT_EQ(model->getInfluentialKnobs(), (std::vector<size_t>{0, 1}));
  for (double p : model->pValues)
    EXPECT_LT(p, 0.05);
}

TEST(StepwiseRegression, KeepsTheMainEffectsOfARetainedInteraction) {
  // Knobs centred on 0: x2 has no effect of its own, only through x1 x2.
  // Hierarchy (as R's step()) keeps x2 under the interaction although its
  // own coefficient is not significant.
  Sample s = drawSample({-2, -1, 0, 1, 2}, 400, 1.0,
                        [](const Eigen::VectorXd &x) { return 3 * x(0) + 2 * x(0) * x(1); });
  llvm::Expected<StepwiseRegression> model = fitStepwiseRegression(s.x, s.y);
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  std::set<std::pair<size_t, size_t>> expected = {{0, 0}, {1, 1}, {0, 1}};
  EXPECT_EQ(termSet(*model), expected) << model->formatTerms(numberedKnobs(6, {}));
  for (size_t i = 0; i < model->terms.size(); ++i)
    if (model->terms[i] == RegressionTerm{1, 1}) {
      EXPECT_GT(model->pValues[i], 0.05);
    }
}

TEST(StepwiseRegression, LeavesOutSignificantButTinyEffects) {
  // x3's effect is certain (t ~ 30 on 2000 rows) but explains 0.03% of the
  // variance: the forward step's R^2 gain threshold keeps it out, so the
  // sampler is not spread over knobs that hardly matter.
  Sample s = drawSample({1, 2, 3, 4, 5}, 2000, 0.1,
                        [](const Eigen::VectorXd &x) { return 3 * x(0) + 0.05 * x(2); });
  llvm::Expected<StepwiseRegression> model = fitStepwiseRegression(s.x, s.y);
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  EXPECT_EQ(termSet(*model), (std::set<std::pair<size_t, size_t>>{{0, 0}}));
  StepwiseOptions everyGain;
  everyGain.minRSquaredGain = 0;
  llvm::Expected<StepwiseRegression> loose = fitStepwiseRegression(s.x, s.y, everyGain);
  ASSERT_TRUE(static_cast<bool>(loose)) << llvm::toString(loose.takeError());
  EXPECT_TRUE(termSet(*loose).count({2, 2}));
}

TEST(StepwiseRegression, EliminatesTermsThatEnteredOnChance) {
  // 40 noisy rows: irrelevant terms gain over 1% of R^2 by chance and
  // enter; backward elimination removes them as not significant.
  Sample s = drawSample({1, 2, 3, 4, 5}, 40, 3.0,
                        [](const Eigen::VectorXd &x) { return 3 * x(0); });
  llvm::Expected<StepwiseRegression> model = fitStepwiseRegression(s.x, s.y);
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  EXPECT_EQ(termSet(*model), (std::set<std::pair<size_t, size_t>>{{0, 0}}))
      << model->formatTerms(numberedKnobs(6, {}));
  StepwiseOptions keepAll;
  keepAll.maxPValue = 1;
  llvm::Expected<StepwiseRegression> forwardOnly = fitStepwiseRegression(s.x, s.y, keepAll);
  ASSERT_TRUE(static_cast<bool>(forwardOnly)) << llvm::toString(forwardOnly.takeError());
  EXPECT_GT(forwardOnly->terms.size(), 1u) << forwardOnly->formatTerms(numberedKnobs(6, {}));
}

TEST(StepwiseRegression, DropsTermsBelowTheCoefficientCutAndNeedsRows) {
  Sample s = drawSample({1, 2, 3, 4, 5}, 400, 0.5,
                        [](const Eigen::VectorXd &x) { return 3 * x(0) + 0.5 * x(2); });
  StepwiseOptions options;
  // x3's coefficient per standard deviation is ~0.7, x1's ~4.2.
  options.minAbsCoefficient = 2;
  llvm::Expected<StepwiseRegression> model = fitStepwiseRegression(s.x, s.y, options);
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  EXPECT_EQ(termSet(*model), (std::set<std::pair<size_t, size_t>>{{0, 0}}));
  llvm::Expected<StepwiseRegression> tiny =
      fitStepwiseRegression(s.x.topRows(2), s.y.topRows(2));
  EXPECT_FALSE(static_cast<bool>(tiny));
  llvm::consumeError(tiny.takeError());
}

TEST(GuidedSampler, VariesTheKnobsOfTheRetainedTerms) {
  llvm::Expected<SearchSpace> space = SearchSpace::create(numberedKnobs(6, {1, 2, 4, 8}), {}, {});
  ASSERT_TRUE(static_cast<bool>(space)) << llvm::toString(space.takeError());
  StepwiseRegression model;
  model.terms = {{0, 0}, {1, 1}, {0, 1}};
  std::mt19937_64 rng(11);
  // One round: a block of 4 for x1, 4 for x2, 16 for x1:x2.
  std::vector<Config> sample = sampleGuidedConfigs(*space, model, 24, rng);
  ASSERT_EQ(sample.size(), 24u);
  std::set<int64_t> x1, x2;
  std::set<Config> others;
  for (const Config &c : sample) {
    x1.insert(c[0]);
    x2.insert(c[1]);
    others.insert(Config(c.begin() + 2, c.end()));
  }
  EXPECT_EQ(x1.size(), 4u);
  EXPECT_EQ(x2.size(), 4u);
  // x3..x6 change only between blocks: one base per block.
  EXPECT_LE(others.size(), 3u);
  EXPECT_EQ(std::set<Config>(sample.begin(), sample.end()).size(), sample.size());
}

TEST(GuidedSampler, StaysValidUnderConstraintsAndFillsWithoutTerms) {
  std::vector<Knob> knobs = numberedKnobs(3, {1, 2, 4, 8});
  knobs[2].values = {1, 2};
  llvm::Expected<SearchSpace> space = SearchSpace::create(knobs, {}, {"x1 * x2 <= 16"});
  ASSERT_TRUE(static_cast<bool>(space)) << llvm::toString(space.takeError());
  StepwiseRegression model;
  model.terms = {{0, 0}, {1, 1}, {0, 1}};
  std::mt19937_64 rng(5);
  // More than the valid configurations (13 pairs x 2): each of them, once.
  std::vector<Config> sample = sampleGuidedConfigs(*space, model, 50, rng);
  EXPECT_EQ(sample.size(), 26u);
  for (const Config &c : sample)
    EXPECT_TRUE(space->isValid(c));
  std::vector<Config> random = sampleGuidedConfigs(*space, StepwiseRegression(), 6, rng);
  EXPECT_EQ(random.size(), 6u);
}

TEST(GuidedSamplingTransfer, MeasuresTheGuidedSamplesFirstWithoutAPretrainedModel) {
  llvm::Expected<SearchSpace> space = SearchSpace::create(numberedKnobs(4, {1, 2, 4, 8}), {}, {});
  ASSERT_TRUE(static_cast<bool>(space));
  auto model = std::make_shared<StepwiseRegression>();
  model->terms = {{2, 2}};
  TransferSearchOptions options;
  options.transfer.mode = TransferMode::GuidedSampling;
  options.tuningSetSize = 8;
  options.guidedSampling = model;
  auto log = std::make_shared<TransferLog>();
  llvm::Expected<std::unique_ptr<SearchStrategy>> search =
      createTransferSearch(nullptr, options, log);
  ASSERT_TRUE(static_cast<bool>(search)) << llvm::toString(search.takeError());
  (*search)->initialize(*space, 3);
  TuningHistory history;
  std::vector<Config> first = (*search)->propose(8, history);
  ASSERT_EQ(first.size(), 8u);
  // Two blocks of x3's 4 values (no proxy probes come first).
  std::set<Config> bases;
  std::set<int64_t> x3;
  for (const Config &c : first) {
    x3.insert(c[2]);
    bases.insert({c[0], c[1], c[3]});
  }
  EXPECT_EQ(x3.size(), 4u);
  EXPECT_LE(bases.size(), 2u);

  options.guidedSampling = nullptr;
  llvm::Expected<std::unique_ptr<SearchStrategy>> missing =
      createTransferSearch(nullptr, options, log);
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "transfer 'gs' needs the stepwise regression on the history");
}

TEST(GuidedSamplingTransfer, RegressionOnRecordedHistoryFindsTheKnobThatMatters) {
  // Two devices, one 3x slower; only `a` changes the time, so GS must name
  // a alone.
  auto cache = [](const std::string &device, double scale) {
    std::string text = R"({"device_name": ")" + device +
                       R"(", "kernel_name": "k", "problem_size": [1], "objective": "time",
        "tune_params_keys": ["a", "b"], "tune_params": {"a": [1, 2, 3, 4], "b": [1, 2, 3]},
        "cache": {)";
    bool first = true;
    for (int a = 1; a <= 4; ++a)
      for (int b = 1; b <= 3; ++b) {
        text += std::string(first ? "" : ",") + "\"" + std::to_string(a) + "," +
                std::to_string(b) + "\": {\"a\": " + std::to_string(a) +
                ", \"b\": " + std::to_string(b) +
                ", \"time\": " + std::to_string(scale * std::exp(0.5 * a)) + "}";
        first = false;
      }
    return KernelTunerCache::parse(text + "}}", device);
  };
  llvm::Expected<KernelTunerCache> one = cache("one", 1), two = cache("two", 3);
  ASSERT_TRUE(one && two);
  std::vector<std::string> notes;
  llvm::Expected<StepwiseRegression> model =
      fitGuidedSamplingRegression({*one, *two}, {"one", "two"}, one->knobs, notes);
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  EXPECT_EQ(model->rows, 24u);
  EXPECT_EQ(model->formatTerms(one->knobs), "a");
  // Each device's mean log time is removed: the scale explains nothing.
  EXPECT_NEAR(model->rSquared, 1, 1e-9);
}
