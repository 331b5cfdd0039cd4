//===- TuningLoopTest.cpp - Strategies, the loop and replay ---------------===//

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/MeasureCallback/DatabaseCommitter.h"
#include "dltune/Tuning/Replay/KernelTunerCache.h"
#include "dltune/Tuning/Replay/ReplayMeasurer.h"
#include "dltune/Tuning/Replay/SimulatedWorkers.h"
#include "dltune/Tuning/SearchStrategy/DeferredSearch.h"
#include "dltune/Tuning/SearchStrategy/SeededSearch.h"
#include "dltune/Tuning/MeasureCallback/TuningLoop.h"
#include "dltune/Tuning/Process/WorkerProtocol.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Version.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace mlir::dltune;

namespace {
SearchSpace smallSpace() {
  return llvm::cantFail(SearchSpace::create(
      {{"a", {1, 2, 4, 8}}, {"b", {1, 2, 4, 8}}}, {{"N", 8}}, {"a * b <= N"}));
}

/// time = |a - 2| + |b - 4| + 1 ms: optimum 1 ms at a=2, b=4.
class SyntheticMeasurer : public Measurer {
public:
  std::vector<MeasureRecord> measure(const std::vector<Config> &configs) override {
    std::vector<MeasureRecord> out;
    for (const Config &c : configs) {
      MeasureRecord r;
      r.timeMs = std::abs(c[0] - 2) + std::abs(c[1] - 4) + 1;
      clock += 1;
      calls.push_back(c);
      out.push_back(r);
    }
    return out;
  }
  double getClockSeconds() const override { return clock; }
  double clock = 0;
  std::vector<Config> calls;
};

class Counter : public MeasureCallback {
public:
  void onResult(const Config &, const MeasureRecord &, const TuningProgress &p) override {
    ++results;
    last = p.trialsDone;
  }
  void onFinish(const TuningProgress &) override { ++finished; }
  int results = 0, finished = 0;
  int64_t last = 0;
};
} // namespace

TEST(TuningLoop, StrategiesProposeOnlyValidUnmeasuredConfigs) {
  SearchSpace space = smallSpace();
  uint64_t valid = space.countValid();
  for (const char *name : {"random", "grid"}) {
    auto strategy = llvm::cantFail(createSearchStrategy(name));
    SyntheticMeasurer m;
    TuningHistory history;
    Counter counter;
    MeasureCallback *cbs[] = {&counter};
    TuningOptions o;
    o.trials = 100; // more than the space holds: stops when exhausted
    o.batchSize = 3;
    o.seed = 5;
    TuningProgress p = runTuningLoop(space, *strategy, m, history, cbs, o);
    EXPECT_EQ(static_cast<uint64_t>(p.trialsDone), valid) << name;
    std::set<Config> seen;
    for (const Config &c : m.calls) {
      EXPECT_TRUE(space.isValid(c)) << name;
      EXPECT_TRUE(seen.insert(c).second) << name << ": measured twice";
    }
    EXPECT_EQ(p.bestMs, 1.0) << name;
    EXPECT_EQ(*p.best, (Config{2, 4})) << name;
    EXPECT_EQ(counter.results, static_cast<int>(valid));
    EXPECT_EQ(counter.finished, 1);
  }
  EXPECT_FALSE(static_cast<bool>(createSearchStrategy("nope")));
  llvm::consumeError(createSearchStrategy("nope").takeError());
}

TEST(TuningLoop, HistoryCountsTowardsTheBudgetAndIsNotRemeasured) {
  SearchSpace space = smallSpace();
  TuningHistory history;
  for (Config c : {Config{1, 1}, Config{2, 4}}) {
    MeasureRecord r;
    r.timeMs = c == Config{2, 4} ? 1.0 : 5.0;
    history.configs.push_back(c);
    history.records.push_back(r);
    history.measured.insert(c);
  }
  auto strategy = llvm::cantFail(createSearchStrategy("random"));
  SyntheticMeasurer m;
  TuningOptions o;
  o.trials = 5;
  TuningProgress p = runTuningLoop(space, *strategy, m, history, {}, o);
  EXPECT_EQ(p.trialsDone, 3);
  EXPECT_EQ(m.calls.size(), 3u);
  for (const Config &c : m.calls) {
    EXPECT_NE(c, (Config{1, 1}));
    EXPECT_NE(c, (Config{2, 4}));
  }
  EXPECT_EQ(p.bestMs, 1.0); // the best from history stands
}

/// A worker sharing the task: after each of this process's batches, the
/// other worker has measured the next configuration of `theirs`.
class SharingMeasurer : public SyntheticMeasurer {
public:
  std::vector<std::pair<Config, MeasureRecord>>
  collectOthersResults(const TuningHistory &history) override {
    std::vector<std::pair<Config, MeasureRecord>> out;
    if (next < theirs.size() && !history.contains(theirs[next])) {
      MeasureRecord r;
      r.timeMs = theirs[next] == Config{2, 4} ? 1.0 : 7.0;
      r.config = "theirs";
      out.emplace_back(theirs[next], r);
    }
    ++next;
    return out;
  }
  std::vector<Config> theirs;
  size_t next = 0;
};

TEST(TuningLoop, OtherWorkersResultsShareTheBudgetAndAreNotRemeasured) {
  SearchSpace space = smallSpace();
  auto strategy = llvm::cantFail(createSearchStrategy("grid"));
  SharingMeasurer m;
  // The other worker measures the optimum first, then two more.
  m.theirs = {Config{2, 4}, Config{8, 1}, Config{4, 2}};
  TuningHistory history;
  TuningOptions o;
  o.trials = 8;
  TuningProgress p = runTuningLoop(space, *strategy, m, history, {}, o);
  // 8 measurements of the task in all: 3 of theirs, 5 of this process.
  EXPECT_EQ(history.records.size(), 8u);
  EXPECT_EQ(p.trialsDone, 5);
  EXPECT_EQ(m.calls.size(), 5u);
  for (const Config &c : m.theirs)
    EXPECT_EQ(std::count(m.calls.begin(), m.calls.end(), c), 0)
        << "a configuration another worker measured was measured again";
  EXPECT_EQ(p.bestMs, 1.0);
  EXPECT_EQ(*p.best, (Config{2, 4}));
}

/// The tuner's database side in memory: results reach the database only
/// through DatabaseCommitter, and a resumed run starts from what it holds.
TEST(DatabaseCommitter, CommitsEveryResultAndAResumedRunGoesOn) {
  SearchSpace space = smallSpace();
  std::unique_ptr<Database> db = createMemoryDatabase();
  TaskRecord task;
  task.hash = "loop";
  task.space = space.getCanonicalString();
  int64_t t = llvm::cantFail(db->getOrCreateTask(task));
  int64_t d = llvm::cantFail(db->getOrCreateDevice({0, "fp", "cpu", "{}"}));
  std::vector<std::string> errors;
  auto onError = [&](llvm::Error e) { errors.push_back(llvm::toString(std::move(e))); };
  auto strategy = llvm::cantFail(createSearchStrategy("random"));
  SyntheticMeasurer first;
  TuningHistory none;
  DatabaseCommitter committer(*db, t, d, onError);
  MeasureCallback *cbs[] = {&committer};
  TuningOptions o;
  o.trials = 6;
  o.seed = 3;
  TuningProgress p = runTuningLoop(space, *strategy, first, none, cbs, o);
  EXPECT_TRUE(errors.empty());
  std::vector<MeasureRecord> records = llvm::cantFail(db->getRecords(t, d));
  ASSERT_EQ(records.size(), first.calls.size());
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].config, space.formatConfig(first.calls[i]));
    EXPECT_EQ(records[i].generator, getGeneratorString());
  }
  EXPECT_EQ(llvm::cantFail(db->getBest(t, d))->timeMs, p.bestMs);

  // Resume: the records are the history, counted and never measured again.
  TuningHistory history;
  for (const MeasureRecord &r : records) {
    Config c = llvm::cantFail(space.parseConfig(r.config));
    history.configs.push_back(c);
    history.records.push_back(r);
    history.measured.insert(c);
  }
  SyntheticMeasurer second;
  o.trials = 10;
  runTuningLoop(space, *strategy, second, history, cbs, o);
  EXPECT_EQ(second.calls.size(), 4u);
  for (const Config &c : second.calls)
    EXPECT_FALSE(std::count(first.calls.begin(), first.calls.end(), c));
  EXPECT_EQ(llvm::cantFail(db->getRecords(t, d)).size(), 10u);
  EXPECT_TRUE(errors.empty());
}

TEST(DatabaseCommitter, CommitFailuresReachTheHandlerAndTuningGoesOn) {
  SearchSpace space = smallSpace();
  std::unique_ptr<Database> db = createMemoryDatabase();
  int64_t d = llvm::cantFail(db->getOrCreateDevice({0, "fp", "cpu", "{}"}));
  std::vector<std::string> errors;
  // No task 7: every commit fails (the file's foreign key).
  DatabaseCommitter committer(*db, 7, d, [&](llvm::Error e) {
    errors.push_back(llvm::toString(std::move(e)));
  });
  MeasureCallback *cbs[] = {&committer};
  auto strategy = llvm::cantFail(createSearchStrategy("random"));
  SyntheticMeasurer m;
  TuningHistory history;
  TuningOptions o;
  o.trials = 3;
  TuningProgress p = runTuningLoop(space, *strategy, m, history, cbs, o);
  EXPECT_EQ(p.trialsDone, 3);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0], "database: FOREIGN KEY constraint failed");
  EXPECT_TRUE(llvm::cantFail(db->getRecords(7)).empty());
}

TEST(SeededSearch, MeasuresSeedsFirstOnceAndThenTheWrappedStrategy) {
  SearchSpace space = smallSpace();
  TuningHistory history;
  MeasureRecord r;
  r.timeMs = 3.0;
  history.configs.push_back({8, 1});
  history.records.push_back(r);
  history.measured.insert({8, 1});
  // {8, 1} is in the history already and {1, 8} is given twice: two seeds
  // are left to measure, first and in order.
  SeededSearch strategy(llvm::cantFail(createSearchStrategy("random")),
                        {Config{8, 1}, Config{1, 8}, Config{1, 8}, Config{2, 4}});
  SyntheticMeasurer m;
  TuningOptions o;
  o.trials = 1 + 6;
  o.batchSize = 2;
  TuningProgress p = runTuningLoop(space, strategy, m, history, {}, o);
  EXPECT_EQ(p.trialsDone, 6);
  ASSERT_EQ(m.calls.size(), 6u);
  EXPECT_EQ(m.calls[0], (Config{1, 8}));
  EXPECT_EQ(m.calls[1], (Config{2, 4}));
  std::set<Config> seen(m.calls.begin(), m.calls.end());
  EXPECT_EQ(seen.size(), m.calls.size()); // nothing twice
  EXPECT_FALSE(seen.count(Config{8, 1}));
  EXPECT_EQ(strategy.getName(), "random");
}

namespace {
/// A strategy that proposes at random and remembers what it was told.
class TellingStrategy : public SearchStrategy {
public:
  explicit TellingStrategy(std::string name) : name(std::move(name)) {}
  llvm::StringRef getName() const override { return name; }
  void initialize(const SearchSpace &space, uint64_t seed) override {
    ++initialized;
    random->initialize(space, seed);
  }
  std::vector<Config> propose(size_t count, const TuningHistory &history) override {
    return random->propose(count, history);
  }
  void update(const std::vector<Config> &configs,
              const std::vector<MeasureRecord> &records) override {
    told.insert(told.end(), configs.begin(), configs.end());
  }
  std::string name;
  int initialized = 0;
  std::vector<Config> told;
  std::unique_ptr<SearchStrategy> random = llvm::cantFail(createSearchStrategy("random"));
};
} // namespace

TEST(DeferredSearch, BuildsAtTheFirstProposalAndAgainWhenTheRefreshSaysSo) {
  // The factory has nothing the first time (the fallback proposes), then a
  // strategy each time it is asked; the refresh rule says yes on the
  // fourth proposal only. The strategy built then is told of every result
  // so far and proposes from there on.
  SearchSpace space = smallSpace();
  int asked = 0;
  std::vector<TellingStrategy *> made;
  auto fallback = std::make_unique<TellingStrategy>("fallback");
  TellingStrategy *fallbackPtr = fallback.get();
  int proposals = 0;
  DeferredSearch search(
      [&]() -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
        if (asked++ == 0)
          return std::unique_ptr<SearchStrategy>();
        auto s = std::make_unique<TellingStrategy>("built " + std::to_string(asked));
        made.push_back(s.get());
        return std::unique_ptr<SearchStrategy>(std::move(s));
      },
      std::move(fallback), [](llvm::Error e) { ADD_FAILURE() << llvm::toString(std::move(e)); },
      [&](const TuningHistory &) { return ++proposals == 3; });
  search.initialize(space, 7);
  SyntheticMeasurer m;
  TuningHistory history;
  std::vector<std::string> proposedBy;
  for (int step = 0; step < 5; ++step) {
    std::vector<Config> batch = search.propose(2, history);
    ASSERT_EQ(batch.size(), 2u);
    proposedBy.push_back(search.getName().str());
    std::vector<MeasureRecord> records = m.measure(batch);
    for (size_t i = 0; i < batch.size(); ++i)
      history.add(batch[i], records[i]);
    search.update(batch, records);
  }
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(search.getBuildCount(), 1u);
  EXPECT_EQ(proposedBy, (std::vector<std::string>{"fallback", "fallback", "fallback", "built 2",
                                                  "built 2"}));
  EXPECT_EQ(fallbackPtr->initialized, 1);
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0]->initialized, 1);
  // Told of the six results before it took over, and of the four after.
  ASSERT_EQ(made[0]->told.size(), 10u);
  EXPECT_EQ(std::vector<Config>(made[0]->told.begin(), made[0]->told.begin() + 6),
            std::vector<Config>(history.configs.begin(), history.configs.begin() + 6));
  EXPECT_EQ(fallbackPtr->told.size(), 6u);
}

TEST(DeferredSearch, AFactoryWithNothingNewKeepsTheCurrentStrategy) {
  SearchSpace space = smallSpace();
  int asked = 0;
  DeferredSearch search(
      [&]() -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
        if (asked++ == 0)
          return std::unique_ptr<SearchStrategy>(std::make_unique<TellingStrategy>("first"));
        if (asked == 2)
          return makeError("history unreadable");
        return std::unique_ptr<SearchStrategy>();
      },
      std::make_unique<TellingStrategy>("fallback"),
      [&](llvm::Error e) { EXPECT_EQ(llvm::toString(std::move(e)), "history unreadable"); },
      [](const TuningHistory &) { return true; });
  search.initialize(space, 7);
  SyntheticMeasurer m;
  TuningHistory history;
  for (int step = 0; step < 3; ++step) {
    std::vector<Config> batch = search.propose(1, history);
    ASSERT_EQ(batch.size(), 1u);
    EXPECT_EQ(search.getName(), "first");
    // Asked again only once the records have changed.
    int before = asked;
    search.propose(1, history);
    EXPECT_EQ(asked, before);
    history.add(batch[0], m.measure(batch)[0]);
  }
  EXPECT_EQ(asked, 3);
  EXPECT_EQ(search.getBuildCount(), 1u);
}

TEST(TuningLoop, TimeBudgetStopsTheLoop) {
  SearchSpace space = smallSpace();
  auto strategy = llvm::cantFail(createSearchStrategy("random"));
  SyntheticMeasurer m;
  TuningHistory history;
  TuningOptions o;
  o.trials = 100;
  o.timeBudgetSeconds = 4; // each measurement costs 1 simulated second
  TuningProgress p = runTuningLoop(space, *strategy, m, history, {}, o);
  EXPECT_EQ(p.trialsDone, 4);
}

static std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + "/" + name + std::to_string(::getpid());
  std::ofstream(path) << text;
  return path;
}

TEST(Replay, AnswersFromTheCacheAndAdvancesTheClock) {
  // A partial cache (ends in "},") as Kernel Tuner leaves it when stopped.
  std::string path = writeTemp("kt", R"({"device_name": "D", "kernel_name": "k",
    "tune_params_keys": ["x"], "tune_params": {"x": [1, 2, 3]},
    "cache": {
    "1": {"x": 1, "time": 2.0, "times": [1.0, 3.0], "compile_time": 1000, "benchmark_time": 500, "verification_time": 0, "framework_time": 0},
    "2": {"x": 2, "time": "CompilationFailedConfig", "compile_time": 2000, "benchmark_time": 0, "verification_time": 0, "framework_time": 0},)");
  llvm::Expected<KernelTunerCache> cache = KernelTunerCache::load(path);
  ASSERT_TRUE(static_cast<bool>(cache)) << llvm::toString(cache.takeError());
  EXPECT_EQ(cache->entries.size(), 2u);
  EXPECT_EQ(cache->getOptimumMs(), 2.0);
  SearchSpace space = cache->getSpace();
  EXPECT_EQ(space.countValid(), 2u); // x = 3 was never recorded
  EXPECT_FALSE(space.isValid({3}));
  ReplayMeasurer mean(*cache, false, 1);
  std::vector<MeasureRecord> r = mean.measure({{1}, {2}, {3}});
  EXPECT_TRUE(r[0].isOk());
  EXPECT_EQ(r[0].timeMs, 2.0);
  EXPECT_EQ(r[1].status, MeasureStatus::CompileError);
  EXPECT_EQ(r[2].status, MeasureStatus::InvalidConfig);
  EXPECT_DOUBLE_EQ(mean.getClockSeconds(), 1.5 + 2.0);
  ReplayMeasurer noisy(*cache, true, 1);
  std::set<double> drawn;
  for (int i = 0; i < 50; ++i)
    drawn.insert(noisy.measure({{1}})[0].timeMs);
  EXPECT_EQ(drawn, (std::set<double>{1.0, 3.0}));
}

// JSON deeper than 64 levels is refused before parsing (printing such a
// value recurses per level); brackets inside strings, escaped quotes
// included, are not nesting. (The check was a parser callback, which made
// reading a large cache quadratic in its entries.)
TEST(Replay, DeepJsonIsRefusedAndBracketsInStringsAreNotNesting) {
  auto cacheWith = [](const std::string &kernelName, const std::string &extra) {
    return R"({"kernel_name": ")" + kernelName +
           R"(", "tune_params_keys": ["x"], "tune_params": {"x": [1]},
             "cache": {"1": {"x": 1, "time": 2.0)" + extra + "}}}";
  };
  // The wrapper holds 3 levels (document, cache, entry): 62 more is 65.
  std::string deep = std::string(62, '[') + std::string(62, ']');
  llvm::Expected<KernelTunerCache> refused =
      KernelTunerCache::parse(cacheWith("k", ", \"extra\": " + deep), "deep");
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_NE(llvm::toString(refused.takeError()).find("nested deeper than 64 levels"),
            std::string::npos);
  std::string shallow = std::string(61, '[') + std::string(61, ']'); // 64 levels
  llvm::Expected<KernelTunerCache> ok =
      KernelTunerCache::parse(cacheWith("k", ", \"extra\": " + shallow), "shallow");
  EXPECT_TRUE(static_cast<bool>(ok)) << llvm::toString(ok.takeError());
  // In the JSON text: a \\ \" [[[...{{{ (an escaped backslash, an escaped quote).
  std::string brackets = std::string(100, '[') + std::string(30, '{');
  std::string name = "a \\\\ \\\" " + brackets;
  llvm::Expected<KernelTunerCache> named = KernelTunerCache::parse(cacheWith(name, ""), "named");
  ASSERT_TRUE(static_cast<bool>(named)) << llvm::toString(named.takeError());
  EXPECT_EQ(named->kernelName, "a \\ \" " + brackets);
  // A string ending in an escaped backslash closes at the next quote: the
  // brackets of the following string are not nesting either (a scan that
  // took \" for an escaped quote would count them and refuse the file).
  std::string closers = ", \"note\": \"x\\\\\", \"more\": \"" + std::string(70, '[') + "\"";
  llvm::Expected<KernelTunerCache> escaped =
      KernelTunerCache::parse(cacheWith("k", closers), "escaped");
  EXPECT_TRUE(static_cast<bool>(escaped)) << llvm::toString(escaped.takeError());
}

TEST(Replay, RealDatasetWhenPresent) {
  std::string path =
      std::string(DLTUNE_SOURCE_DIR) +
      "/../shared/datasets/kernel_tuner_benchmark_hub/convolution_milo/A100.json.gz";
  if (!std::ifstream(path))
    GTEST_SKIP() << "shared datasets not present";
  llvm::Expected<KernelTunerCache> cache = KernelTunerCache::load(path);
  ASSERT_TRUE(static_cast<bool>(cache)) << llvm::toString(cache.takeError());
  EXPECT_EQ(cache->entries.size(), 4362u);
  int failed = 0;
  for (const RecordedMeasurement &m : cache->entries)
    failed += m.status != MeasureStatus::Ok;
  EXPECT_EQ(failed, 161); // 155 runtime + 6 compile failures
  EXPECT_EQ(cache->getSpace().countValid(), 4362u);
}

TEST(FaultInjection, DrawsAreDeterministicAndFollowTheProbability) {
  setenv("DLTUNE_INJECT_FAULT", "crash:0.25,wrong", 1);
  setenv("DLTUNE_INJECT_SEED", "3", 1);
  int crashes = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string cfg = "a=" + std::to_string(i);
    bool first = worker::shouldInjectFault("crash", cfg);
    EXPECT_EQ(first, worker::shouldInjectFault("crash", cfg));
    crashes += first;
    EXPECT_TRUE(worker::shouldInjectFault("wrong", cfg));
    EXPECT_FALSE(worker::shouldInjectFault("hang", cfg));
  }
  EXPECT_GT(crashes, 400);
  EXPECT_LT(crashes, 600);
  unsetenv("DLTUNE_INJECT_FAULT");
  EXPECT_FALSE(worker::shouldInjectFault("wrong", "a=1"));
}

namespace {
/// A recorded space x in [0, 40): time |x - 30| + 1 ms, each configuration
/// costing 1 simulated second (compile 0.5 s + benchmark 0.5 s).
KernelTunerCache lineCache() {
  std::string text = R"({"device_name": "D", "kernel_name": "line", "tune_params_keys": ["x"],
    "tune_params": {"x": [)";
  for (int x = 0; x < 40; ++x)
    text += (x ? "," : "") + std::to_string(x);
  text += R"(]}, "cache": {)";
  for (int x = 0; x < 40; ++x)
    text += (x ? "," : "") + ("\"" + std::to_string(x) + "\": {\"x\": " + std::to_string(x) +
                              ", \"time\": " + std::to_string(std::abs(x - 30) + 1) +
                              ", \"compile_time\": 500, \"benchmark_time\": 500, "
                              "\"verification_time\": 0, \"framework_time\": 0}");
  text += "}}";
  return llvm::cantFail(KernelTunerCache::parse(text, "line"));
}
} // namespace

TEST(SimulatedWorkers, ShareOneBudgetWithoutMeasuringTwice) {
  KernelTunerCache cache = lineCache();
  auto random = [](int) { return llvm::cantFail(createSearchStrategy("random")); };
  for (int workers : {1, 4}) {
    SimulatedWorkersOptions o;
    o.workers = workers;
    o.trials = 20;
    o.batchSize = 2;
    SimulatedWorkersRun run = simulateWorkers(cache, random, o);
    ASSERT_EQ(run.results.size(), 20u) << workers;
    std::set<Config> seen;
    for (size_t i = 0; i < run.results.size(); ++i) {
      EXPECT_TRUE(seen.insert(run.results[i].config).second) << "measured twice";
      if (i)
        EXPECT_LE(run.results[i - 1].commitSeconds, run.results[i].commitSeconds);
    }
    // 20 one-second measurements over the workers, batches of 2.
    EXPECT_DOUBLE_EQ(run.wallSeconds, workers == 1 ? 20.0 : 6.0) << workers;
  }
  // Grid search with 40 trials over 4 workers: the whole space, once, the
  // optimum found; the time to reach it is that of its commit.
  SimulatedWorkersOptions o;
  o.workers = 4;
  o.trials = 40;
  SimulatedWorkersRun run =
      simulateWorkers(cache, [](int) { return llvm::cantFail(createSearchStrategy("grid")); }, o);
  EXPECT_EQ(run.results.size(), 40u);
  EXPECT_EQ(run.bestMs(), 1.0);
  EXPECT_EQ(run.wallSeconds, 10.0);
  double at = run.secondsToReach(1.0, 1.0);
  int64_t count = run.measurementsToReach(1.0, 1.0);
  ASSERT_GT(count, 0);
  EXPECT_EQ(run.results[count - 1].record.timeMs, 1.0);
  EXPECT_EQ(run.results[count - 1].commitSeconds, at);
  EXPECT_GT(run.skippedClaims, 0) << "grid workers propose the same order: claims skip";
}
