//===- TransferTest.cpp - MAP adaptation, the guard, matching by name -----===//

#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"
#include "dltune/Tuning/Transfer/PretrainedModel.h"
#include "dltune/Tuning/Transfer/TransferCostModel.h"
#include "dltune/Tuning/Transfer/TransferSearch.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace mlir::dltune;

namespace {
/// An 8 x 8 grid of two knobs, as feature rows (x, y), with a time per row.
struct Grid {
  FeatureMatrix x;
  std::vector<double> timesMs;
};

Grid makeGrid(const std::function<double(double, double)> &time) {
  Grid g;
  g.x.cols = 2;
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      g.x.append({static_cast<float>(a), static_cast<float>(b)});
      g.timesMs.push_back(time(a, b));
    }
  return g;
}

double sourceTime(double a, double b) { return 1 + 0.3 * (a - 5) * (a - 5) + 0.2 * (b - 2) * (b - 2); }

DeepGPOptions smallDeepGP() {
  DeepGPOptions options;
  options.inducingPoints = 24;
  options.iterations = 600;
  options.minibatch = 64;
  return options;
}

std::shared_ptr<const CostModel> pretrain(const Grid &source) {
  std::unique_ptr<CostModel> model = createDeepGPCostModel(smallDeepGP());
  llvm::Error e = model->fit(source.x, normalizedThroughput(source.timesMs));
  EXPECT_FALSE(static_cast<bool>(e)) << llvm::toString(std::move(e));
  return std::shared_ptr<const CostModel>(std::move(model));
}

double logRmse(const CostModel &model, const Grid &target) {
  std::vector<double> mean, variance;
  llvm::Error e = predictLogLabel(model, target.x, mean, variance, false);
  EXPECT_FALSE(static_cast<bool>(e)) << llvm::toString(std::move(e));
  std::vector<double> labels = normalizedThroughput(target.timesMs);
  // Compare up to the best constant shift: levels differ between devices.
  double shift = 0;
  for (size_t i = 0; i < mean.size(); ++i)
    shift += std::log(labels[i]) - mean[i];
  shift /= mean.size();
  double squared = 0;
  for (size_t i = 0; i < mean.size(); ++i)
    squared += std::pow(std::log(labels[i]) - mean[i] - shift, 2);
  return std::sqrt(squared / mean.size());
}
} // namespace

TEST(PretrainedModel, SmallHistoriesPretrainForFewerStepsWithFewerInducingPoints) {
  EXPECT_EQ(pretrainingIterations(96), 300);
  EXPECT_EQ(pretrainingIterations(kSmallHistoryRows - 1), 300);
  EXPECT_EQ(pretrainingIterations(kSmallHistoryRows), DeepGPOptions().iterations);
  EXPECT_EQ(pretrainingIterations(45912), 2000);
  EXPECT_EQ(pretrainingInducingPoints(96), kSmallHistoryInducingPoints);
  EXPECT_EQ(pretrainingInducingPoints(kSmallHistoryRows - 1), kSmallHistoryInducingPoints);
  EXPECT_EQ(pretrainingInducingPoints(kSmallHistoryRows), DeepGPOptions().inducingPoints);
}

TEST(MapAdaptation, MovesPredictionsTowardsTargetData) {
  Grid source = makeGrid(sourceTime);
  // The target's optimum moved along the first knob.
  Grid target = makeGrid([](double a, double b) { return 2 * (1 + 0.3 * (a - 2) * (a - 2) + 0.2 * (b - 2) * (b - 2)); });
  std::shared_ptr<const CostModel> pretrained = pretrain(source);
  std::vector<double> labels = normalizedThroughput(target.timesMs);
  double before = logRmse(*pretrained, target);
  llvm::Expected<std::unique_ptr<CostModel>> weak =
      adaptDeepGPCostModel(*pretrained, target.x, labels, /*priorStrength=*/0.1, 400);
  ASSERT_TRUE(static_cast<bool>(weak)) << llvm::toString(weak.takeError());
  llvm::Expected<std::unique_ptr<CostModel>> strong =
      adaptDeepGPCostModel(*pretrained, target.x, labels, /*priorStrength=*/1e6, 400);
  ASSERT_TRUE(static_cast<bool>(strong)) << llvm::toString(strong.takeError());
  double afterWeak = logRmse(**weak, target), afterStrong = logRmse(**strong, target);
  EXPECT_LT(afterWeak, 0.5 * before);
  // A very strong prior keeps the model near the pretrained one.
  EXPECT_GT(afterStrong, afterWeak);
  EXPECT_NEAR(afterStrong, before, 0.2 * before);
}

TEST(MapAdaptation, WarmStartContinuesFromAnEarlierAdaptation) {
  Grid source = makeGrid(sourceTime);
  Grid target = makeGrid([](double a, double b) { return 2 * (1 + 0.3 * (a - 2) * (a - 2) + 0.2 * (b - 2) * (b - 2)); });
  std::shared_ptr<const CostModel> pretrained = pretrain(source);
  std::vector<double> labels = normalizedThroughput(target.timesMs);
  llvm::Expected<std::unique_ptr<CostModel>> adapted =
      adaptDeepGPCostModel(*pretrained, target.x, labels, 0.1, 400);
  ASSERT_TRUE(static_cast<bool>(adapted)) << llvm::toString(adapted.takeError());
  // Ten steps from the adapted model stay near its fit; ten from the
  // pretrained parameters are far from it: the warm start is where Adam
  // begins.
  llvm::Expected<std::unique_ptr<CostModel>> warm =
      adaptDeepGPCostModel(*pretrained, target.x, labels, 0.1, 10, adapted->get());
  llvm::Expected<std::unique_ptr<CostModel>> cold =
      adaptDeepGPCostModel(*pretrained, target.x, labels, 0.1, 10);
  ASSERT_TRUE(static_cast<bool>(warm)) << llvm::toString(warm.takeError());
  ASSERT_TRUE(static_cast<bool>(cold)) << llvm::toString(cold.takeError());
  double fitted = logRmse(**adapted, target);
  // (Adam's first steps, with fresh moments, move every parameter by about
  // the learning rate: the fit loosens a little.)
  double warmRmse = logRmse(**warm, target), coldRmse = logRmse(**cold, target);
  EXPECT_LT(warmRmse, 4 * fitted);
  EXPECT_LT(warmRmse, 0.2 * coldRmse);
  // A warm start must be an adaptation of a dgp.
  std::unique_ptr<CostModel> other = llvm::cantFail(createCostModel("xgb", 0));
  llvm::Expected<std::unique_ptr<CostModel>> bad =
      adaptDeepGPCostModel(*pretrained, target.x, labels, 0.1, 10, other.get());
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("needs a dgp cost model itself, not 'xgb'"),
            std::string::npos);
}

TEST(MapAdaptation, WithoutFeasibleRowsPredictsAsPretrained) {
  Grid source = makeGrid(sourceTime);
  std::shared_ptr<const CostModel> pretrained = pretrain(source);
  FeatureMatrix failedOnly = source.x;
  std::vector<double> zeros(source.timesMs.size(), 0.0);
  llvm::Expected<std::unique_ptr<CostModel>> adapted =
      adaptDeepGPCostModel(*pretrained, failedOnly, zeros, 1, 100);
  ASSERT_TRUE(static_cast<bool>(adapted)) << llvm::toString(adapted.takeError());
  llvm::Expected<std::vector<double>> a = pretrained->predict(source.x);
  llvm::Expected<std::vector<double>> b = (*adapted)->predict(source.x);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);
}

TEST(TransferGuard, SplitKeepsEachRowsSideBetweenRefits) {
  std::mt19937_64 rng(3);
  std::vector<bool> held;
  extendGuardSplit(held, 16, rng);
  EXPECT_EQ(std::count(held.begin(), held.end(), true), 4); // at least 4
  extendGuardSplit(held, 108, rng);
  std::vector<bool> at108 = held;
  EXPECT_EQ(std::count(held.begin(), held.end(), true), 27);
  extendGuardSplit(held, 128, rng);
  ASSERT_EQ(held.size(), 128u);
  EXPECT_TRUE(std::equal(at108.begin(), at108.end(), held.begin())); // no row moved
  EXPECT_EQ(std::count(held.begin(), held.end(), true), 32);
  // Fewer rows than before are other rows: a fresh split.
  extendGuardSplit(held, 20, rng);
  EXPECT_EQ(held.size(), 20u);
  EXPECT_EQ(std::count(held.begin(), held.end(), true), 5);
}

TEST(TransferGuard, FallsBackOnAReversedSource) {
  Grid source = makeGrid(sourceTime);
  // Adversarial: the target's fastest configurations are the source's slowest.
  Grid target = makeGrid([](double a, double b) { return 1 / sourceTime(a, b); });
  std::shared_ptr<const CostModel> pretrained = pretrain(source);
  TransferOptions options;
  options.mode = TransferMode::Map;
  // A prior this strong keeps the reversed ranking through adaptation (a
  // weak one lets MAP learn the target and the guard rightly keeps it).
  options.priorStrength = 1e4;
  options.adaptIterations = 50;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<CostModel> model = createTransferCostModel(pretrained, options, log);
  llvm::Error e = model->fit(target.x, normalizedThroughput(target.timesMs));
  ASSERT_FALSE(static_cast<bool>(e)) << llvm::toString(std::move(e));
  ASSERT_EQ(log->size(), 1u);
  EXPECT_FALSE(log->front().usedTransfer) << log->front().reason;
  EXPECT_GT(log->front().targetOnlyRho, log->front().transferRho);
  EXPECT_EQ(model->hasVariance(), false); // the xgb fallback is in use
}

TEST(TransferGuard, KeepsTransferOnTheSameDevice) {
  Grid source = makeGrid(sourceTime);
  std::shared_ptr<const CostModel> pretrained = pretrain(source);
  TransferOptions options;
  options.priorStrength = 10;
  options.adaptIterations = 100;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<CostModel> model = createTransferCostModel(pretrained, options, log);
  // Before any fit the pretrained model predicts.
  EXPECT_TRUE(model->isTrained());
  EXPECT_TRUE(model->hasVariance());
  Grid target = makeGrid([](double a, double b) { return 3 * sourceTime(a, b); });
  ASSERT_FALSE(static_cast<bool>(model->fit(target.x, normalizedThroughput(target.timesMs))));
  ASSERT_EQ(log->size(), 1u);
  EXPECT_TRUE(log->front().usedTransfer) << log->front().reason;
}

TEST(PretrainingSet, MatchesKnobsByNameOnAPermutedSpace) {
  const char *header = R"({"device_name": "d", "kernel_name": "k", "problem_size": [1],
      "objective": "time", )";
  std::string ab = std::string(header) +
                   R"("tune_params_keys": ["a", "b"], "tune_params": {"a": [1, 2], "b": [4, 8]},
      "cache": {"1,4": {"a": 1, "b": 4, "time": 2.0}, "2,8": {"a": 2, "b": 8, "time": 1.0},
                "1,8": {"a": 1, "b": 8, "time": "RuntimeFailedConfig"}}})";
  std::string bac = std::string(header) +
                    R"("tune_params_keys": ["b", "c", "a"], "tune_params": {"b": [4, 8], "c": [0], "a": [1, 2]},
      "cache": {"4,0,1": {"b": 4, "c": 0, "a": 1, "time": 2.0}, "8,0,2": {"b": 8, "c": 0, "a": 2, "time": 1.0},
                "8,0,1": {"b": 8, "c": 0, "a": 1, "time": "RuntimeFailedConfig"}}})";
  llvm::Expected<KernelTunerCache> target = KernelTunerCache::parse(ab, "ab");
  llvm::Expected<KernelTunerCache> permuted = KernelTunerCache::parse(bac, "bac");
  ASSERT_TRUE(target && permuted);
  SearchSpace space = target->getSpace();
  std::unique_ptr<FeatureExtractor> features = createKnobFeatureExtractor(space);
  std::vector<std::string> notes;
  llvm::Expected<PretrainingSet> same =
      buildPretrainingSet({*target}, {"ab"}, target->knobs, *features, notes);
  llvm::Expected<PretrainingSet> moved =
      buildPretrainingSet({*permuted}, {"bac"}, target->knobs, *features, notes);
  ASSERT_TRUE(same && moved);
  // Same rows in the same order of entries, so the same features and labels.
  ASSERT_EQ(same->labels.size(), 3u);
  std::map<std::vector<float>, double> a, b;
  for (size_t i = 0; i < 3; ++i) {
    a[std::vector<float>(same->x.row(i), same->x.row(i) + same->x.cols)] = same->labels[i];
    b[std::vector<float>(moved->x.row(i), moved->x.row(i) + moved->x.cols)] = moved->labels[i];
  }
  EXPECT_EQ(a, b);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "'bac': knob 'c' is not in the target space; dropped");
  EXPECT_EQ(same->getHash(), same->getHash());
}

namespace {
/// Appends measurements of `configs` at `time` to `history`.
void record(TuningHistory &history, const std::vector<Config> &configs,
            const std::function<double(double, double)> &time) {
  for (const Config &c : configs) {
    MeasureRecord r;
    r.status = MeasureStatus::Ok;
    r.timeMs = time(c[0], c[1]);
    history.configs.push_back(c);
    history.records.push_back(r);
    history.measured.insert(c);
  }
}

/// Runs TransferSearch's proxy check on an 8 x 8 space whose target times
/// are `targetTime`, with a model pretrained on sourceTime.
TransferLog runProxyCheck(const std::function<double(double, double)> &targetTime) {
  std::vector<int64_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  llvm::Expected<SearchSpace> space = SearchSpace::create({{"a", values}, {"b", values}}, {}, {});
  EXPECT_TRUE(static_cast<bool>(space));
  std::shared_ptr<const FeatureExtractor> features = createKnobFeatureExtractor(*space);
  std::vector<Config> all;
  std::vector<double> sourceTimes;
  for (int64_t a : values)
    for (int64_t b : values) {
      all.push_back({a, b});
      sourceTimes.push_back(sourceTime(a, b));
    }
  std::unique_ptr<CostModel> model = createDeepGPCostModel(smallDeepGP());
  EXPECT_FALSE(static_cast<bool>(
      model->fit(features->extractAll(all), normalizedThroughput(sourceTimes))));
  TransferSearchOptions options;
  options.inner.features = features;
  options.tuningSetSize = 20;
  auto log = std::make_shared<TransferLog>();
  llvm::Expected<std::unique_ptr<SearchStrategy>> search =
      createTransferSearch(std::shared_ptr<const CostModel>(std::move(model)), options, log);
  EXPECT_TRUE(static_cast<bool>(search));
  (*search)->initialize(*space, 1);
  TuningHistory history;
  std::vector<Config> probes = (*search)->propose(16, history);
  EXPECT_EQ(probes.size(), 16u);
  record(history, probes, targetTime);
  (*search)->update(probes, history.records);
  EXPECT_FALSE((*search)->propose(4, history).empty());
  return *log;
}
} // namespace

TEST(ProxyCheck, AbandonsTransferFromAReversedDevice) {
  TransferLog log = runProxyCheck([](double a, double b) { return 1 / sourceTime(a, b); });
  ASSERT_GE(log.size(), 1u);
  EXPECT_FALSE(log[0].usedTransfer) << log[0].reason;
}

TEST(ProxyCheck, KeepsTransferFromAScaledDevice) {
  TransferLog log = runProxyCheck([](double a, double b) { return 2 * sourceTime(a, b); });
  ASSERT_GE(log.size(), 1u);
  EXPECT_TRUE(log[0].usedTransfer) << log[0].reason;
}

namespace {
struct SmallSpace {
  std::vector<int64_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  SearchSpace space;
  std::shared_ptr<const FeatureExtractor> features;
  std::shared_ptr<const CostModel> pretrained;
};

/// The 8 x 8 space with a deep GP pretrained on sourceTime over all of it.
SmallSpace makeSmallSpace() {
  SmallSpace s;
  llvm::Expected<SearchSpace> space =
      SearchSpace::create({{"a", s.values}, {"b", s.values}}, {}, {});
  EXPECT_TRUE(static_cast<bool>(space));
  s.space = std::move(*space);
  s.features = createKnobFeatureExtractor(s.space);
  std::vector<Config> all;
  std::vector<double> times;
  for (int64_t a : s.values)
    for (int64_t b : s.values) {
      all.push_back({a, b});
      times.push_back(sourceTime(a, b));
    }
  std::unique_ptr<CostModel> model = createDeepGPCostModel(smallDeepGP());
  EXPECT_FALSE(static_cast<bool>(
      model->fit(s.features->extractAll(all), normalizedThroughput(times))));
  s.pretrained = std::shared_ptr<const CostModel>(std::move(model));
  return s;
}

/// A transfer search over the small space with `options` and no proxy
/// check, initialized with seed 1; null (and a test failure) if refused.
std::unique_ptr<SearchStrategy> startSearch(const SmallSpace &s, TransferSearchOptions options,
                                            std::shared_ptr<TransferLog> log = nullptr) {
  options.inner.features = s.features;
  options.proxyProbes = 0;
  llvm::Expected<std::unique_ptr<SearchStrategy>> search =
      createTransferSearch(s.pretrained, options, std::move(log));
  EXPECT_TRUE(static_cast<bool>(search));
  if (!search) {
    llvm::consumeError(search.takeError());
    return nullptr;
  }
  (*search)->initialize(s.space, 1);
  return std::move(*search);
}

/// The whole tuning set of a search with `options` (no proxy check), in
/// proposal order.
std::vector<Config> tuningSetOf(const SmallSpace &s, TransferSearchOptions options) {
  std::unique_ptr<SearchStrategy> search = startSearch(s, options);
  return search ? search->propose(options.tuningSetSize, TuningHistory()) : std::vector<Config>();
}

} // namespace

namespace {
struct FitRecorder : StrategyObserver {
  std::vector<size_t> fitRows;
  void onModelFit(size_t rows) override { fitRows.push_back(rows); }
  void onModelError(llvm::Error e) override { ADD_FAILURE() << llvm::toString(std::move(e)); }
};
} // namespace

TEST(ProxyCheck, AbandonedTransferTunesColdWithoutTheMisrankedProbes) {
  // A reversed device: the proxy check abandons transfer after its 16
  // probes (8 the model's top picks, 8 random). The cold search then fits
  // on the rows without the top picks - a model that misranks this target
  // chose them, so they are no random start (on the recorded A100
  // convolution space they slowed cold search by a third) - and measures
  // its own random start (firstFit = 8) first: its first fit is on the 8
  // random probes and 8 of its own, at 24 measurements.
  SmallSpace small = makeSmallSpace();
  const SearchSpace &space = small.space;
  FitRecorder recorder;
  TransferSearchOptions options;
  options.inner.features = small.features;
  options.inner.costModel = "xgb";
  options.inner.planSize = options.inner.firstFit = 8;
  options.inner.observer = &recorder;
  options.tuningSetSize = 20;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<SearchStrategy> search =
      llvm::cantFail(createTransferSearch(small.pretrained, options, log));
  // Twice: a strategy initialised again starts with transfer again.
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE(run);
    recorder.fitRows.clear();
    log->clear();
    search->initialize(space, 1);
    TuningHistory history;
    std::vector<size_t> measuredAtFit;
    while (history.records.size() < 40) {
      size_t fits = recorder.fitRows.size();
      std::vector<Config> batch = search->propose(4, history);
      ASSERT_FALSE(batch.empty());
      if (recorder.fitRows.size() > fits)
        measuredAtFit.push_back(history.records.size());
      record(history, batch, [](double a, double b) { return 1 / sourceTime(a, b); });
      search->update(batch, history.records);
    }
    ASSERT_GE(log->size(), 1u);
    ASSERT_FALSE((*log)[0].usedTransfer) << (*log)[0].reason;
    ASSERT_GE(recorder.fitRows.size(), 2u);
    EXPECT_EQ(measuredAtFit[0], 24u);
    EXPECT_EQ(recorder.fitRows[0], 16u); // 24 measured, less the 8 top picks
    EXPECT_EQ(recorder.fitRows[1], measuredAtFit[1] - 8);
  }
}

TEST(TuningSet, ExplorationSpendsItsShareOnDiverseUpperBounds) {
  SmallSpace s = makeSmallSpace();
  TransferSearchOptions options;
  options.tuningSetSize = 20;
  std::vector<Config> byMean = tuningSetOf(s, options);
  options.tuningSetSize = 64;
  std::vector<Config> ranking = tuningSetOf(s, options);
  options.tuningSetSize = 20;
  options.exploreShare = 0.25;
  std::vector<Config> explored = tuningSetOf(s, options);
  ASSERT_EQ(byMean.size(), 20u);
  ASSERT_EQ(ranking.size(), 64u);
  ASSERT_EQ(explored.size(), 20u);
  // Slots 3, 7, 11, 15 and 19 explore; each of the others takes the best
  // by the mean that is not in the set yet.
  for (size_t slot = 0; slot < 20; ++slot) {
    std::vector<Config> earlier(explored.begin(), explored.begin() + slot);
    if (slot % 4 != 3) {
      auto best = std::find_if(ranking.begin(), ranking.end(), [&](const Config &c) {
        return std::find(earlier.begin(), earlier.end(), c) == earlier.end();
      });
      EXPECT_EQ(explored[slot], *best) << "slot " << slot;
      continue;
    }
    for (const Config &e : earlier)
      EXPECT_EQ((explored[slot][0] != e[0]) + (explored[slot][1] != e[1]), 2) << "slot " << slot;
  }
  size_t outsideMeanSet = 0;
  for (const Config &c : explored)
    outsideMeanSet += std::find(byMean.begin(), byMean.end(), c) == byMean.end();
  EXPECT_GE(outsideMeanSet, 3u);
}

TEST(TuningSet, ReRankingFollowsTheAdaptedModel) {
  SmallSpace s = makeSmallSpace();
  // The target's optimum moved from (5, 2) to (2, 5).
  auto targetTime = [](double a, double b) {
    return 1 + 0.3 * (a - 2) * (a - 2) + 0.2 * (b - 5) * (b - 5);
  };
  auto run = [&](size_t reRankEvery, std::shared_ptr<TransferLog> log) {
    TransferSearchOptions options;
    options.tuningSetSize = 40;
    options.reRankEvery = reRankEvery;
    options.transfer.adaptIterations = 300;
    std::unique_ptr<SearchStrategy> search = startSearch(s, options, log);
    TuningHistory history;
    std::vector<Config> all;
    while (search && all.size() < 40) {
      std::vector<Config> batch = search->propose(8, history);
      if (batch.empty())
        break;
      record(history, batch, targetTime);
      all.insert(all.end(), batch.begin(), batch.end());
    }
    return all;
  };
  auto log = std::make_shared<TransferLog>();
  std::vector<Config> fixed = run(0, nullptr), reRanked = run(16, log);
  ASSERT_EQ(fixed.size(), 40u);
  ASSERT_EQ(reRanked.size(), 40u);
  // Both measure the pretrained top 16 first; then the re-ranked set moves
  // towards the target's optimum.
  EXPECT_TRUE(std::equal(fixed.begin(), fixed.begin() + 16, reRanked.begin()));
  auto meanTime = [&](const std::vector<Config> &configs) {
    double sum = 0;
    for (size_t i = 16; i < configs.size(); ++i)
      sum += targetTime(configs[i][0], configs[i][1]);
    return sum / (configs.size() - 16);
  };
  EXPECT_LT(meanTime(reRanked), 0.8 * meanTime(fixed));
  bool logged = false;
  for (const TransferDecision &d : *log)
    logged |= llvm::StringRef(d.reason).starts_with("tuning set re-rank");
  EXPECT_TRUE(logged);
}

TEST(TuningSet, ReRanksAfterExactlyEveryNMeasurements) {
  SmallSpace s = makeSmallSpace();
  TransferSearchOptions options;
  options.tuningSetSize = 40;
  options.reRankEvery = 16;
  options.transfer.adaptIterations = 50;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<SearchStrategy> search = startSearch(s, options, log);
  ASSERT_TRUE(search);
  TuningHistory history;
  // Batches of 10 stop at the re-rank points: 10, 6 (16 rows), 10, 6 (32).
  std::vector<size_t> sizes;
  for (int i = 0; i < 4; ++i) {
    std::vector<Config> batch = search->propose(10, history);
    sizes.push_back(batch.size());
    record(history, batch, sourceTime);
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{10, 6, 10, 6}));
  std::vector<size_t> reRankRows;
  for (const TransferDecision &d : *log)
    if (llvm::StringRef(d.reason).starts_with("tuning set re-rank"))
      reRankRows.push_back(d.rows);
  EXPECT_EQ(reRankRows, (std::vector<size_t>{16}));
}

namespace {
/// `count` configurations of the small space that are not in `avoid`, in
/// a fixed scattered order.
std::vector<Config> scatteredConfigs(size_t count, const std::vector<Config> &avoid) {
  std::vector<Config> out;
  for (int64_t i = 0; i < 64 && out.size() < count; ++i) {
    Config c = {(i * 5) % 8, (i * 3 + i / 8) % 8};
    if (std::find(avoid.begin(), avoid.end(), c) == avoid.end() &&
        std::find(out.begin(), out.end(), c) == out.end())
      out.push_back(c);
  }
  return out;
}
} // namespace

TEST(TransferResume, MeasuredRowsStandForTheProbesAndShortenTheTuningSet) {
  // Transfer that starts on a task with 20 rows (built at a later slot, or
  // a resumed run) checks the pretrained ranking on those rows instead of
  // measuring 16 probes, and measures only 30 - 20 of its tuning set: the
  // tuning set's unmeasured entries in their order, and nothing else.
  SmallSpace small = makeSmallSpace();
  TransferSearchOptions options;
  options.inner.costModel = "xgb";
  options.tuningSetSize = 30;
  std::vector<Config> fresh = tuningSetOf(small, options);
  ASSERT_EQ(fresh.size(), 30u);
  std::vector<Config> rows = scatteredConfigs(20, {});
  ASSERT_EQ(rows.size(), 20u);
  TuningHistory history;
  record(history, rows, [](double a, double b) { return 3 * sourceTime(a, b); });
  options.inner.features = small.features;
  options.proxyProbes = 16;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<SearchStrategy> search =
      llvm::cantFail(createTransferSearch(small.pretrained, options, log));
  search->initialize(small.space, 1);
  search->update(history.configs, history.records);
  std::vector<Config> proposed = search->propose(30, history);
  std::vector<Config> expected;
  for (const Config &c : fresh)
    if (!history.contains(c) && expected.size() < 10)
      expected.push_back(c);
  EXPECT_EQ(proposed, expected);
  ASSERT_EQ(log->size(), 1u);
  EXPECT_TRUE((*log)[0].usedTransfer) << (*log)[0].reason;
  EXPECT_NE((*log)[0].reason.find("on 20 measured rows"), std::string::npos) << (*log)[0].reason;
}

TEST(TransferResume, AReversedDeviceIsAbandonedOnMeasuredRowsAndFitsOnThemAtOnce) {
  // The same with a device that reverses the ranking: transfer is
  // abandoned without probes, and the cold search fits on the 20 rows
  // before its first proposal (they are the task's own start, not a
  // misranking model's picks).
  SmallSpace small = makeSmallSpace();
  FitRecorder recorder;
  TransferSearchOptions options;
  options.inner.features = small.features;
  options.inner.costModel = "xgb";
  options.inner.planSize = options.inner.firstFit = 8;
  options.inner.observer = &recorder;
  options.tuningSetSize = 30;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<SearchStrategy> search =
      llvm::cantFail(createTransferSearch(small.pretrained, options, log));
  search->initialize(small.space, 1);
  TuningHistory history;
  record(history, scatteredConfigs(20, {}), [](double a, double b) { return 1 / sourceTime(a, b); });
  EXPECT_EQ(search->propose(4, history).size(), 4u);
  ASSERT_EQ(log->size(), 1u);
  EXPECT_FALSE((*log)[0].usedTransfer) << (*log)[0].reason;
  EXPECT_NE((*log)[0].reason.find("on 20 measured rows"), std::string::npos) << (*log)[0].reason;
  EXPECT_EQ(recorder.fitRows, (std::vector<size_t>{20}));
}

TEST(TransferResume, AFewRowsStillLeaveTheProbesToMeasure) {
  // Below proxyProbes usable rows the probes are measured as on a fresh
  // task (those already measured are skipped).
  SmallSpace small = makeSmallSpace();
  TransferSearchOptions options;
  options.inner.features = small.features;
  options.inner.costModel = "xgb";
  options.tuningSetSize = 30;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<SearchStrategy> search =
      llvm::cantFail(createTransferSearch(small.pretrained, options, log));
  search->initialize(small.space, 1);
  TuningHistory history;
  record(history, scatteredConfigs(3, {}), sourceTime);
  std::vector<Config> probes = search->propose(16, history);
  EXPECT_GE(probes.size(), 13u);
  EXPECT_TRUE(log->empty());
}

TEST(TransferResume, AFreshTasksDefaultConfigurationChangesNothing) {
  // One row (the default configuration, measured before any strategy is
  // asked) is no start: the whole tuning set is measured.
  SmallSpace small = makeSmallSpace();
  TransferSearchOptions options;
  options.inner.costModel = "xgb";
  options.tuningSetSize = 30;
  std::vector<Config> fresh = tuningSetOf(small, options);
  ASSERT_EQ(fresh.size(), 30u);
  std::vector<Config> outside = scatteredConfigs(1, fresh);
  ASSERT_EQ(outside.size(), 1u);
  TuningHistory history;
  record(history, outside, sourceTime);
  std::unique_ptr<SearchStrategy> search = startSearch(small, options);
  ASSERT_TRUE(search);
  EXPECT_EQ(search->propose(40, history), fresh);
}
