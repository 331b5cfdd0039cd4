//===- CostModelTest.cpp - Cost models, features and model-based search ---===//

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/MeasureCallback/TuningLoop.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <unistd.h>

using namespace mlir::dltune;

namespace {
std::vector<int64_t> range(int64_t n) {
  std::vector<int64_t> v(n);
  std::iota(v.begin(), v.end(), 1);
  return v;
}

/// Time in ms of a smooth synthetic kernel, best (1 ms) at a=5, b=11, c=2.
double syntheticTime(const Config &c) {
  double da = c[0] - 5.0, db = c[1] - 11.0, dc = c[2] - 2.0;
  return 1.0 + 0.05 * da * da + 0.02 * db * db + 0.3 * dc * dc + 0.01 * da * db;
}

SearchSpace syntheticSpace() {
  return llvm::cantFail(SearchSpace::create(
      {{"a", range(12)}, {"b", range(16)}, {"c", range(4)}}, {}, {"a + b >= 4"}));
}

struct Data {
  std::vector<Config> train, test;
};

Data sampleData(const SearchSpace &space, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<Config> seen;
  Data d;
  while (d.train.size() + d.test.size() < 300) {
    Config c = *space.sample(rng);
    if (!seen.insert(c).second)
      continue;
    (d.train.size() < 200 ? d.train : d.test).push_back(c);
  }
  return d;
}

class SyntheticMeasurer : public Measurer {
public:
  std::vector<MeasureRecord> measure(const std::vector<Config> &configs) override {
    std::vector<MeasureRecord> out;
    for (const Config &c : configs) {
      MeasureRecord r;
      r.timeMs = syntheticTime(c);
      out.push_back(r);
      measured.push_back(c);
    }
    return out;
  }
  double getClockSeconds() const override { return 0; }
  std::vector<Config> measured;
};

class CountingObserver : public StrategyObserver {
public:
  void onModelFit(size_t) override { ++fits; }
  void onModelProposals(size_t count) override { proposals += count; }
  void onModelError(llvm::Error e) override { errors.push_back(llvm::toString(std::move(e))); }
  int fits = 0;
  size_t proposals = 0;
  std::vector<std::string> errors;
};

/// A model whose fits fail, or whose scores come from a fixed function of
/// the knob features (to steer what the optimiser finds).
class ScriptedModel : public CostModel {
public:
  explicit ScriptedModel(bool fitFails, double offset = 0) : fitFails(fitFails), offset(offset) {}
  llvm::StringRef getName() const override { return "scripted"; }
  llvm::Error fit(const FeatureMatrix &, const std::vector<double> &) override {
    if (fitFails)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "scripted fit failure");
    if (predictedRows)
      predictedRows->push_back({}); // marks a fit
    trained = true;
    return llvm::Error::success();
  }
  llvm::Expected<std::vector<double>> predict(const FeatureMatrix &x) const override {
    // Knob features are (value, log2 value) per knob.
    std::vector<double> y;
    if (predictedRows)
      for (size_t r = 0; r < x.rows(); ++r)
        predictedRows->push_back(std::vector<float>(x.row(r), x.row(r) + x.cols));
    for (size_t r = 0; r < x.rows(); ++r)
      y.push_back(offset + 1.0 / syntheticTime({static_cast<int64_t>(x.row(r)[0]),
                                                static_cast<int64_t>(x.row(r)[2]),
                                                static_cast<int64_t>(x.row(r)[4])}));
    return y;
  }
  bool isTrained() const override { return trained; }
  llvm::Error save(const std::string &) const override { return llvm::Error::success(); }
  llvm::Error load(const std::string &) override { return llvm::Error::success(); }

  /// Every row predicted, when set.
  std::shared_ptr<std::vector<std::vector<float>>> predictedRows;

private:
  bool fitFails;
  double offset;
  bool trained = false;
};

/// Runs `strategy` for `trials` single-config batches on the synthetic space.
std::vector<Config> runSynthetic(SearchStrategy &strategy, int64_t trials) {
  SearchSpace space = syntheticSpace();
  SyntheticMeasurer m;
  TuningHistory history;
  TuningOptions to;
  to.trials = trials;
  to.seed = 5;
  runTuningLoop(space, strategy, m, history, {}, to);
  return m.measured;
}
} // namespace

TEST(CostModel, LearnsASyntheticFunction) {
  SearchSpace space = syntheticSpace();
  auto features = createKnobFeatureExtractor(space);
  Data d = sampleData(space, 1);
  std::vector<double> times, truth;
  for (const Config &c : d.train)
    times.push_back(syntheticTime(c));
  std::vector<double> labels = normalizedThroughput(times);
  for (const Config &c : d.test)
    truth.push_back(1.0 / syntheticTime(c));
  for (const char *name : {"xgb", "xgb-reg", "rf"}) {
    auto model = llvm::cantFail(createCostModel(name, 7));
    EXPECT_FALSE(model->isTrained());
    llvm::cantFail(model->fit(features->extractAll(d.train), labels));
    EXPECT_TRUE(model->isTrained());
    std::vector<double> pred = llvm::cantFail(model->predict(features->extractAll(d.test)));
    double rho = spearmanRankCorrelation(pred, truth);
    EXPECT_GT(rho, 0.8) << name << ": held-out rank correlation " << rho;
  }
}

TEST(CostModel, SaveLoadRoundTrip) {
  SearchSpace space = syntheticSpace();
  auto features = createKnobFeatureExtractor(space);
  Data d = sampleData(space, 2);
  std::vector<double> times;
  for (const Config &c : d.train)
    times.push_back(syntheticTime(c));
  FeatureMatrix test = features->extractAll(d.test);
  for (const char *name : {"xgb", "rf"}) {
    auto model = llvm::cantFail(createCostModel(name, 3));
    EXPECT_TRUE(static_cast<bool>(model->save("/nonexistent-dir/x")));
    llvm::consumeError(model->save("/nonexistent-dir/x"));
    llvm::cantFail(model->fit(features->extractAll(d.train), normalizedThroughput(times)));
    std::string path = ::testing::TempDir() + "/model_" + name + std::to_string(::getpid());
    llvm::cantFail(model->save(path));
    auto loaded = llvm::cantFail(createCostModel(name, 99));
    llvm::cantFail(loaded->load(path));
    std::vector<double> a = llvm::cantFail(model->predict(test)),
                        b = llvm::cantFail(loaded->predict(test));
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(a[i], b[i], 1e-6) << name;
  }
  auto rf = llvm::cantFail(createCostModel("rf"));
  EXPECT_TRUE(rf->hasVariance());
  llvm::Error bad = rf->load("/dev/null");
  EXPECT_TRUE(static_cast<bool>(bad));
  llvm::consumeError(std::move(bad));
  EXPECT_FALSE(static_cast<bool>(createCostModel("no-such-model")));
  llvm::consumeError(createCostModel("no-such-model").takeError());
}

TEST(CostModel, UpdateAccumulatesRows) {
  SearchSpace space = syntheticSpace();
  auto features = createKnobFeatureExtractor(space);
  Data d = sampleData(space, 4);
  auto model = llvm::cantFail(createCostModel("rf", 1));
  std::vector<Config> first(d.train.begin(), d.train.begin() + 100),
      second(d.train.begin() + 100, d.train.end());
  auto labels = [](const std::vector<Config> &cs) {
    std::vector<double> y;
    for (const Config &c : cs)
      y.push_back(1.0 / syntheticTime(c));
    return y;
  };
  llvm::cantFail(model->update(features->extractAll(first), labels(first)));
  llvm::cantFail(model->update(features->extractAll(second), labels(second)));
  // Two updates give the model all 200 rows: as good as one fit on them.
  std::vector<double> truth = labels(d.test);
  double rho = spearmanRankCorrelation(llvm::cantFail(model->predict(features->extractAll(d.test))), truth);
  EXPECT_GT(rho, 0.8);
  FeatureMatrix wrong;
  wrong.cols = 2;
  wrong.data = {1, 2};
  llvm::Error e = model->update(wrong, {1.0});
  EXPECT_TRUE(static_cast<bool>(e));
  llvm::consumeError(std::move(e));
}

TEST(CostModel, LabelsAndRecall) {
  std::vector<double> y = normalizedThroughput({2.0, 1.0, NAN, -1.0, 4.0});
  EXPECT_DOUBLE_EQ(y[0], 0.5);
  EXPECT_DOUBLE_EQ(y[1], 1.0);
  EXPECT_DOUBLE_EQ(y[2], 0.0);
  EXPECT_DOUBLE_EQ(y[3], 0.0);
  EXPECT_DOUBLE_EQ(y[4], 0.25);
  std::vector<double> actual = {5, 4, 3, 2, 1, 0};
  std::vector<double> perfect = actual, reversed = {0, 1, 2, 3, 4, 5};
  // AutoTVM's curve: sum over i of |true ranks <= i among the first i| / (i+1).
  EXPECT_NEAR(averageRecallAtN(perfect, actual, 6),
              (0.0 + 1.0 / 2 + 2.0 / 3 + 3.0 / 4 + 4.0 / 5 + 5.0 / 6) / 6, 1e-12);
  EXPECT_LT(averageRecallAtN(reversed, actual, 6), averageRecallAtN(perfect, actual, 6));
}

TEST(Features, ScheduleFeaturesOfAKnownMatmul) {
  // matmul 64x64x64 (loops m, n, k), tile_m/n/k at the cache level.
  SearchSpace space = llvm::cantFail(SearchSpace::create(
      {{"tile_m", {16, 32}}, {"tile_n", {32, 64}}, {"tile_k", {16}}, {"threads", {1, 2}}},
      {}, {}));
  ScheduleShape s;
  s.loopSizes = {64, 64, 64};
  s.isReduction = {false, false, true};
  s.cacheTile = {"tile_m", "tile_n", "tile_k"};
  s.cacheConst = {0, 0, 0};
  s.registerTile = {"", "", ""};
  s.registerConst = {4, 16, 1};
  s.operandLoops = {{0, 2}, {2, 1}, {0, 1}};
  s.flops = 2.0 * 64 * 64 * 64;
  s.bytes = 3 * 64 * 64 * 4;
  s.cores = 2;
  s.deviceFeatureNames = {"cores"};
  s.deviceFeatures = {2};
  auto fx = createScheduleFeatureExtractor(space, s);
  std::vector<std::string> names = fx->getNames();
  std::vector<float> row;
  fx->extract({32, 32, 16, 2}, row);
  ASSERT_EQ(row.size(), names.size());
  auto get = [&](const std::string &n) {
    return row[std::find(names.begin(), names.end(), n) - names.begin()];
  };
  // Cache tile footprint: A 32x16 + B 16x32 + C 32x32 floats = 8192 bytes.
  EXPECT_NEAR(get("log2_cache_footprint"), std::log2(1.0 + 8192), 1e-4);
  EXPECT_NEAR(get("cache_fp_over_l1"), 8192.0 / 32768, 1e-6);
  // 2 x 2 x 4 cache tiles; the register tile 4x16 (x1) -> 8 x 2 x 16 per tile.
  EXPECT_NEAR(get("log2_cache_tiles"), std::log2(1.0 + 16), 1e-4);
  EXPECT_NEAR(get("log2_reg_tiles"), std::log2(1.0 + 256), 1e-4);
  EXPECT_NEAR(get("vector_length"), 16.0 / 8, 1e-6);
  EXPECT_NEAR(get("threads_over_cores"), 1.0, 1e-6);
  EXPECT_NEAR(get("arith_intensity"), s.flops / s.bytes, 1e-3);
  EXPECT_EQ(get("device_cores"), 2.0f);
  EXPECT_EQ(get("tile_m"), 32.0f);
}

TEST(Features, CountPartialTilesAsWholeOnes) {
  // 196 rows in tiles of 64 run as 4 tiles (a GPU grid's last row of
  // blocks computes past M), not 3.06; 64 rows in register tiles of 24
  // as 3.
  SearchSpace space = llvm::cantFail(
      SearchSpace::create({{"tile_m", {64}}, {"tile_n", {32}}, {"reg_m", {24}}}, {}, {}));
  ScheduleShape s;
  s.loopSizes = {196, 64, 64};
  s.isReduction = {false, false, true};
  s.cacheTile = {"tile_m", "tile_n", ""};
  s.cacheConst = {0, 0, 0};
  s.registerTile = {"reg_m", "", ""};
  s.registerConst = {0, 1, 1};
  s.operandLoops = {{0, 2}, {2, 1}, {0, 1}};
  s.flops = 2.0 * 196 * 64 * 64;
  s.bytes = (196 * 64 + 64 * 64 + 196 * 64) * 4;
  auto fx = createScheduleFeatureExtractor(space, s);
  std::vector<std::string> names = fx->getNames();
  std::vector<float> row;
  fx->extract({64, 32, 24}, row);
  auto get = [&](const std::string &n) {
    return row[std::find(names.begin(), names.end(), n) - names.begin()];
  };
  // 4 x 2 x 1 cache tiles; per tile ceil(64 / 24) x 32 x 64 register tiles.
  EXPECT_NEAR(get("log2_cache_tiles"), std::log2(1.0 + 8), 1e-4);
  EXPECT_NEAR(get("log2_reg_tiles"), std::log2(1.0 + 3 * 32 * 64), 1e-4);
}

TEST(ModelBasedSearch, ProposesValidUnmeasuredAndFindsTheOptimum) {
  SearchSpace space = syntheticSpace();
  Config optimum = {5, 11, 2};
  for (auto [strategyName, model] :
       {std::pair{"sa", "xgb"}, std::pair{"evolutionary", "xgb"}, std::pair{"bo", "rf"}}) {
    CountingObserver observer;
    StrategyOptions o;
    o.costModel = model;
    o.planSize = 32;
    o.observer = &observer;
    auto strategy = llvm::cantFail(createSearchStrategy(strategyName, o));
    EXPECT_EQ(strategy->getName(), strategyName);
    SyntheticMeasurer m;
    TuningHistory history;
    TuningOptions to;
    to.trials = 160; // of 764 valid configurations
    to.batchSize = 8;
    to.seed = 11;
    TuningProgress p = runTuningLoop(space, *strategy, m, history, {}, to);
    std::set<Config> seen;
    for (const Config &c : m.measured) {
      EXPECT_TRUE(space.isValid(c)) << strategyName;
      EXPECT_TRUE(seen.insert(c).second) << strategyName << " proposed a config twice";
    }
    EXPECT_EQ(p.trialsDone, 160);
    EXPECT_EQ(*p.best, optimum) << strategyName << " best " << p.bestMs << " ms";
    // Fits at 32, 64, 96 and 128 measurements, each plan proposed from.
    EXPECT_EQ(observer.fits, 4) << strategyName;
    EXPECT_GT(observer.proposals, 64) << strategyName;
    EXPECT_TRUE(observer.errors.empty()) << strategyName << ": " << observer.errors.front();
  }
}

TEST(CostModel, RecallUsesAutoTVMZeroBasedRanks) {
  // AutoTVM: trials = argsort(preds)[::-1], ranks = get_rank(labels[trials])
  // (0-based), curve[i] = sum(ranks[:i] <= i) / (i + 1), score = mean of
  // curve[:n]. Reversed order: ranks [5,4,3,2,1,0], curve [0,0,0,1/4,3/5,5/6].
  std::vector<double> actual = {5, 4, 3, 2, 1, 0}, reversed = {0, 1, 2, 3, 4, 5};
  EXPECT_NEAR(averageRecallAtN(reversed, actual, 6), (0.25 + 0.6 + 5.0 / 6) / 6, 1e-12);
  // Equal predictions: numpy's stable argsort reversed puts the last row
  // first; ranks [2,1,0], curve [0,0,2/3].
  EXPECT_NEAR(averageRecallAtN({0, 0, 0}, {3, 2, 1}, 3), (2.0 / 3) / 3, 1e-12);
  // n past the rows: AutoTVM still divides by n.
  EXPECT_NEAR(averageRecallAtN({2, 1}, {2, 1}, 4), (0.5) / 4, 1e-12);
}

TEST(CostModel, PredictRefusesUntrainedModelsAndOtherWidths) {
  SearchSpace space = syntheticSpace();
  auto features = createKnobFeatureExtractor(space);
  Data d = sampleData(space, 6);
  std::vector<double> times;
  for (const Config &c : d.train)
    times.push_back(syntheticTime(c));
  FeatureMatrix wide;
  wide.cols = features->getNames().size() + 1;
  wide.data.assign(wide.cols * 3, 1.0f);
  for (const char *name : {"xgb", "xgb-reg", "rf"}) {
    auto model = llvm::cantFail(createCostModel(name, 1));
    llvm::Expected<std::vector<double>> untrained = model->predict(features->extractAll(d.test));
    ASSERT_FALSE(static_cast<bool>(untrained)) << name;
    EXPECT_NE(llvm::toString(untrained.takeError()).find("not trained"), std::string::npos);
    llvm::cantFail(model->fit(features->extractAll(d.train), normalizedThroughput(times)));
    llvm::Expected<std::vector<double>> p = model->predict(wide);
    ASSERT_FALSE(static_cast<bool>(p)) << name;
    EXPECT_NE(llvm::toString(p.takeError()).find("features per row"), std::string::npos) << name;
  }
}

TEST(ModelBasedSearch, FitErrorsReachTheObserverAndSearchGoesOn) {
  CountingObserver observer;
  StrategyOptions o;
  o.planSize = 16;
  o.firstFit = 16;
  o.observer = &observer;
  o.makeCostModel = [](uint64_t) { return std::make_unique<ScriptedModel>(true); };
  auto strategy = llvm::cantFail(createSearchStrategy("sa", o));
  std::vector<Config> measured = runSynthetic(*strategy, 40);
  EXPECT_EQ(measured.size(), 40u);
  EXPECT_EQ(observer.fits, 0);
  EXPECT_EQ(observer.proposals, 0u);
  ASSERT_EQ(observer.errors.size(), 2u); // at 16 and 32 measurements
  EXPECT_EQ(observer.errors[0], "scripted fit failure");
}

TEST(ModelBasedSearch, PlansAsAutoTVMDoes) {
  // A model that knows the optimum: the plan is proposed in order, but for
  // its last int(0.05 * 20) = 1 entry, which AutoTVM replaces by a random one.
  CountingObserver observer;
  StrategyOptions o;
  o.planSize = 20;
  o.firstFit = 20;
  o.observer = &observer;
  o.makeCostModel = [](uint64_t) { return std::make_unique<ScriptedModel>(false); };
  auto strategy = llvm::cantFail(createSearchStrategy("sa", o));
  std::vector<Config> measured = runSynthetic(*strategy, 40);
  EXPECT_EQ(observer.fits, 1);
  EXPECT_EQ(observer.proposals, 19u);
  EXPECT_EQ(measured[20], (Config{5, 11, 2})) << "the plan starts with the best prediction";

  // AutoTVM's SA keeps only non-negative scores in the plan: a model that
  // scores everything below zero leaves the search random.
  CountingObserver negative;
  o.observer = &negative;
  o.makeCostModel = [](uint64_t) { return std::make_unique<ScriptedModel>(false, -2.0); };
  strategy = llvm::cantFail(createSearchStrategy("sa", o));
  runSynthetic(*strategy, 40);
  EXPECT_EQ(negative.fits, 1);
  EXPECT_EQ(negative.proposals, 0u);
}

TEST(ModelBasedSearch, PredictsEachConfigurationOncePerFit) {
  // SA's 128 chains and the evolutionary population revisit configurations
  // of this 768-point space many times; each is predicted once per fit.
  for (const char *name : {"sa", "evolutionary"}) {
    auto rows = std::make_shared<std::vector<std::vector<float>>>();
    StrategyOptions o;
    o.planSize = 20;
    o.firstFit = 20;
    o.makeCostModel = [rows](uint64_t) {
      auto m = std::make_unique<ScriptedModel>(false);
      m->predictedRows = rows;
      return m;
    };
    auto strategy = llvm::cantFail(createSearchStrategy(name, o));
    runSynthetic(*strategy, 59); // fits at 20 and 40 measurements
    // Split at the fit markers: within a fit no row twice, and the second
    // fit predicts again rows the first one did (the scores of a fit are
    // forgotten at the next).
    std::vector<std::set<std::vector<float>>> perFit;
    size_t predicted = 0;
    for (const std::vector<float> &row : *rows) {
      if (row.empty()) {
        perFit.emplace_back();
        continue;
      }
      ASSERT_FALSE(perFit.empty());
      EXPECT_TRUE(perFit.back().insert(row).second) << name << ": predicted twice in one fit";
      ++predicted;
    }
    ASSERT_EQ(perFit.size(), 2u) << name;
    EXPECT_GT(predicted, 100u) << name;
    size_t again = 0;
    for (const std::vector<float> &row : perFit[1])
      again += perFit[0].count(row);
    EXPECT_GT(again, 0u) << name;
  }
}

TEST(ModelBasedSearch, StrategiesRefuseModelsTheyCannotUse) {
  StrategyOptions o;
  o.costModel = "xgb";
  for (const char *name : {"random", "grid"}) {
    auto s = createSearchStrategy(name, o);
    ASSERT_FALSE(static_cast<bool>(s)) << name;
    EXPECT_NE(llvm::toString(s.takeError()).find("uses no cost model"), std::string::npos);
  }
  auto bo = createSearchStrategy("bo", o);
  ASSERT_FALSE(static_cast<bool>(bo));
  EXPECT_EQ(llvm::toString(bo.takeError()),
            "strategy 'bo' needs a cost model with variance (rf, dgp, gp); 'xgb' has none");
  // Without a name each strategy takes its default model.
  o.costModel.clear();
  for (const char *name : {"random", "grid", "sa", "evolutionary", "bo"})
    EXPECT_TRUE(static_cast<bool>(llvm::cantFail(createSearchStrategy(name, o)))) << name;
}
