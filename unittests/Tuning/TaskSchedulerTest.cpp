//===- TaskSchedulerTest.cpp - Task schedulers and the model tuner --------===//

#include "dltune/Tuning/TaskScheduler/LearningCurve.h"
#include "dltune/Tuning/TaskScheduler/ModelSuspension.h"
#include "dltune/Tuning/TaskScheduler/MultiTaskTuner.h"
#include "dltune/Tuning/Replay/SimulatedCluster.h"
#include "dltune/Tuning/TaskScheduler/SurveyRule.h"
#include "dltune/Tuning/SearchStrategy/SeededSearch.h"

#include "gtest/gtest.h"

using namespace mlir::dltune;

namespace {
std::unique_ptr<TaskScheduler> make(llvm::StringRef name, SchedulerOptions o = {}) {
  return llvm::cantFail(createTaskScheduler(name, o));
}

TaskState task(double weight, double untunedMs, double flops = 0, std::string kind = "k") {
  TaskState t;
  t.name = kind;
  t.kind = std::move(kind);
  t.weight = weight;
  t.untunedMs = untunedMs;
  t.flops = flops;
  return t;
}

/// Gives `t` a slot of `n` measurements that end at best `bestMs`.
void giveSlot(TaskState &t, double bestMs, int n = 1, double seconds = 1) {
  for (int k = 0; k < n; ++k)
    t.bestTrace.push_back(bestMs);
  t.bestMs = bestMs;
  t.trials += n;
  ++t.slots;
  t.seconds += seconds;
  t.slotBest.push_back(bestMs);
}

ModelState modelOf(llvm::ArrayRef<TaskState> tasks, int64_t slotTrials = 1) {
  ModelState m;
  m.slotTrials = slotTrials;
  m.trialsBudget = 1000;
  for (const TaskState &t : tasks) {
    m.modelLatencyMs += t.weight * t.currentMs();
    m.slotsDone += t.slots;
    m.trialsDone += t.trials;
  }
  return m;
}

size_t pick(TaskScheduler &s, llvm::ArrayRef<TaskState> tasks, int64_t slotTrials = 1) {
  std::optional<SlotRequest> r = s.next(tasks, modelOf(tasks, slotTrials));
  EXPECT_TRUE(r.has_value());
  return r ? r->task : SIZE_MAX;
}

/// A space of `n` configurations, one knob.
SearchSpace lineSpace(int n) {
  Knob k{"x", {}};
  for (int i = 0; i < n; ++i)
    k.values.push_back(i);
  return llvm::cantFail(SearchSpace::create({k}, {}, {}));
}

/// time = base + slope * |x - 20| - drift * (measurements so far) ms, 1
/// simulated second per measurement.
class LineMeasurer : public Measurer {
public:
  LineMeasurer(double base, double slope, double drift = 0)
      : base(base), slope(slope), drift(drift) {}
  std::vector<MeasureRecord> measure(const std::vector<Config> &configs) override {
    std::vector<MeasureRecord> out;
    for (const Config &c : configs) {
      MeasureRecord r;
      r.timeMs = base + slope * std::abs(c[0] - 20) - drift * clock;
      clock += 1;
      out.push_back(r);
    }
    return out;
  }
  double getClockSeconds() const override { return clock; }
  double base, slope, drift, clock = 0;
};

ModelTask lineTask(double weight, int size, double base, double slope, double untuned,
                    double drift = 0) {
  ModelTask t{TaskState{}, lineSpace(size), llvm::cantFail(createSearchStrategy("random")),
               std::make_unique<LineMeasurer>(base, slope, drift), TuningHistory{}};
  t.state.name = "line";
  t.state.kind = "line";
  t.state.weight = weight;
  t.state.untunedMs = untuned;
  return t;
}
} // namespace

TEST(TaskScheduler, FactoryRejectsUnknownNamesAndBadOptions) {
  auto bad = createTaskScheduler("magic");
  ASSERT_FALSE(bad);
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "unknown task scheduler 'magic' (known: sequential, round-robin, random, flops, "
            "gradient, gradient-ms, dynatune, survey)");
  SchedulerOptions o;
  o.walkers = 5;
  EXPECT_FALSE(static_cast<bool>(createTaskScheduler("dynatune", o)));
  llvm::consumeError(createTaskScheduler("dynatune", o).takeError());
  for (double share : {0.0, 1.5, std::nan("")}) {
    SchedulerOptions p;
    p.probeShare = share;
    llvm::Expected<std::unique_ptr<TaskScheduler>> s = createTaskScheduler("dynatune", p);
    ASSERT_FALSE(static_cast<bool>(s)) << share;
    EXPECT_NE(llvm::toString(s.takeError()).find("probe share"), std::string::npos);
  }
  for (llvm::StringRef name : getTaskSchedulerNames())
    EXPECT_EQ(make(name)->getName(), name);
}

TEST(SurveyRule, RateAndStopAsTrimmerPrintsAndMeans) {
  // Eq. 3: latency change per second; both negative flips the sign.
  EXPECT_DOUBLE_EQ(getSurveyRate(-10, 5), -2);
  EXPECT_DOUBLE_EQ(getSurveyRate(-10, -5), -2);
  EXPECT_DOUBLE_EQ(getSurveyRate(3, 0), 0);
  // The difference: stop once the rate of improvement slowed by > 25%.
  EXPECT_TRUE(shouldStopSurvey(-2, -10, -0.25, false));  // (-2 + 10) / -10 = -0.8
  EXPECT_FALSE(shouldStopSurvey(-9, -10, -0.25, false)); // -0.1
  EXPECT_FALSE(shouldStopSurvey(-20, -10, -0.25, false)); // faster: 1
  EXPECT_TRUE(shouldStopSurvey(0, -10, -0.25, false));   // stalled: -1
  // As printed: 1 + x_t / x_{t-1} >= 1 while both improve, so it never
  // stops a model that keeps getting faster, however slowly, nor one that
  // stalled.
  EXPECT_FALSE(shouldStopSurvey(-2, -10, -0.25, true));
  EXPECT_FALSE(shouldStopSurvey(-0.001, -10, -0.25, true));
  EXPECT_FALSE(shouldStopSurvey(0, -10, -0.25, true));
  // w1 = -1 when both got slower or it got faster after getting slower.
  EXPECT_FALSE(shouldStopSurvey(-1, 2, -0.25, false)); // -(-3 / 2) = 1.5
  EXPECT_TRUE(shouldStopSurvey(4, 2, -0.25, false) == (-(4.0 - 2) / 2 <= -0.25));
  // No progress in the previous epoch: go on only if this one made some.
  EXPECT_TRUE(shouldStopSurvey(0, 0, -0.25, false));
  EXPECT_FALSE(shouldStopSurvey(-1, 0, -0.25, false));
  EXPECT_FALSE(shouldStopSurvey(0, 0, -0.25, true)); // undefined as printed
  EXPECT_FALSE(shouldStopSurvey(-1, 0, -0.25, true));
}

TEST(TaskScheduler, SurveyTunesInEpochsAndStopsWhenProgressSlows) {
  auto s = make("survey");
  std::vector<TaskState> t = {task(1, 100), task(1, 100)};
  // Epoch 1: both tasks, in order (model 200 -> 150 in 2 s: rate -25/s).
  EXPECT_EQ(pick(*s, t), 0u);
  giveSlot(t[0], 70);
  EXPECT_EQ(pick(*s, t), 1u);
  giveSlot(t[1], 80);
  // Epoch 2: 150 -> 102 in 2 s (-24/s after -25/s: (-24 + 25) / -25 =
  // -0.04 > -0.25, go on).
  EXPECT_EQ(pick(*s, t), 0u);
  giveSlot(t[0], 46);
  EXPECT_EQ(pick(*s, t), 1u);
  giveSlot(t[1], 56);
  EXPECT_EQ(pick(*s, t), 0u);
  giveSlot(t[0], 45);
  t[1].finished = true; // skipped from now on
  // Epoch 3 ends: 102 -> 101 in 1 s, -1/s after -24/s: stop.
  EXPECT_FALSE(s->next(t, modelOf(t)).has_value());
  EXPECT_FALSE(s->next(t, modelOf(t)).has_value());

  // As printed, the same run never stops: it goes on into a fourth epoch.
  SchedulerOptions printed;
  printed.surveyPrintedRule = true;
  auto p = make("survey", printed);
  std::vector<TaskState> u = {task(1, 100), task(1, 100)};
  for (double best : {70.0, 60.0, 59.0}) {
    for (size_t i = 0; i < u.size(); ++i) {
      EXPECT_EQ(pick(*p, u), i);
      giveSlot(u[i], best + 10.0 * i);
    }
  }
  EXPECT_EQ(pick(*p, u), 0u);
}

namespace {
/// Answers end-to-end timings from a script (then its last entry again), 5 s
/// each; it fails when the script is empty or from call `failFrom` on.
class ScriptedTimer : public ModelTimer {
public:
  explicit ScriptedTimer(std::vector<double> script, size_t failFrom = SIZE_MAX)
      : script(std::move(script)), failFrom(failFrom) {}
  llvm::Expected<ModelTiming> timeModel(llvm::ArrayRef<ModelTask> tasks) override {
    ++calls;
    slotsSeen.push_back(0);
    for (const ModelTask &t : tasks)
      slotsSeen.back() += t.state.slots;
    if (script.empty() || calls >= failFrom)
      return llvm::createStringError("no such function");
    double ms = script[std::min(calls - 1, script.size() - 1)];
    return ModelTiming{ms, 5};
  }
  std::vector<double> script;
  size_t failFrom;
  size_t calls = 0;
  std::vector<int64_t> slotsSeen; // the model's slots at each timing
};

struct TimingObserver : ModelTuningObserver {
  void onModelTimed(llvm::ArrayRef<ModelTask>, const ModelProgress &p,
                    const std::string &error) override {
    timed.push_back(p.model.timedModelLatencyMs);
    errors.push_back(error);
  }
  std::vector<double> timed;
  std::vector<std::string> errors;
};

/// Two tasks whose every measurement is 0.01 ms faster than the one before:
/// the sum of their latencies improves at a steady rate forever.
std::vector<ModelTask> steadilyImprovingModel() {
  std::vector<ModelTask> tasks;
  tasks.push_back(lineTask(1, 41, 50, 0, 50, 0.01));
  tasks.push_back(lineTask(1, 41, 50, 0, 50, 0.01));
  return tasks;
}
} // namespace

TEST(TaskScheduler, SurveyStopsOnTheModelTimedEndToEndNotOnTheSum) {
  ModelTuningOptions mo;
  mo.trials = 60;
  mo.slotTrials = 4;
  // Without a timer the survey sees the sum improve steadily: it never
  // stops, and the budget runs out.
  std::vector<ModelTask> untimed = steadilyImprovingModel();
  ModelProgress sum = runModelTuning(untimed, *make("survey"), mo);
  EXPECT_EQ(sum.stopReason, "trial budget spent");
  EXPECT_EQ(sum.model.modelTimings, 0);

  // Timed end to end the model stalls (100 -> 90 -> 89.9 ms): after the
  // second epoch's rate (0.1 ms in 13 s after 10 in 13 s) the rule stops.
  std::vector<ModelTask> tasks = steadilyImprovingModel();
  ScriptedTimer timer({100, 90, 89.9});
  TimingObserver observer;
  mo.modelTimer = &timer;
  ModelProgress p = runModelTuning(tasks, *make("survey"), mo, &observer);
  EXPECT_EQ(p.stopReason,
            "scheduler stopped: the rate rule (Eq. 2, phi -0.25) on the model timed end to end");
  // Timed before the first epoch (the untuned model) and after each of two.
  EXPECT_EQ(timer.slotsSeen, (std::vector<int64_t>{0, 2, 4}));
  EXPECT_EQ(p.model.slotsDone, 4);
  EXPECT_EQ(p.model.trialsDone, 16);
  EXPECT_EQ(observer.timed, (std::vector<double>{100, 90, 89.9}));
  // The timings' seconds are tuning cost: on the model's clock.
  EXPECT_DOUBLE_EQ(p.model.modelTimingSeconds, 15);
  EXPECT_DOUBLE_EQ(p.clockSeconds, 16 + 15);

  // The latency goal is the timed latency's once there is one: the sum
  // (about 99.9 ms) never gets to 95, the timed model does after one epoch.
  std::vector<ModelTask> goal = steadilyImprovingModel();
  ScriptedTimer fast({100, 94});
  mo.modelTimer = &fast;
  mo.latencyGoalMs = 95;
  ModelProgress g = runModelTuning(goal, *make("survey"), mo);
  EXPECT_EQ(g.stopReason, "latency goal reached (timed end to end)");
  EXPECT_EQ(g.model.slotsDone, 2);

  // A sum already below the goal (about 100 ms against 150) stops nothing:
  // the model timed end to end (200, 160, 140 ms) reaches it after two
  // epochs.
  std::vector<ModelTask> below = steadilyImprovingModel();
  ScriptedTimer slow({200, 160, 140});
  mo.modelTimer = &slow;
  mo.latencyGoalMs = 150;
  ModelProgress b = runModelTuning(below, *make("survey"), mo);
  EXPECT_EQ(b.stopReason, "latency goal reached (timed end to end)");
  EXPECT_EQ(slow.calls, 3u);
  EXPECT_EQ(b.model.slotsDone, 4);
}

TEST(TaskScheduler, SurveyStartsItsRatesOverWhenTheTimerStopsWorking) {
  // Timed at 200 ms before the first epoch, then the timer fails: the sum
  // (about 100 ms, improving steadily) is another measure. Compared with
  // the 200 ms, the first epoch would look like a steep drop and the
  // second's steady rate like a stall (a stop); started over, the sum's
  // steady rate never stops the run.
  ModelTuningOptions mo;
  mo.trials = 60;
  mo.slotTrials = 4;
  std::vector<ModelTask> tasks = steadilyImprovingModel();
  ScriptedTimer failsLater({200}, /*failFrom=*/2);
  mo.modelTimer = &failsLater;
  ModelProgress p = runModelTuning(tasks, *make("survey"), mo);
  EXPECT_EQ(failsLater.calls, 2u);
  EXPECT_EQ(p.stopReason, "trial budget spent");
}

TEST(TaskScheduler, SurveyGoesOnWithTheSumWhenTheModelCannotBeTimed) {
  ModelTuningOptions mo;
  mo.trials = 60;
  mo.slotTrials = 4;
  std::vector<ModelTask> tasks = steadilyImprovingModel();
  ScriptedTimer broken({});
  TimingObserver observer;
  mo.modelTimer = &broken;
  ModelProgress p = runModelTuning(tasks, *make("survey"), mo, &observer);
  // Asked once, never again; the run is the untimed one.
  EXPECT_EQ(broken.calls, 1u);
  ASSERT_EQ(observer.errors.size(), 1u);
  EXPECT_EQ(observer.errors[0], "no such function");
  EXPECT_TRUE(std::isnan(p.model.timedModelLatencyMs));
  EXPECT_FALSE(p.model.canTimeModel);
  EXPECT_EQ(p.stopReason, "trial budget spent");
  EXPECT_EQ(p.model.trialsDone, 60);
}

TEST(TaskScheduler, OnlyTheSurveyAsksForModelTimings) {
  ModelTuningOptions mo;
  mo.trials = 24;
  mo.slotTrials = 4;
  for (llvm::StringRef name : getTaskSchedulerNames()) {
    if (name == "survey")
      continue;
    std::vector<ModelTask> tasks = steadilyImprovingModel();
    ScriptedTimer timer({100});
    mo.modelTimer = &timer;
    runModelTuning(tasks, *make(name), mo);
    EXPECT_EQ(timer.calls, 0u) << name.str();
  }
}

TEST(TaskScheduler, SimilarityTagIsKindAndAnsorFlopClass) {
  // int(log(1e9 + 1) / log(1.618)) = 43.
  EXPECT_EQ(similarityTag(task(1, 1, 1e9, "conv")), "conv_43");
  EXPECT_EQ(similarityTag(task(1, 1, 0, "conv")), "");
}

TEST(TaskScheduler, RoundRobinCyclesOverUnfinishedTasks) {
  auto s = make("round-robin");
  std::vector<TaskState> t = {task(1, 1), task(1, 1), task(1, 1)};
  EXPECT_EQ(pick(*s, t), 0u);
  EXPECT_EQ(pick(*s, t), 1u);
  t[2].finished = true;
  EXPECT_EQ(pick(*s, t), 0u);
  EXPECT_EQ(pick(*s, t), 1u);
  t[0].finished = t[1].finished = true;
  EXPECT_FALSE(s->next(t, modelOf(t)).has_value());
}

TEST(TaskScheduler, RandomPicksOnlyUnfinishedTasksAndRepeatsWithItsSeed) {
  std::vector<TaskState> t = {task(1, 1), task(1, 1), task(1, 1)};
  t[1].finished = true;
  auto a = make("random"), b = make("random");
  std::set<size_t> seen;
  for (int k = 0; k < 50; ++k) {
    size_t i = pick(*a, t);
    EXPECT_EQ(i, pick(*b, t));
    EXPECT_NE(i, 1u);
    seen.insert(i);
  }
  EXPECT_EQ(seen.size(), 2u);
}

TEST(TaskScheduler, FlopsSplitsSlotsInProportionToFlops) {
  auto s = make("flops");
  std::vector<TaskState> t = {task(1, 1, 1e9), task(3, 1, 1e9), task(1, 1, 4e9)};
  std::vector<int> count(3);
  for (int k = 0; k < 80; ++k) {
    size_t i = pick(*s, t);
    ++count[i];
    giveSlot(t[i], 1);
  }
  // Shares 1 : 3 : 4 of weight x FLOPs.
  EXPECT_EQ(count[0], 10);
  EXPECT_EQ(count[1], 30);
  EXPECT_EQ(count[2], 40);
}

TEST(TaskScheduler, GradientMatchesHandComputedChoices) {
  // Ansor's defaults: alpha 0.2, beta 2, window 3. Tasks 0 and 1 are
  // similar (conv, 1 GFLOP); task 2 is alone.
  auto s = make("gradient");
  std::vector<TaskState> t = {task(1, 10, 1e9, "conv"), task(2, 10, 1e9, "conv"),
                              task(1, 20, 4e9, "gemm")};
  // Warm-up: one slot each, in order.
  EXPECT_EQ(pick(*s, t), 0u);
  auto slot = [&](size_t i, double best) {
    giveSlot(t[i], best);
    s->onSlotDone(i, t);
  };
  slot(0, 8);
  EXPECT_EQ(pick(*s, t), 1u);
  slot(1, 3);
  EXPECT_EQ(pick(*s, t), 2u);
  slot(2, 10);
  for (double b : {6.0, 5.0, 4.5, 4.0})
    slot(0, b); // task 0: 8 6 5 4.5 4
  slot(1, 2.5); // task 1: 3 2.5
  for (double b : {10.0, 10.0, 9.7})
    slot(2, b); // task 2: 10 10 10 9.7
  // g0: backward (4 - 6)/3, forward min(4 - 4/5, 2 * 1e9 / (1e9 / 2.5)) - 4
  //     = 3.2 - 4: 1 * (0.2 * -0.667 + 0.8 * -0.8) = -0.773
  // g1: backward 0 (2 slots), forward (2.5 - 2.5/2) - 2.5: 2 * 0.8 * -1.25 = -2.0
  // g2: backward (9.7 - 10)/3, forward 9.7 - 9.7/4 - 9.7: -0.02 - 1.94 = -1.96
  EXPECT_EQ(pick(*s, t), 1u);
  slot(1, 2.4);
  // g1 = 2 * 0.8 * ((2.4 - 0.8) - 2.4) = -1.28; g2 = -1.96; g0 = -0.773.
  EXPECT_EQ(pick(*s, t), 2u);
  slot(1, 0.5);
  // Task 1 is now 2e9 FLOP/ms: task 0's forward term becomes
  // min(3.2, 2 * 1e9 / 2e9) - 4 = -3, g0 = -0.133 - 2.4 = -2.533;
  // g1 = 2 * (0.2 * (0.5 - 3)/3 + 0.8 * (0.375 - 0.5)) = -0.533; g2 = -1.96.
  EXPECT_EQ(pick(*s, t), 0u);
}

TEST(TaskScheduler, GradientMSFollowsMetaSchedulesFormula) {
  auto s = make("gradient-ms");
  std::vector<TaskState> t = {task(1, 10), task(1, 10)};
  auto slot = [&](size_t i, double best) {
    giveSlot(t[i], best);
    s->onSlotDone(i, t);
  };
  EXPECT_EQ(pick(*s, t), 0u);
  slot(0, 8);
  EXPECT_EQ(pick(*s, t), 1u);
  slot(1, 4);
  // n = 1: g = 0.8 * best: task 0 (8) beats task 1 (4).
  EXPECT_EQ(pick(*s, t), 0u);
  for (double b : {7.0, 6.0, 3.0})
    slot(0, b); // h0 = 8 7 6 3, n = 4
  for (int k = 0; k < 6; ++k)
    slot(1, 4); // h1 = 4 (7 times), n = 7
  // g0 = 0.2 * (8 - 3)/3 + 0.8 * 3/4 = 0.933; g1 = 0.8 * 4/7 = 0.457.
  EXPECT_EQ(pick(*s, t), 0u);
  t[0].weight = 0.4; // g0 = 0.373
  EXPECT_EQ(pick(*s, t), 1u);
}

TEST(TaskScheduler, DynaTunePicksUntriedFirstThenTheLargestPredictedReduction) {
  SchedulerOptions o;
  o.mcmcSteps = 200;
  o.gapReward = false; // the learning curves decide
  auto s = make("dynatune", o);
  std::vector<TaskState> t = {task(1, 10), task(1, 10), task(1, 10)};
  // A still-rising speedup curve (far from its asymptote of 5) and a
  // saturated one (at 1.5 after a few measurements); equal counts.
  CurveParams rising{5, std::log(200.0), -1, 0}, flat{1.5, std::log(2.0), -3, 0};
  auto fill = [&](TaskState &ts, const CurveParams &p) {
    for (int x = 1; x <= 64; ++x)
      ts.bestTrace.push_back(10 / logPowerCurve(p, x));
    ts.bestMs = ts.bestTrace.back();
    ts.trials = 64;
    ts.slots = 2;
    ts.seconds = 2;
  };
  fill(t[0], flat);
  fill(t[2], rising);
  // Task 1 has had no slot: it comes first, whatever the others promise.
  EXPECT_EQ(pick(*s, t, 32), 1u);
  fill(t[1], flat);
  EXPECT_EQ(pick(*s, t, 32), 2u);
  // The choice follows the curves, not the position.
  std::swap(t[0], t[2]);
  auto fresh = make("dynatune", o);
  EXPECT_EQ(pick(*fresh, t, 32), 0u);
}

// Two tasks that stopped improving long ago: neither curve promises much,
// so the exploration bonus decides and the task with fewer slots gets the
// next one. (Scaling rewards by the round's largest made the heavier
// task's ~0 reward a 1 and kept it ahead: this test fails then.)
TEST(TaskScheduler, DynaTuneStalledTasksAreExploredNotExploited) {
  SchedulerOptions o;
  o.mcmcSteps = 200;
  o.gapReward = false;
  std::vector<TaskState> t = {task(30, 10), task(1, 10)};
  CurveParams done{2, std::log(4.0), -3, 0};
  auto fill = [&](TaskState &ts, int slots) {
    for (int x = 1; x <= 32 * slots; ++x)
      ts.bestTrace.push_back(10 / logPowerCurve(done, std::min(x, 16)));
    ts.bestMs = ts.bestTrace.back();
    ts.trials = 32 * slots;
    ts.slots = slots;
    ts.seconds = slots;
  };
  fill(t[0], 10);
  fill(t[1], 3);
  EXPECT_EQ(pick(*make("dynatune", o), t, 32), 1u);
}

TEST(TaskScheduler, DynaTuneCostAwareRewardPrefersTheCheaperSlot) {
  SchedulerOptions o;
  o.mcmcSteps = 200;
  o.gapReward = false;
  o.costAware = true;
  o.ucbC = 0; // rewards alone
  std::vector<TaskState> t = {task(1, 10), task(1, 10)};
  CurveParams rising{5, std::log(200.0), -1, 0};
  for (TaskState &ts : t) {
    for (int x = 1; x <= 64; ++x)
      ts.bestTrace.push_back(10 / logPowerCurve(rising, x));
    ts.bestMs = ts.bestTrace.back();
    ts.trials = 64;
    ts.slots = 2;
  }
  t[0].seconds = 20; // 10 s per slot
  t[1].seconds = 2;  // 1 s per slot
  t[0].weight = 1.2; // a larger reduction, but at 10x the cost
  EXPECT_EQ(pick(*make("dynatune", o), t, 32), 1u);
  o.costAware = false; // without cost weighting, the larger reduction wins
  EXPECT_EQ(pick(*make("dynatune", o), t, 32), 0u);
}

/// Gives `t` a slot whose valid measurements are `ms`.
void giveMeasuredSlot(TaskState &t, std::initializer_list<double> ms) {
  for (double v : ms) {
    t.validMs.push_back(v);
    t.bestMs = std::min(t.bestMs, v);
    t.bestTrace.push_back(std::min(t.untunedMs, t.bestMs));
    ++t.trials;
  }
  ++t.slots;
  t.seconds += 1;
  t.slotBest.push_back(t.bestTrace.back());
}

// The default reward: weight x latency x log(median / best) / slots. Two
// tasks cost the model the same; one's configurations spread over 3x, the
// other's within 2%: the spread one gets the slot, wherever it stands.
TEST(TaskScheduler, DynaTuneGapRewardFollowsTheMeasuredSpread) {
  SchedulerOptions o;
  o.ucbC = 0; // rewards alone
  std::vector<TaskState> t = {task(1, 10), task(1, 10)};
  giveMeasuredSlot(t[0], {5.0, 5.05, 5.1, 5.02, 5.08});
  giveMeasuredSlot(t[1], {5.0, 9.0, 15.0, 12.0, 7.0});
  EXPECT_EQ(pick(*make("dynatune", o), t, 8), 1u);
  std::swap(t[0], t[1]);
  EXPECT_EQ(pick(*make("dynatune", o), t, 8), 0u);
  // A task costing the model 10x more whose configurations run within 2%:
  // 10 x 50 x log(50.5 / 50) = 4.98 ms against 1 x 5 x log(9 / 5) = 2.94 ms,
  // so the heavier task still holds more to gain; within 0.2% it does not
  // (0.50 ms): the milo6 replay model's dedispersion tasks.
  std::vector<TaskState> u = {task(10, 60), task(1, 10)};
  giveMeasuredSlot(u[0], {50.0, 50.5, 51.0, 50.2, 50.8});
  giveMeasuredSlot(u[1], {5.0, 9.0, 15.0, 12.0, 7.0});
  EXPECT_EQ(pick(*make("dynatune", o), u, 8), 0u);
  u[0].validMs = {50.0, 50.05, 50.1, 50.02, 50.08}; // within 0.2%
  EXPECT_EQ(pick(*make("dynatune", o), u, 8), 1u);
}

// The same spread is worth less after more slots (the gap closes as the
// search goes on), and a task with fewer than two valid measurements
// promises nothing but is tried first while it has fewer than 3.
TEST(TaskScheduler, DynaTuneGapRewardDecaysWithSlots) {
  SchedulerOptions o;
  o.ucbC = 0;
  std::vector<TaskState> t = {task(1, 10), task(1, 10)};
  giveMeasuredSlot(t[0], {5.0, 9.0, 15.0});
  giveMeasuredSlot(t[1], {5.0, 9.0, 15.0});
  giveMeasuredSlot(t[1], {5.0, 9.0, 15.0});
  EXPECT_EQ(pick(*make("dynatune", o), t, 8), 0u);
  giveMeasuredSlot(t[0], {5.0, 9.0, 15.0});
  giveMeasuredSlot(t[0], {5.0, 9.0, 15.0});
  EXPECT_EQ(pick(*make("dynatune", o), t, 8), 1u);
  // A task whose measurements all failed and whose untuned latency is
  // unknown has no spread: reward 0 (not NaN), so the count bonus can still
  // pick it once the other task has had many more slots.
  o.ucbC = 2;
  std::vector<TaskState> failing = {task(1, INFINITY), task(1, 10)};
  for (int k = 0; k < 3; ++k)
    failing[0].bestTrace.push_back(INFINITY);
  failing[0].trials = 3;
  failing[0].slots = 1;
  for (int k = 0; k < 30; ++k)
    giveMeasuredSlot(failing[1], {9.99, 10.0});
  EXPECT_EQ(pick(*make("dynatune", o), failing, 8), 0u);
  o.ucbC = 0;
  std::vector<TaskState> fresh = {task(1, 10), task(5, 10)};
  giveMeasuredSlot(fresh[0], {5.0, 9.0, 15.0});
  giveMeasuredSlot(fresh[1], {8.0});
  EXPECT_EQ(pick(*make("dynatune", o), fresh, 8), 1u);
}

// shareCap (off by default): no slot saves more than a task costs the model. An
// untried task at 0.02% of the model latency waits while a tried task is
// expected to save more than that (the paper's rule, shareCap off, tries it
// first); and a tried task with a wide spread but a 0.5% share loses to the
// heavy task although its reward and bonus are larger.
TEST(TaskScheduler, DynaTuneShareCapBoundsEachTaskByItsShare) {
  SchedulerOptions capped, uncapped;
  capped.shareCap = true;
  std::vector<TaskState> t = {task(1, 100), task(2, 0.01)};
  giveMeasuredSlot(t[0], {98, 99, 100, 120});
  // Task 0: r = 98 x log(100/98) = 1.98 ms (2.0%) + bonus sqrt(2 ln 2) = 3.2.
  EXPECT_EQ(pick(*make("dynatune", capped), t, 8), 0u);
  EXPECT_EQ(pick(*make("dynatune", uncapped), t, 8), 1u);
  // An untried task whose share (2.5 / 100.5 = 2.49%) exceeds every tried
  // task's expected reward (1.98 ms = 1.97%) still comes first, although
  // the tried task's UCB (1.97 + 1.18 = 3.15) is larger.
  t[1] = task(1, 2.5);
  EXPECT_EQ(pick(*make("dynatune", capped), t, 8), 1u);
  t[1] = task(1, 1.5); // 1.51%: below the expected reward, it waits
  EXPECT_EQ(pick(*make("dynatune", capped), t, 8), 0u);

  std::vector<TaskState> u = {task(1, 100), task(1, 10)};
  for (int k = 0; k < 3; ++k)
    giveMeasuredSlot(u[0], {98, 99, 100, 120});
  giveMeasuredSlot(u[1], {0.5, 5, 9});
  // Model latency 98.5 ms, 4 slots done (log 5 = 1.61). Task 0: 0.67% +
  // sqrt(3.22 / 3) = 1.71. Task 1: 1.17% + sqrt(3.22) = 2.96, but its
  // share is 0.51%.
  EXPECT_EQ(pick(*make("dynatune", capped), u, 8), 0u);
  EXPECT_EQ(pick(*make("dynatune", uncapped), u, 8), 1u);
}

// probeShare (default 0.5): an untried task's first slot is half a slot;
// tried tasks get full slots. With 48 measurements and slots of 32 every
// one of three tasks gets its probe of 16; with full first slots (the
// paper's) the third is never tried.
TEST(TaskScheduler, DynaTuneProbesUntriedTasksWithPartOfASlot) {
  std::vector<TaskState> t = {task(1, 10), task(1, 10)};
  std::optional<SlotRequest> r = make("dynatune")->next(t, modelOf(t, 32));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->maxTrials, 16);
  giveMeasuredSlot(t[0], {5.0, 9.0, 15.0});
  giveMeasuredSlot(t[1], {5.0, 9.0, 15.0});
  r = make("dynatune")->next(t, modelOf(t, 32));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->maxTrials, 0); // tried: a full slot
  // A probe leaves the task tried (3 measurements), else it would be
  // probed again and each probe count as a slot: 3 with nothing measured,
  // 2 after the default; 3 of a slot of 4 (half would be 2); a full slot
  // when a slot holds no more than 3.
  SchedulerOptions o;
  o.probeShare = 0.01;
  std::vector<TaskState> u = {task(1, 10)};
  EXPECT_EQ(make("dynatune", o)->next(u, modelOf(u, 32))->maxTrials, 3);
  u[0].bestTrace.push_back(10);
  u[0].trials = 1;
  EXPECT_EQ(make("dynatune", o)->next(u, modelOf(u, 32))->maxTrials, 2);
  u[0] = task(1, 10);
  EXPECT_EQ(make("dynatune")->next(u, modelOf(u, 4))->maxTrials, 3);
  EXPECT_EQ(make("dynatune")->next(u, modelOf(u, 3))->maxTrials, 0);
  // With the share cap an untried task may win on its share in the UCB
  // comparison rather than by coming first; it is still probed. Task 0:
  // reward 1 x 1 x log(10 / 1) = 2.3 ms, 92% of the 2.5 ms model, above
  // task 1's share (60%), which beats task 0's capped bound (its 40%).
  SchedulerOptions capped;
  capped.shareCap = true;
  std::vector<TaskState> w = {task(1, 10), task(1, 1.5)};
  giveMeasuredSlot(w[0], {1.0, 10.0, 10.0});
  r = make("dynatune", capped)->next(w, modelOf(w, 32));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->task, 1u);
  EXPECT_EQ(r->maxTrials, 16);

  auto run = [](double share) {
    std::vector<ModelTask> tasks;
    for (int k = 0; k < 3; ++k)
      tasks.push_back(lineTask(1, 200, 1, 1, 10));
    SchedulerOptions so;
    so.probeShare = share;
    ModelTuningOptions mo;
    mo.trials = 48;
    mo.slotTrials = 32;
    runModelTuning(tasks, *make("dynatune", so), mo);
    std::vector<int64_t> trials;
    for (const ModelTask &mt : tasks)
      trials.push_back(mt.state.trials);
    return trials;
  };
  EXPECT_EQ(run(0.5), (std::vector<int64_t>{16, 16, 16}));
  EXPECT_EQ(run(1), (std::vector<int64_t>{32, 16, 0}));
}

namespace {
/// A LineMeasurer whose task another worker tunes too: before each batch
/// that worker has measured the next unmeasured configuration from x = 0 up.
class SharedLineMeasurer : public LineMeasurer {
public:
  using LineMeasurer::LineMeasurer;
  std::vector<std::pair<Config, MeasureRecord>>
  collectOthersResults(const TuningHistory &history) override {
    for (int x = 0; x < 200; ++x) {
      Config c{x};
      if (history.contains(c))
        continue;
      MeasureRecord r;
      r.timeMs = base + slope * std::abs(x - 20);
      ++given;
      return {{c, r}};
    }
    return {};
  }
  int given = 0;
};
} // namespace

TEST(MultiTaskTuner, OtherWorkersResultsSpendTheModelBudget) {
  std::vector<ModelTask> tasks;
  for (int i = 0; i < 2; ++i) {
    tasks.push_back(lineTask(1, 200, 5, 0.1, 10));
    tasks.back().measurer = std::make_unique<SharedLineMeasurer>(5, 0.1);
  }
  ModelTuningOptions mo;
  mo.trials = 40;
  mo.slotTrials = 4;
  mo.batchSize = 2;
  ModelProgress p = runModelTuning(tasks, *make("round-robin", SchedulerOptions()), mo);
  int given = 0;
  for (ModelTask &t : tasks) {
    given += static_cast<SharedLineMeasurer &>(*t.measurer).given;
    // The other worker's results are not taken for an exhausted space.
    EXPECT_FALSE(t.state.finished);
    EXPECT_EQ(t.state.trials, static_cast<int64_t>(t.history.records.size()));
  }
  EXPECT_GT(given, 0);
  // The model budget is spent by both workers together.
  EXPECT_EQ(p.model.trialsDone,
            static_cast<int64_t>(tasks[0].history.records.size() +
                                 tasks[1].history.records.size()));
  EXPECT_LE(p.model.trialsDone, 40 + 2);
  EXPECT_EQ(p.stopReason, "trial budget spent");
}

TEST(MultiTaskTuner, OtherWorkersResultsOfOtherTasksCountAtOnce) {
  // Only task 1 is shared: another worker measures it while this worker's
  // scheduler never picks it (finished here). Its results must still spend
  // the model budget, before each of task 0's slots.
  std::vector<ModelTask> tasks;
  tasks.push_back(lineTask(1, 200, 5, 0.1, 10));
  tasks.push_back(lineTask(1, 200, 5, 0.1, 10));
  tasks.back().measurer = std::make_unique<SharedLineMeasurer>(5, 0.1);
  tasks.back().state.finished = true;
  ModelTuningOptions mo;
  mo.trials = 30;
  mo.slotTrials = 4;
  mo.batchSize = 1;
  ModelProgress p = runModelTuning(tasks, *make("sequential", SchedulerOptions()), mo);
  int64_t all = static_cast<int64_t>(tasks[0].history.records.size() +
                                     tasks[1].history.records.size());
  EXPECT_GT(tasks[1].history.records.size(), 0u);
  EXPECT_EQ(p.model.trialsDone, all);
  EXPECT_LE(all, 30 + 1);
}

TEST(MultiTaskTuner, SequentialEarlyStopPassesBudgetOn) {
  std::vector<ModelTask> tasks;
  // Task 0 is flat (every config 5 ms): it stops improving after its first
  // measurement. Task 1 improves with every measurement.
  tasks.push_back(lineTask(1, 200, 5, 0, 10));
  tasks.push_back(lineTask(1, 200, 9, 0, 10, /*drift=*/0.01));
  SchedulerOptions so;
  so.earlyStop = 10;
  auto s = make("sequential", so);
  ModelTuningOptions mo;
  mo.trials = 100;
  ModelProgress p = runModelTuning(tasks, *s, mo);
  EXPECT_EQ(tasks[0].state.trials, 11); // 1 + 10 without improvement
  EXPECT_EQ(tasks[1].state.trials, 89); // its 50 + the 39 task 0 left
  EXPECT_EQ(p.model.trialsDone, 100);
  EXPECT_EQ(p.stopReason, "trial budget spent");
}

TEST(MultiTaskTuner, SequentialPassesBudgetOnWithinItsFirstPass) {
  std::vector<ModelTask> tasks;
  tasks.push_back(lineTask(1, 200, 5, 0, 10));
  tasks.push_back(lineTask(1, 200, 9, 0, 10, 0.01));
  tasks.push_back(lineTask(1, 200, 9, 0, 10, 0.01));
  SchedulerOptions so;
  so.earlyStop = 10;
  struct Order : ModelTuningObserver {
    void onMeasurement(size_t task, const Config &, const MeasureRecord &,
                       llvm::ArrayRef<ModelTask>, const ModelProgress &) override {
      order.push_back(task);
    }
    std::vector<size_t> order;
  } observer;
  ModelTuningOptions mo;
  mo.trials = 100;
  runModelTuning(tasks, *make("sequential", so), mo, &observer);
  // Task 0 stops after 11; the 89 left are split 44 / 45, one task after
  // the other (not 33 / 33 and a second pass).
  std::vector<size_t> expect(11, 0);
  expect.insert(expect.end(), 44, 1);
  expect.insert(expect.end(), 45, 2);
  EXPECT_EQ(observer.order, expect);
}

TEST(MultiTaskTuner, SequentialWithoutEarlyStopSplitsEvenly) {
  std::vector<ModelTask> tasks;
  tasks.push_back(lineTask(1, 200, 5, 0, 10));
  tasks.push_back(lineTask(1, 200, 1, 1, 10));
  tasks.push_back(lineTask(1, 200, 1, 1, 10));
  SchedulerOptions so;
  so.earlyStop = 0;
  auto s = make("sequential", so);
  ModelTuningOptions mo;
  mo.trials = 90;
  runModelTuning(tasks, *s, mo);
  for (ModelTask &t : tasks)
    EXPECT_EQ(t.state.trials, 30);
}

TEST(MultiTaskTuner, TracksModelLatencyClockAndBudgets) {
  std::vector<ModelTask> tasks;
  tasks.push_back(lineTask(2, 10, 1, 1, 30)); // configs 0..9: best 11 ms at x = 9
  tasks.push_back(lineTask(1, 200, 1, 1, 10));
  auto s = make("round-robin");
  ModelTuningOptions mo;
  mo.trials = 100;
  mo.slotTrials = 4;
  mo.constantMs = 3;
  struct Last : ModelTuningObserver {
    void onMeasurement(size_t, const Config &, const MeasureRecord &,
                       llvm::ArrayRef<ModelTask> tasks, const ModelProgress &p) override {
      double expect = 3;
      for (const ModelTask &t : tasks)
        expect += t.state.weight * t.state.currentMs();
      EXPECT_DOUBLE_EQ(p.model.modelLatencyMs, expect);
      ++count;
    }
    int count = 0;
  } observer;
  ModelProgress p = runModelTuning(tasks, *s, mo, &observer);
  EXPECT_EQ(observer.count, 100);
  EXPECT_DOUBLE_EQ(p.model.untunedModelLatencyMs, 3 + 2 * 30 + 10);
  // Task 0's 10 configs run out: it is finished and the rest goes to task 1.
  EXPECT_TRUE(tasks[0].state.finished);
  EXPECT_EQ(tasks[0].state.trials, 10);
  EXPECT_EQ(tasks[1].state.trials, 90);
  EXPECT_DOUBLE_EQ(tasks[0].state.bestMs, 12); // |9 - 20| + 1
  EXPECT_DOUBLE_EQ(p.clockSeconds, 100);
  EXPECT_DOUBLE_EQ(tasks[0].state.seconds, 10);

  // Per-task cap, time budget and latency goal.
  std::vector<ModelTask> capped;
  capped.push_back(lineTask(1, 200, 1, 1, 10));
  capped.push_back(lineTask(1, 200, 1, 1, 10));
  mo.trialsPerTask = 20;
  p = runModelTuning(capped, *make("round-robin"), mo);
  EXPECT_EQ(p.model.trialsDone, 40);
  EXPECT_EQ(p.stopReason, "every task finished");

  std::vector<ModelTask> timed;
  timed.push_back(lineTask(1, 200, 1, 1, 10));
  mo.trialsPerTask = 0;
  mo.timeBudgetSeconds = 13;
  p = runModelTuning(timed, *make("round-robin"), mo);
  EXPECT_EQ(p.stopReason, "time budget spent");
  // Checked between batches (here slots of 4): 12 s < 13 s, one more slot.
  EXPECT_EQ(p.model.trialsDone, 16);

  std::vector<ModelTask> goal;
  goal.push_back(lineTask(1, 200, 1, 1, 100));
  mo.timeBudgetSeconds = 0;
  mo.constantMs = 0;
  mo.latencyGoalMs = 50;
  p = runModelTuning(goal, *make("round-robin"), mo);
  EXPECT_EQ(p.stopReason, "latency goal reached");
  EXPECT_LE(p.model.modelLatencyMs, 50);
}

TEST(MultiTaskTuner, ResumedRunContinuesWhereItStopped) {
  std::vector<ModelTask> tasks;
  tasks.push_back(lineTask(1, 200, 1, 1, 10));
  tasks.push_back(lineTask(1, 200, 1, 1, 10));
  ModelTuningOptions mo;
  mo.trials = 40;
  mo.slotTrials = 8;
  runModelTuning(tasks, *make("round-robin"), mo);
  std::vector<std::set<Config>> before;
  for (ModelTask &t : tasks)
    before.push_back(t.history.measured);
  ASSERT_EQ(before[0].size() + before[1].size(), 40u);
  // Continue with a larger budget and fresh task state (as from a database).
  for (ModelTask &t : tasks)
    t.state = [&] {
      TaskState s;
      s.weight = 1;
      s.untunedMs = 10;
      return s;
    }();
  mo.trials = 80;
  ModelProgress p = runModelTuning(tasks, *make("round-robin"), mo);
  EXPECT_EQ(p.model.trialsDone, 80); // the 40 old ones count
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(tasks[i].history.measured.size(), tasks[i].history.records.size());
    EXPECT_EQ(tasks[i].state.trials, static_cast<int64_t>(tasks[i].history.records.size()));
    // Every line measurement is valid; rebuilt, not appended to.
    EXPECT_EQ(tasks[i].state.validMs.size(), tasks[i].history.records.size());
    for (const Config &c : before[i])
      EXPECT_TRUE(tasks[i].history.measured.count(c));
  }
  EXPECT_EQ(tasks[0].history.records.size() + tasks[1].history.records.size(), 80u);
  // Once more with the states as the last run left them: rebuilt again.
  mo.trials = 96;
  runModelTuning(tasks, *make("round-robin"), mo);
  for (ModelTask &t : tasks)
    EXPECT_EQ(t.state.validMs.size(), t.history.records.size());
}

TEST(MultiTaskTuner, UntunedConfigsAreMeasuredFirstAndSetTheUntunedLatency) {
  // Each task's "default" (x = 10, 30 and 5: 11, 11 and 16 ms) is what it
  // runs at untuned; the search proposes it first, as live.
  auto defaultTask = [](double weight, int64_t x) {
    ModelTask t = lineTask(weight, 200, 1, 1, /*untuned=*/1000);
    t.untunedConfig = Config{x};
    t.strategy = std::make_unique<SeededSearch>(std::move(t.strategy),
                                                std::vector<Config>{Config{x}});
    return t;
  };
  std::vector<ModelTask> tasks;
  tasks.push_back(defaultTask(1, 10));
  tasks.push_back(defaultTask(2, 30));
  tasks.push_back(defaultTask(1, 5));
  struct Order : ModelTuningObserver {
    void onMeasurement(size_t task, const Config &c, const MeasureRecord &,
                       llvm::ArrayRef<ModelTask>, const ModelProgress &) override {
      order.emplace_back(task, c[0]);
    }
    std::vector<std::pair<size_t, int64_t>> order;
  } observer;
  SchedulerOptions so;
  so.earlyStop = 0;
  ModelTuningOptions mo;
  mo.trials = 3;
  ModelProgress p = runModelTuning(tasks, *make("sequential", so), mo, &observer);
  // The sequential scheduler would have given task 0 every measurement.
  std::vector<std::pair<size_t, int64_t>> defaults = {{0, 10}, {1, 30}, {2, 5}};
  EXPECT_EQ(observer.order, defaults);
  EXPECT_DOUBLE_EQ(tasks[0].state.untunedMs, 11);
  EXPECT_DOUBLE_EQ(tasks[1].state.untunedMs, 11);
  EXPECT_DOUBLE_EQ(tasks[2].state.untunedMs, 16);
  EXPECT_DOUBLE_EQ(p.model.untunedModelLatencyMs, 11 + 2 * 11 + 16);
  // Not slots: a scheduler still sees each task as untried, and none is
  // finished by its one measurement.
  EXPECT_EQ(p.model.slotsDone, 0);
  for (ModelTask &t : tasks) {
    EXPECT_EQ(t.state.slots, 0);
    EXPECT_FALSE(t.state.finished);
  }

  // Resumed with fresh states: the defaults are not measured again, they
  // still set the untuned latency, and they do not count as a slot.
  for (ModelTask &t : tasks)
    t.state = [] {
      TaskState s;
      s.weight = 1;
      s.untunedMs = 1000;
      return s;
    }();
  observer.order.clear();
  mo.trials = 5;
  p = runModelTuning(tasks, *make("sequential", so), mo, &observer);
  ASSERT_EQ(observer.order.size(), 2u);
  EXPECT_EQ(observer.order[0].first, 0u);
  EXPECT_NE(observer.order[0].second, 10);
  EXPECT_DOUBLE_EQ(tasks[2].state.untunedMs, 16);
  EXPECT_EQ(tasks[0].state.slots, 1);
  EXPECT_EQ(tasks[2].state.slots, 0);
}

// A task tuned on its own budget (tuneModule without a scheduler option) is
// one whole-budget slot of `sequential`: it must measure exactly what one
// tuning loop with the same seed and batch size measures.
TEST(MultiTaskTuner, WholeTaskSlotIsOneTuningLoop) {
  struct BatchLog : LineMeasurer {
    BatchLog() : LineMeasurer(1, 1) {}
    std::vector<MeasureRecord> measure(const std::vector<Config> &configs) override {
      batches.push_back(configs.size());
      return LineMeasurer::measure(configs);
    }
    std::vector<size_t> batches;
  };
  SearchSpace space = lineSpace(100);

  TuningHistory loopHistory;
  BatchLog loopMeasurer;
  std::unique_ptr<SearchStrategy> loopStrategy = llvm::cantFail(createSearchStrategy("random"));
  TuningOptions to;
  to.trials = 25;
  to.batchSize = 4;
  to.seed = 7;
  TuningProgress loop = runTuningLoop(space, *loopStrategy, loopMeasurer, loopHistory, {}, to);

  std::vector<ModelTask> tasks;
  tasks.push_back(lineTask(1, 100, 1, 1, 10));
  auto measurerOwner = std::make_unique<BatchLog>();
  BatchLog &measurer = *measurerOwner;
  tasks[0].measurer = std::move(measurerOwner);
  tasks[0].seed = 7;
  SchedulerOptions so;
  so.earlyStop = 0;
  ModelTuningOptions mo;
  mo.trials = mo.slotTrials = 25;
  mo.batchSize = 4;
  struct LastSlot : ModelTuningObserver {
    void onMeasurement(size_t, const Config &, const MeasureRecord &, llvm::ArrayRef<ModelTask>,
                       const ModelProgress &p) override {
      slot = p.slot;
    }
    TuningProgress slot;
  } observer;
  ModelProgress p = runModelTuning(tasks, *make("sequential", so), mo, &observer);

  EXPECT_EQ(tasks[0].history.configs, loopHistory.configs);
  EXPECT_EQ(measurer.batches, loopMeasurer.batches);
  EXPECT_EQ(measurer.batches.front(), 4u);
  EXPECT_EQ(p.model.slotsDone, 1);
  EXPECT_EQ(observer.slot.trialsDone, loop.trialsDone);
  EXPECT_EQ(observer.slot.trialsBudget, loop.trialsBudget);
  EXPECT_EQ(observer.slot.bestMs, loop.bestMs);
}

TEST(ModelSuspension, PlateauAndTheWorstModel) {
  ModelSuspensionOptions o; // 2 intervals below 1% each
  EXPECT_FALSE(lastIntervalImprovement({10.0}).has_value());
  EXPECT_DOUBLE_EQ(*lastIntervalImprovement({10.0, 8.0}), 0.2);
  // A latency that becomes finite improves by everything; one that stays
  // infinite by nothing.
  EXPECT_DOUBLE_EQ(*lastIntervalImprovement({INFINITY, 8.0}), 1.0);
  EXPECT_DOUBLE_EQ(*lastIntervalImprovement({INFINITY, INFINITY}), 0.0);

  EXPECT_FALSE(hasPlateaued({10, 9.99}, o));          // one interval only
  EXPECT_TRUE(hasPlateaued({10, 9.99, 9.985}, o));    // two below 1%
  EXPECT_FALSE(hasPlateaued({10, 9.99, 9.0}, o));     // the last one improved 10%
  EXPECT_FALSE(hasPlateaued({10, 9.0, 9.0 * 0.995}, o)); // the one before did
  ModelSuspensionOptions three = o;
  three.plateauIntervals = 3;
  EXPECT_FALSE(hasPlateaued({10, 9.99, 9.985}, three));

  std::vector<IntervalLatencies> models = {
      {10, 9.99, 9.985},  // plateaued, last improvement 0.05%
      {10, 9.0, 8.0},     // improving
      {10, 9.999, 9.999}, // plateaued, last improvement 0
  };
  bool all[] = {true, true, true};
  EXPECT_EQ(chooseModelToSuspend(models, all, o), std::optional<size_t>(2));
  bool thirdDone[] = {true, true, false};
  EXPECT_EQ(chooseModelToSuspend(models, thirdDone, o), std::optional<size_t>(0));
  bool onlyImproving[] = {false, true, false};
  EXPECT_FALSE(chooseModelToSuspend(models, onlyImproving, o).has_value());
}

namespace {
/// A model of one task: `slope` 0 gives a flat space (every configuration
/// equally fast: nothing to gain after the first measurement).
ClusterModel clusterModel(std::string name, double slope, int64_t budget, double goalMs = 0) {
  ClusterModel m;
  m.name = std::move(name);
  m.tasks.push_back(lineTask(1, 400, 1, slope, /*untuned=*/1000));
  m.scheduler = make("round-robin");
  m.options.trials = budget;
  m.options.slotTrials = 8;
  m.options.latencyGoalMs = goalMs;
  return m;
}
} // namespace

TEST(SimulatedCluster, SuspensionStopsAPlateauedModelAndFreesItsWorkers) {
  auto run = [](bool suspend) {
    std::vector<ClusterModel> models;
    models.push_back(clusterModel("flat", 0, 400));
    models.push_back(clusterModel("steep", 1, 400));
    SimulatedClusterOptions o;
    o.workers = 4;
    o.intervalTrials = 16;
    o.suspend = suspend;
    o.suspension.minImprovement = 1e-9; // only a model that gains nothing plateaus
    o.busyWattsPerWorker = 10;
    return simulateCluster(models, o);
  };
  SimulatedClusterRun with = run(true), without = run(false);
  // The flat model gains everything in its first interval, nothing in the
  // next two: suspended after three intervals.
  EXPECT_EQ(with.models[0].end, ClusterModelEnd::Suspended);
  EXPECT_EQ(with.models[0].measurements, 48);
  EXPECT_EQ(with.models[0].latencies.size(), 4u);
  EXPECT_EQ(without.models[0].end, ClusterModelEnd::BudgetSpent);
  EXPECT_EQ(without.models[0].measurements, 400);
  // The same final latency for the flat model, fewer measurements in all.
  EXPECT_DOUBLE_EQ(with.models[0].finalMs(), without.models[0].finalMs());
  EXPECT_LT(with.measurements, without.measurements);
  // One simulated second per measurement, shared by 4 workers.
  EXPECT_DOUBLE_EQ(with.busySeconds, static_cast<double>(with.measurements));
  EXPECT_DOUBLE_EQ(with.wallSeconds, with.busySeconds / 4);
  EXPECT_DOUBLE_EQ(with.energyJoules, with.busySeconds * 10);
  EXPECT_GT(with.models[0].endWallSeconds, 0);
  EXPECT_LE(with.models[0].endWallSeconds, with.models[1].endWallSeconds);
}

TEST(SimulatedCluster, AModelStopsAtItsGoalAndItsBudget) {
  std::vector<ClusterModel> models;
  // x = 20 costs 1 ms; the goal 1 ms is the optimum of a 400-configuration
  // space, so random search reaches it or spends its 400.
  models.push_back(clusterModel("goal", 1, 400, /*goalMs=*/1));
  models.push_back(clusterModel("budget", 1, 40));
  SimulatedClusterOptions o;
  o.suspend = false;
  o.intervalTrials = 16;
  SimulatedClusterRun r = simulateCluster(models, o);
  EXPECT_EQ(r.models[0].end, ClusterModelEnd::GoalReached);
  EXPECT_DOUBLE_EQ(r.models[0].finalMs(), 1);
  EXPECT_EQ(r.models[1].end, ClusterModelEnd::BudgetSpent);
  EXPECT_EQ(r.models[1].measurements, 40); // 16 + 16 + 8
  EXPECT_EQ(r.models[1].latencies.size(), 4u);
  EXPECT_EQ(r.measurements, r.models[0].measurements + r.models[1].measurements);
}
