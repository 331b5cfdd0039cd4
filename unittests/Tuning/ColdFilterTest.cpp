//===- ColdFilterTest.cpp - Trimmer's network, cold labels and filter -----===//

#include "dltune/Tuning/ColdFilter/ColdLabels.h"
#include "dltune/Tuning/ColdFilter/EmbeddingNetwork.h"
#include "dltune/Tuning/SearchStrategy/ColdCandidateFilter.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::dltune;

TEST(EmbeddingNetwork, GradientMatchesFiniteDifferences) {
  EmbeddingNetworkOptions o;
  o.embeddingDims = 3;
  o.hiddenUnits = 5;
  o.seed = 3;
  EmbeddingNetwork net({3, 4}, o);
  std::vector<CategoricalRow> rows = {{0, 1}, {2, 3}, {1, 0}, {2, 1}, {0, 3}};
  std::vector<double> y = {0.5, -1.0, 0.25, 1.5, -0.3};
  Eigen::VectorXd theta = net.getParameters();
  Eigen::VectorXd g = net.getGradient(theta, rows, y);
  ASSERT_EQ(g.size(), theta.size());
  double h = 1e-6;
  size_t nonzero = 0;
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    Eigen::VectorXd plus = theta, minus = theta;
    plus[i] += h;
    minus[i] -= h;
    double fd = (net.getLoss(plus, rows, y) - net.getLoss(minus, rows, y)) / (2 * h);
    EXPECT_NEAR(g[i], fd, 1e-5 * std::max(1.0, std::fabs(fd))) << "parameter " << i;
    nonzero += std::fabs(g[i]) > 1e-9;
  }
  // Every layer takes part (embeddings of used values, weights, biases).
  EXPECT_GT(nonzero, size_t(theta.size() / 2));
}

TEST(EmbeddingNetwork, LearnsATableOfLatencies) {
  // log latency = a smooth function of two knobs' value indices.
  std::vector<CategoricalRow> rows;
  std::vector<double> y;
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 5; ++b) {
      rows.push_back({a, b});
      y.push_back(0.3 * (a - 2.5) * (a - 2.5) + 0.5 * b);
    }
  EmbeddingNetwork net({6, 5}, {});
  double mean = 0, var = 0;
  for (double v : y)
    mean += v / y.size();
  for (double v : y)
    var += (v - mean) * (v - mean) / y.size();
  net.train(rows, y);
  ASSERT_TRUE(net.isTrained());
  double mse = 0;
  for (size_t i = 0; i < rows.size(); ++i)
    mse += std::pow(net.predict(rows[i]) - y[i], 2) / rows.size();
  EXPECT_LT(mse, 0.05 * var);
  EXPECT_EQ(net.embed(rows[0]).size(), 32);
}

TEST(ColdLabels, RunningBestAndTrend) {
  std::vector<double> t = {10, 25, NAN, 5, 9, 11, 4};
  EXPECT_EQ(labelColdByRunningBest(t, 2.0),
            (std::vector<bool>{false, true, false, false, false, true, false}));
  // LOESS of a line is the line.
  std::vector<double> line;
  for (int i = 0; i < 20; ++i)
    line.push_back(3.0 - 0.5 * i);
  std::vector<double> trend = getLoessTrend(line, 0.3);
  for (size_t i = 0; i < line.size(); ++i)
    EXPECT_NEAR(trend[i], line[i], 1e-9);
  // A slowly improving search with spikes: the spikes are above the trend;
  // with a margin, only the large ones.
  std::vector<double> search;
  for (int i = 0; i < 40; ++i)
    search.push_back(10.0 - 0.1 * i + (i % 10 == 5 ? (i < 20 ? 30.0 : 3.0) : 0.0));
  search[12] = NAN; // a failure is never cold
  std::vector<bool> cold = labelColdByTrend(search, 0.3, 1.0);
  for (int i = 0; i < 40; ++i)
    EXPECT_EQ(cold[i], i == 5 || i == 15) << i;
  EXPECT_FALSE(labelColdByTrend(search, 0.3, 0.0)[12]);
  EXPECT_TRUE(labelColdByTrend(search, 0.3, 0.0)[25]);
}

namespace {
/// Proposes the configs of a fixed list in order, skipping measured ones.
class ListSearch : public SearchStrategy {
public:
  explicit ListSearch(std::vector<Config> list) : list(std::move(list)) {}
  llvm::StringRef getName() const override { return "list"; }
  void initialize(const SearchSpace &, uint64_t) override {}
  std::vector<Config> propose(size_t count, const TuningHistory &history) override {
    std::vector<Config> out;
    for (const Config &c : list)
      if (out.size() < count && !history.contains(c))
        out.push_back(c);
    return out;
  }
  std::vector<Config> list;
};

double latency(const Config &c) { return c[0] < 4 ? 100.0 + c[1] : 1.0 + 0.1 * c[1]; }
} // namespace

TEST(ColdCandidateFilter, DropsProposalsAmongColdNeighboursAndRefills) {
  // Knob a in 0..7, b in 0..7: a < 4 is a hundred times slower.
  std::vector<int64_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  SearchSpace space = llvm::cantFail(SearchSpace::create({{"a", values}, {"b", values}}, {}, {}));
  // Measured: the whole fast half and most of the slow one, the first
  // record fast so that every slow one is cold by the running best.
  TuningHistory history;
  auto measure = [&](const Config &c) {
    MeasureRecord r;
    r.timeMs = latency(c);
    history.configs.push_back(c);
    history.records.push_back(r);
    history.measured.insert(c);
  };
  measure({4, 0});
  for (int64_t a = 0; a < 8; ++a)
    for (int64_t b = 0; b < 6; ++b)
      if (!(a == 4 && b == 0))
        measure({a, b});
  // Unmeasured: b = 6, 7 for every a; slow ones listed first.
  std::vector<Config> order;
  for (int64_t b = 6; b < 8; ++b)
    for (int64_t a = 0; a < 8; ++a)
      order.push_back({a, b});
  std::stable_sort(order.begin(), order.end(),
                   [](const Config &x, const Config &y) { return latency(x) > latency(y); });

  ColdFilterOptions o;
  o.rule = ColdRule::RunningBest;
  o.neighbours = 3;
  o.initialEpsilon = 1.0;
  auto stats = std::make_shared<ColdFilterStats>();
  ColdCandidateFilter filter(std::make_unique<ListSearch>(order), o, stats);
  filter.initialize(space, 1);
  std::vector<Config> batch = filter.propose(4, history);
  ASSERT_EQ(batch.size(), 4u);
  EXPECT_EQ(stats->trainings, 1u);
  // The slow half's proposals were dropped and replaced by fast ones. (b's
  // values 6 and 7 were never measured: their embeddings are untrained, so
  // one slow proposal may look like none of its kind.)
  size_t slowKept = 0;
  for (const Config &c : batch)
    slowKept += c[0] < 4;
  EXPECT_LE(slowKept, 1u);
  EXPECT_GE(stats->dropped, 7u);
  EXPECT_LE(stats->dropped, 8u); // only the 8 unmeasured slow ones
  EXPECT_EQ(stats->proposed, stats->dropped + batch.size());
  // Dropped candidates are not proposed again (kept ones are, as nothing
  // was measured).
  std::vector<Config> next = filter.propose(4, history);
  for (const Config &c : next)
    EXPECT_TRUE(c[0] >= 4 || std::find(batch.begin(), batch.end(), c) != batch.end());

  // Epsilon 0: the filter passes everything through.
  ColdFilterOptions never = o;
  never.initialEpsilon = 0;
  auto none = std::make_shared<ColdFilterStats>();
  ColdCandidateFilter passThrough(std::make_unique<ListSearch>(order), never, none);
  passThrough.initialize(space, 1);
  EXPECT_EQ(passThrough.propose(4, history), std::vector<Config>(order.begin(), order.begin() + 4));
  EXPECT_EQ(none->dropped, 0u);
}

/// Knobs a and b of values 0-3, and its 16 configs in order.
static SearchSpace fourByFour(std::vector<Config> &all) {
  std::vector<int64_t> values = {0, 1, 2, 3};
  for (int64_t a = 0; a < 4; ++a)
    for (int64_t b = 0; b < 4; ++b)
      all.push_back({a, b});
  return llvm::cantFail(SearchSpace::create({{"a", values}, {"b", values}}, {}, {}));
}

TEST(ColdCandidateFilter, EpsilonDecaysAfterEachRetraining) {
  std::vector<Config> all;
  SearchSpace space = fourByFour(all);
  ColdFilterOptions o;
  o.minRecords = 4;
  o.retrainEvery = 4;
  o.neighbours = 2;
  o.initialEpsilon = 0.8;
  o.epsilonDecay = 0.5;
  o.network.minSteps = 20;
  auto stats = std::make_shared<ColdFilterStats>();
  ColdCandidateFilter filter(std::make_unique<ListSearch>(all), o, stats);
  filter.initialize(space, 2);
  TuningHistory history;
  EXPECT_EQ(filter.propose(4, history).size(), 4u);
  EXPECT_EQ(stats->trainings, 0u); // nothing measured yet
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 4; ++i) {
      Config c = all[history.records.size()];
      MeasureRecord r;
      r.timeMs = 1.0 + double(c[0]);
      history.configs.push_back(c);
      history.records.push_back(r);
      history.measured.insert(c);
    }
    filter.propose(1, history);
  }
  EXPECT_EQ(stats->trainings, 3u);
  EXPECT_DOUBLE_EQ(stats->epsilon, 0.8 * 0.5 * 0.5);

  // A second filter sharing the stats (replay-model's tasks) starts at the
  // initial probability: the decay counts its own trainings.
  ColdCandidateFilter second(std::make_unique<ListSearch>(all), o, stats);
  second.initialize(space, 3);
  second.propose(1, history);
  EXPECT_EQ(stats->trainings, 4u);
  EXPECT_DOUBLE_EQ(stats->epsilon, 0.8);
}

TEST(ColdCandidateFilter, ParsesItsNames) {
  std::optional<ColdRule> rule = ColdRule::Trend;
  EXPECT_TRUE(parseColdFilter("off", rule));
  EXPECT_FALSE(rule);
  EXPECT_TRUE(parseColdFilter("nn", rule));
  EXPECT_EQ(rule, ColdRule::RunningBest);
  EXPECT_TRUE(parseColdFilter("trend", rule));
  EXPECT_EQ(rule, ColdRule::Trend);
  EXPECT_FALSE(parseColdFilter("on", rule));
}

TEST(ColdCandidateFilter, APriorFiltersFromTheFirstProposal) {
  // Two knobs of 4 values; on the other devices every config with a < 2
  // was 5x slower than their best (and a=0,b=3 failed), a >= 2 within 1.5x.
  std::vector<Config> all;
  SearchSpace space = fourByFour(all);
  auto prior = std::make_shared<std::vector<ColdFilterPrior>>();
  for (int device = 0; device < 3; ++device)
    for (const Config &c : all)
      prior->push_back({c, c[0] == 0 && c[1] == 3 ? NAN
                           : c[0] < 2              ? 5.0
                                                   : 1.0 + 0.1 * double(c[1] + device)});
  ColdFilterOptions o;
  o.rule = ColdRule::RunningBest;
  o.neighbours = 3; // each config's own three prior rows
  o.initialEpsilon = 1.0;
  o.prior = prior;
  auto stats = std::make_shared<ColdFilterStats>();
  ColdCandidateFilter filter(std::make_unique<ListSearch>(all), o, stats);
  filter.initialize(space, 1);
  EXPECT_EQ(stats->trainings, 1u); // pretrained before anything was measured
  TuningHistory nothing;
  std::vector<Config> batch = filter.propose(8, nothing);
  // The eight a < 2 proposals came first and were dropped; the batch was
  // refilled with the eight others.
  ASSERT_EQ(batch.size(), 8u);
  for (const Config &c : batch)
    EXPECT_GE(c[0], 2) << c[0] << "," << c[1];
  EXPECT_EQ(stats->dropped, 8u);
  EXPECT_EQ(stats->proposed, 16u);
  // The task's own records train it at minRecords (here 4), as without a
  // prior, not retrainEvery after the pretraining.
  TuningHistory measured;
  for (size_t i = 0; i < 4; ++i) {
    MeasureRecord r;
    r.timeMs = 1.0 + double(i);
    measured.add(batch[i], r);
  }
  ColdFilterOptions early = o;
  early.minRecords = 4;
  early.neighbours = 3;
  early.retrainEvery = 100;
  early.network.minSteps = 20;
  auto earlyStats = std::make_shared<ColdFilterStats>();
  ColdCandidateFilter earlyFilter(std::make_unique<ListSearch>(all), early, earlyStats);
  earlyFilter.initialize(space, 1);
  earlyFilter.propose(1, measured);
  EXPECT_EQ(earlyStats->trainings, 2u);

  // Without the prior nothing is dropped before the task's own records.
  ColdFilterOptions own = o;
  own.prior = nullptr;
  auto none = std::make_shared<ColdFilterStats>();
  ColdCandidateFilter plain(std::make_unique<ListSearch>(all), own, none);
  plain.initialize(space, 1);
  EXPECT_EQ(plain.propose(8, nothing), std::vector<Config>(all.begin(), all.begin() + 8));
  EXPECT_EQ(none->dropped, 0u);
  EXPECT_EQ(none->trainings, 0u);

  // Prior rows outside the space (a value it lacks) are skipped, not
  // guessed: a prior of only those leaves the filter as without one.
  auto outside = std::make_shared<std::vector<ColdFilterPrior>>(
      std::vector<ColdFilterPrior>{{{7, 0}, 9.0}, {{0, 9}, 9.0}, {{7, 7}, NAN}});
  ColdFilterOptions stray = o;
  stray.prior = outside;
  auto strayStats = std::make_shared<ColdFilterStats>();
  ColdCandidateFilter strayFilter(std::make_unique<ListSearch>(all), stray, strayStats);
  strayFilter.initialize(space, 1);
  EXPECT_EQ(strayStats->trainings, 0u);
  EXPECT_EQ(strayFilter.propose(8, nothing).size(), 8u);
  EXPECT_EQ(strayStats->dropped, 0u);
}

TEST(ColdCandidateFilter, APriorThatArrivesLaterFiltersFromThen) {
  // A live run's history grows while it tunes: the refresh gives nothing
  // at the first proposal (nothing is dropped), then the prior of
  // APriorFiltersFromTheFirstProposal, which the network trains on at once
  // and filters with from that proposal on.
  std::vector<Config> all;
  SearchSpace space = fourByFour(all);
  auto prior = std::make_shared<std::vector<ColdFilterPrior>>();
  for (int device = 0; device < 3; ++device)
    for (const Config &c : all)
      prior->push_back({c, c[0] < 2 ? 5.0 : 1.0 + 0.1 * double(c[1] + device)});
  int asked = 0;
  ColdFilterOptions o;
  o.rule = ColdRule::RunningBest;
  o.neighbours = 3;
  o.minRecords = 4;
  o.retrainEvery = 100;
  o.network.minSteps = 20;
  o.initialEpsilon = 1.0;
  o.refreshPrior = [&](const TuningHistory &) -> std::shared_ptr<const std::vector<ColdFilterPrior>> {
    return ++asked == 2 ? prior : nullptr;
  };
  auto stats = std::make_shared<ColdFilterStats>();
  ColdCandidateFilter filter(std::make_unique<ListSearch>(all), o, stats);
  filter.initialize(space, 1);
  EXPECT_EQ(stats->trainings, 0u);
  TuningHistory history;
  std::vector<Config> first = filter.propose(2, history);
  EXPECT_EQ(first, std::vector<Config>(all.begin(), all.begin() + 2)); // a = 0, kept
  EXPECT_EQ(stats->dropped, 0u);
  for (const Config &c : first) {
    MeasureRecord r;
    r.timeMs = 5.0;
    history.add(c, r);
  }
  std::vector<Config> second = filter.propose(4, history);
  EXPECT_EQ(stats->trainings, 1u);
  ASSERT_EQ(second.size(), 4u);
  for (const Config &c : second)
    EXPECT_GE(c[0], 2) << c[0] << "," << c[1];
  EXPECT_EQ(stats->dropped, 6u); // the other six with a < 2
  EXPECT_EQ(asked, 2);
  // The task's own records still train it first at minRecords (4 here),
  // not retrainEvery after the training the prior brought.
  for (size_t i = 0; i < 2; ++i) {
    MeasureRecord r;
    r.timeMs = 1.0;
    history.add(second[i], r);
  }
  filter.propose(1, history);
  EXPECT_EQ(stats->trainings, 2u);
  EXPECT_EQ(asked, 3); // asked again: the records changed
}

TEST(ColdFilterPrior, SlowdownsOverEachSourcesBestWithKnobsMatchedByName) {
  auto cache = [](const std::string &device, double scale) {
    KernelTunerCache c;
    c.deviceName = device;
    // The source lists the knobs in the other order and has an extra one.
    c.knobs = {{"b", {1, 2}}, {"a", {0, 1}}, {"extra", {5}}};
    c.entries.push_back({{1, 0, 5}, MeasureStatus::Ok, 2.0 * scale});
    c.entries.push_back({{2, 1, 5}, MeasureStatus::Ok, 6.0 * scale});
    c.entries.push_back({{2, 0, 5}, MeasureStatus::RuntimeCrash, NAN});
    return c;
  };
  std::vector<Knob> target = {{"a", {0, 1}}, {"b", {1, 2}}};
  std::vector<std::string> notes;
  std::vector<ColdFilterPrior> prior = llvm::cantFail(buildColdFilterPrior(
      {cache("fast", 1.0), cache("slow", 10.0)}, {"fast.json", "slow.json"}, target, notes));
  ASSERT_EQ(prior.size(), 6u);
  // Each source's times over its own best: the slow device's rows read the
  // same as the fast one's.
  for (size_t device = 0; device < 2; ++device) {
    EXPECT_EQ(prior[3 * device].config, (Config{0, 1}));
    EXPECT_DOUBLE_EQ(prior[3 * device].slowdown, 1.0);
    EXPECT_EQ(prior[3 * device + 1].config, (Config{1, 2}));
    EXPECT_DOUBLE_EQ(prior[3 * device + 1].slowdown, 3.0);
    EXPECT_TRUE(std::isnan(prior[3 * device + 2].slowdown)); // failed there
  }
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("'fast.json': knob 'extra' is not in the target space"),
            std::string::npos);

  std::vector<Knob> more = {{"a", {0, 1}}, {"c", {1}}};
  llvm::Expected<std::vector<ColdFilterPrior>> missing =
      buildColdFilterPrior({cache("fast", 1.0)}, {"fast.json"}, more, notes);
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("fast.json"), std::string::npos);
}
