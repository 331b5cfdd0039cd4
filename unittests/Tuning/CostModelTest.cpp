//===- CostModelTest.cpp - Cost models, features and model-based search ---===//

#include "dltune/Tuning/CostModel.h"
#include "dltune/Tuning/TuningLoop.h"

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

double spearman(const std::vector<double> &x, const std::vector<double> &y) {
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
    std::vector<double> pred = model->predict(features->extractAll(d.test));
    double rho = spearman(pred, truth);
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
    std::vector<double> a = model->predict(test), b = loaded->predict(test);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(a[i], b[i], 1e-6) << name;
  }
  auto rf = llvm::cantFail(createCostModel("rf"));
  EXPECT_TRUE(rf->hasVariance());
  llvm::Error bad = rf->load("/dev/null");
  EXPECT_TRUE(static_cast<bool>(bad));
  llvm::consumeError(std::move(bad));
  EXPECT_FALSE(static_cast<bool>(createCostModel("gp")));
  llvm::consumeError(createCostModel("gp").takeError());
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
  double rho = spearman(model->predict(features->extractAll(d.test)), truth);
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

TEST(ModelBasedSearch, ProposesValidUnmeasuredAndFindsTheOptimum) {
  SearchSpace space = syntheticSpace();
  Config optimum = {5, 11, 2};
  for (auto [strategyName, model] :
       {std::pair{"sa", "xgb"}, std::pair{"evolutionary", "xgb"}, std::pair{"bo", "rf"}}) {
    StrategyOptions o;
    o.costModel = model;
    o.planSize = 32;
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
  }
}
