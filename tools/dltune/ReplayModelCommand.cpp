//===- ReplayModelCommand.cpp - dltune replay-model -----------------------===//
//
//   dltune replay-model --task FILE[:WEIGHT[:GFLOP]] ... [--scheduler dynatune]
//                       [--strategy sa] [--cost-model xgb] [--trials N]
//                       [--trials-per-task M] [--slot S] [--time-budget SEC]
//                       [--latency-goal MS] [--seeds K] [--report OUT.csv]
//
// Tunes a model made of recorded tasks (Kernel Tuner caches, as for
// `dltune replay`) under one budget with a task scheduler: the driver the
// autotune pass will use, with ReplayMeasurers in place of hardware. A
// task's untuned latency is the median valid time of its file.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "ReplayOptions.h"

#include "dltune/Tuning/SearchStrategy/ColdCandidateFilter.h"

#include "dltune/Tuning/TaskScheduler/MultiTaskTuner.h"
#include "dltune/Tuning/Replay/ReplayMeasurer.h"
#include "dltune/Tuning/Replay/SimulatedCluster.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

static cl::list<std::string>
    taskSpecs("task",
              cl::desc("FILE[:WEIGHT[:GFLOP]]: a Kernel Tuner cache, the task's occurrences in the "
                       "model (default 1) and its GFLOP per occurrence (default unknown)"),
              cl::ZeroOrMore, cl::sub(replayModelCmd));
static cl::list<std::string> modelSpecs(
    "model",
    cl::desc("NAME=TASK,TASK,...: one model of a simulated cluster (repeat for each model; "
             "each TASK as --task takes it); instead of --task"),
    cl::ZeroOrMore, cl::sub(replayModelCmd));
static cl::opt<unsigned> clusterWorkers("workers",
                                        cl::desc("--model: the cluster's workers, shared by the "
                                                 "models"),
                                        cl::init(4), cl::sub(replayModelCmd));
static cl::opt<unsigned> clusterInterval(
    "interval",
    cl::desc("--model: each model's measurements between synchronisations (0: one slot per "
             "task)"),
    cl::init(0), cl::sub(replayModelCmd));
static cl::opt<bool> suspendModels("suspend",
                                   cl::desc("--model: suspend the model that improved least "
                                            "once it has plateaued (Trimmer)"),
                                   cl::sub(replayModelCmd));
static cl::opt<unsigned> plateauIntervals(
    "plateau",
    cl::desc("--suspend: intervals that must each improve by less than --min-improvement"),
    cl::init(ModelSuspensionOptions().plateauIntervals), cl::sub(replayModelCmd));
static cl::opt<double> minImprovement(
    "min-improvement",
    cl::desc("--suspend: relative model latency reduction of an interval below which it is a "
             "plateau"),
    cl::init(ModelSuspensionOptions().minImprovement), cl::sub(replayModelCmd));
static cl::opt<double> goalFactor("goal-factor",
                                  cl::desc("--model: each model's latency goal, as this factor "
                                           "of its best reachable latency (0: none)"),
                                  cl::init(0), cl::sub(replayModelCmd));
static cl::opt<double> wattsPerWorker("watts-per-worker",
                                      cl::desc("--model: modelled power of a busy worker, W"),
                                      cl::init(10), cl::sub(replayModelCmd));
static cl::opt<std::string> schedulerName("scheduler", cl::desc("Task scheduler"),
                                          cl::init("dynatune"), cl::sub(replayModelCmd));
static cl::opt<std::string> strategyName("strategy", cl::desc("Search strategy of every task"),
                                         cl::init("sa"), cl::sub(replayModelCmd));
static cl::opt<int64_t> trials("trials", cl::desc("Measurements of the whole model per seed"),
                               cl::init(1000), cl::sub(replayModelCmd));
static cl::opt<int64_t> trialsPerTask("trials-per-task", cl::desc("Cap per task (0: none)"),
                                      cl::init(0), cl::sub(replayModelCmd));
static cl::opt<int64_t> slot("slot", cl::desc("Measurements per slot"), cl::init(32),
                             cl::sub(replayModelCmd));
static cl::opt<int64_t> earlyStop("early-stop",
                                  cl::desc("sequential: next task after this many measurements "
                                           "without improvement (0: never)"),
                                  cl::init(200), cl::sub(replayModelCmd));
static cl::opt<int64_t> taskEarlyStop("task-early-stop",
                                      cl::desc("Every scheduler: a task is finished after this "
                                               "many measurements without improvement (0: never)"),
                                      cl::init(0), cl::sub(replayModelCmd));
static cl::opt<double> ucbC("ucb-c", cl::desc("dynatune: the UCB exploration constant C"),
                            cl::init(2.0), cl::sub(replayModelCmd));
static cl::opt<bool> paperDynaTune("paper-dynatune",
                                   cl::desc("dynatune without this project's changes (raw ms "
                                            "rewards, no cost weighting, no similarity priors, curves that need not saturate, the curve reward, full first slots)"),
                                   cl::sub(replayModelCmd));
static cl::opt<bool> curveReward("curve-reward",
                                  cl::desc("dynatune: the reward from the learning curves (the "
                                           "paper's), not from the measured spread"),
                                  cl::sub(replayModelCmd));
static cl::opt<bool> costAware("cost-aware",
                                cl::desc("dynatune: reward per second of tuning (divide by the "
                                         "task's seconds per slot over the mean)"),
                                cl::sub(replayModelCmd));
static cl::opt<bool> shareCap("share-cap",
                              cl::desc("dynatune: clip each task's UCB at its share of the "
                                       "model latency; an untried task waits while a tried "
                                       "task's expected reward exceeds its share"),
                              cl::sub(replayModelCmd));
static cl::opt<double> probeShare("probe-share",
                                  cl::desc("dynatune: an untried task's first slot is this "
                                           "share of a slot (1: a full slot, the paper's)"),
                                  cl::init(0.5), cl::sub(replayModelCmd));
static cl::opt<double> surveyPhi("survey-phi",
                                 cl::desc("survey: the stop threshold phi of Trimmer's Eq. 2"),
                                 cl::init(SchedulerOptions().surveyPhi), cl::sub(replayModelCmd));
static cl::opt<bool> surveyPrintedRule(
    "survey-printed-rule",
    cl::desc("survey: Eq. 2 as printed (a sum, which never stops a model that keeps getting "
             "faster) instead of the difference it means"),
    cl::sub(replayModelCmd));
static cl::opt<double> latencyGoal("latency-goal", cl::desc("Stop at this model latency, ms (0: "
                                                            "none)"),
                                   cl::init(0), cl::sub(replayModelCmd));
static cl::opt<double> constantMs("constant-ms", cl::desc("Latency of the ops not tuned, ms"),
                                  cl::init(0), cl::sub(replayModelCmd));

namespace {
struct RecordedTask {
  std::string name;
  double weight = 1, flops = 0;
  bool flopsFromCache = false;
  KernelTunerCache cache;
};

/// FILE[:WEIGHT[:GFLOP]]: numbers are taken from the right, so a path
/// may hold colons as long as its last part is not a number.
llvm::Expected<RecordedTask> parseTask(llvm::StringRef spec) {
  RecordedTask task;
  llvm::SmallVector<double, 2> numbers;
  llvm::StringRef path = spec;
  while (numbers.size() < 2) {
    auto [head, tail] = path.rsplit(':');
    double v;
    if (head == path || tail.getAsDouble(v))
      break;
    if (!(v > 0))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--task '%s': weight and GFLOP must be positive",
                                     spec.str().c_str());
    numbers.insert(numbers.begin(), v);
    path = head;
  }
  if (!numbers.empty())
    task.weight = numbers[0];
  if (numbers.size() > 1)
    task.flops = numbers[1] * 1e9;
  llvm::Expected<KernelTunerCache> cache = KernelTunerCache::load(path.str());
  if (!cache)
    return cache.takeError();
  task.cache = std::move(*cache);
  if (!std::isfinite(task.cache.getOptimumMs()))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' holds no valid measurement", path.str().c_str());
  task.name = task.cache.kernelName.empty() ? path.str() : task.cache.kernelName;
  // Without a GFLOP count, the recording's own GFLOP/s x time gives it
  // (FLOP-based schedulers and similarity groups need it).
  if (task.flops == 0)
    if (std::optional<double> flops = task.cache.getFlopsPerCall()) {
      task.flops = *flops;
      task.flopsFromCache = true;
    }
  return task;
}

/// Writes `seed,trial,task,config,time_ms,model_latency_ms,sim_clock_s`.
class ModelReportWriter : public ModelTuningObserver {
public:
  ModelReportWriter(std::ostream *out, int seed) : out(out), seed(seed) {}
  void onMeasurement(size_t task, const Config &, const MeasureRecord &r,
                     llvm::ArrayRef<ModelTask> tasks, const ModelProgress &p) override {
    if (!out)
      return;
    *out << seed << "," << p.model.trialsDone << "," << tasks[task].state.name << ",\""
         << r.config << "\",";
    if (r.isOk())
      *out << formatNumber(r.timeMs);
    *out << "," << formatNumber(p.model.modelLatencyMs) << ","
         << llvm::formatv("{0:f3}", p.clockSeconds).str() << "\n";
  }

private:
  std::ostream *out;
  int seed;
};

} // namespace

/// The recorded tasks as one seed's ModelTasks: each with its strategy (in
/// the cold filter when one is asked for) and a replay measurer.
static llvm::Expected<std::vector<ModelTask>>
buildTasks(const std::vector<RecordedTask> &recorded, int seed,
           const std::optional<ColdRule> &coldRule,
           const std::shared_ptr<ColdFilterStats> &coldStats, StrategyObserver *observer,
           uint64_t measurerSeedOffset) {
  std::vector<ModelTask> tasks;
  for (const RecordedTask &r : recorded) {
    StrategyOptions opts;
    opts.costModel = costModel;
    opts.planSize = planSize;
    opts.firstFit = std::min(firstFit, planSize);
    opts.observer = observer;
    llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
        createSearchStrategy(strategyName, opts);
    if (!strategy)
      return strategy.takeError();
    strategy = applyColdFilter(std::move(*strategy), coldRule, coldFactor, coldStats);
    ModelTask t{TaskState{}, r.cache.getSpace(), std::move(*strategy),
                 std::make_unique<ReplayMeasurer>(r.cache, stochastic,
                                                   1000 + seed * 101 + tasks.size() +
                                                       measurerSeedOffset),
                 TuningHistory{}};
    t.state.name = r.name;
    t.state.kind = r.cache.kernelName;
    t.state.weight = r.weight;
    t.state.flops = r.flops;
    t.state.untunedMs = r.cache.getMedianMs();
    tasks.push_back(std::move(t));
  }
  return tasks;
}

static double bestReachable(const std::vector<RecordedTask> &recorded) {
  double ms = constantMs;
  for (const RecordedTask &t : recorded)
    ms += t.weight * t.cache.getOptimumMs();
  return ms;
}

/// --model: several models on one simulated cluster (SimulatedCluster.h).
static int replayClusterCommand(const SchedulerOptions &so,
                                const std::optional<ColdRule> &coldRule) {
  if (!taskSpecs.empty())
    return fail("--task and --model do not mix: give each model's tasks with --model");
  if (clusterWorkers < 1 || clusterWorkers > 100000)
    return fail("--workers must be between 1 and 100000");
  if (plateauIntervals < 1 || plateauIntervals > 1000)
    return fail("--plateau must be between 1 and 1000");
  // Each interval resumes the model's driver from its tasks' histories,
  // which rebuilds the model state (slots, budget) that the other
  // schedulers keep across slots: only these two need none.
  std::string scheduler =
      schedulerName.getNumOccurrences() ? schedulerName.getValue() : std::string("round-robin");
  if (scheduler != "round-robin" && scheduler != "random")
    return fail("--model runs take --scheduler round-robin (the default here: Trimmer's survey "
                "epochs) or random, not '" + scheduler + "'");
  if (trialsPerTask > 0 && trials.getNumOccurrences())
    return fail("--trials and --trials-per-task both set each model's budget: give one");
  if (!(minImprovement >= 0 && minImprovement < 1))
    return fail("--min-improvement must be in [0, 1)");
  if (!(goalFactor == 0 || goalFactor >= 1) || !std::isfinite(goalFactor))
    return fail("--goal-factor must be 0 (no goal) or at least 1");
  if (!(wattsPerWorker >= 0) || !std::isfinite(wattsPerWorker))
    return fail("--watts-per-worker must not be negative");
  if (timeBudget > 0 || latencyGoal > 0)
    return fail("--model runs take --trials or --trials-per-task and --goal-factor, not "
                "--time-budget or --latency-goal");
  std::vector<std::pair<std::string, std::vector<RecordedTask>>> models;
  for (const std::string &spec : modelSpecs) {
    auto [name, list] = llvm::StringRef(spec).split('=');
    if (list.empty() || name.empty())
      return fail("--model '" + spec + "': expected NAME=TASK,TASK,...");
    llvm::SmallVector<llvm::StringRef> parts;
    list.split(parts, ',', -1, /*KeepEmpty=*/false);
    std::vector<RecordedTask> recorded;
    if (parts.empty())
      return fail("--model '" + spec + "': expected NAME=TASK,TASK,...");
    for (llvm::StringRef part : parts) {
      llvm::Expected<RecordedTask> task = parseTask(part);
      if (!task)
        return fail(llvm::toString(task.takeError()));
      task->name += "#" + std::to_string(recorded.size());
      recorded.push_back(std::move(*task));
    }
    for (const auto &m : models)
      if (m.first == name)
        return fail("--model '" + name.str() + "' is given twice");
    models.emplace_back(name.str(), std::move(recorded));
  }
  SimulatedClusterOptions co;
  co.workers = clusterWorkers;
  co.suspend = suspendModels;
  co.suspension.plateauIntervals = plateauIntervals;
  co.suspension.minImprovement = minImprovement;
  co.busyWattsPerWorker = wattsPerWorker;
  llvm::outs() << llvm::formatv("cluster: {0} models, {1} workers, {2}; energy modelled at {3} W "
                                "per busy worker\n",
                                models.size(), co.workers,
                                co.suspend ? llvm::formatv("suspension after {0} interval(s) "
                                                           "below {1}% each",
                                                           co.suspension.plateauIntervals,
                                                           100 * co.suspension.minImprovement)
                                                 .str()
                                           : std::string("no suspension"),
                                formatNumber(co.busyWattsPerWorker));
  std::ofstream file;
  std::ostream *out = nullptr;
  if (!openReport(file, out, "seed,model,end,intervals,measurements,busy_s,end_wall_s,"
                             "untuned_ms,final_ms,best_reachable_ms"))
    return fail("cannot write '" + report + "'");
  std::vector<std::vector<double>> ratio(models.size()), measured(models.size());
  std::vector<double> totalMeasurements, totalBusy, totalWall, totalEnergy;
  for (int seed = 0; seed < seeds; ++seed) {
    CliStrategyObserver strategyObserver;
    std::vector<ClusterModel> cluster;
    for (size_t m = 0; m < models.size(); ++m) {
      auto coldStats = std::make_shared<ColdFilterStats>();
      llvm::Expected<std::vector<ModelTask>> tasks =
          buildTasks(models[m].second, seed, coldRule, coldStats, &strategyObserver, 17 * m);
      if (!tasks)
        return fail(llvm::toString(tasks.takeError()));
      SchedulerOptions seeded = so;
      seeded.seed = seed * 7919 + m;
      ClusterModel cm{models[m].first, std::move(*tasks),
                      llvm::cantFail(createTaskScheduler(scheduler, seeded)), {}};
      // --trials-per-task: each model's budget is that many per task (so
      // models of different sizes get the same per task), else --trials.
      cm.options.trialsPerTask = trialsPerTask;
      cm.options.trials = trialsPerTask > 0
                              ? static_cast<int64_t>(trialsPerTask) *
                                    static_cast<int64_t>(cm.tasks.size())
                              : static_cast<int64_t>(trials);
      cm.options.slotTrials = slot;
      cm.options.taskEarlyStop = taskEarlyStop;
      cm.options.constantMs = constantMs;
      cm.options.seed = seed * 7919 + m;
      // Default interval: the model's epoch, a slot per task.
      cm.intervalTrials = clusterInterval > 0 ? static_cast<int64_t>(clusterInterval)
                                              : static_cast<int64_t>(slot) *
                                                    static_cast<int64_t>(cm.tasks.size());
      if (goalFactor > 0)
        cm.options.latencyGoalMs = goalFactor * bestReachable(models[m].second);
      cluster.push_back(std::move(cm));
    }
    SimulatedClusterRun run = simulateCluster(cluster, co);
    llvm::outs() << llvm::formatv("seed {0}: {1} rounds, {2} measurements, {3:f1} busy s, "
                                  "{4:f1} s on the cluster, {5:f0} J (modelled)\n",
                                  seed, run.rounds, run.measurements, run.busySeconds,
                                  run.wallSeconds, run.energyJoules);
    totalMeasurements.push_back(run.measurements);
    totalBusy.push_back(run.busySeconds);
    totalWall.push_back(run.wallSeconds);
    totalEnergy.push_back(run.energyJoules);
    for (size_t m = 0; m < models.size(); ++m) {
      const ClusterModelResult &r = run.models[m];
      double best = bestReachable(models[m].second);
      llvm::outs() << llvm::formatv("  {0}: {1} after {2} interval(s), {3} measurements, {4} ms "
                                    "({5:f3}x the best reachable)\n",
                                    r.name, toString(r.end), r.latencies.size() - 1,
                                    r.measurements, formatNumber(r.finalMs()),
                                    r.finalMs() / best);
      ratio[m].push_back(r.finalMs() / best);
      measured[m].push_back(r.measurements);
      if (out)
        *out << seed << "," << r.name << "," << toString(r.end).str() << ","
             << r.latencies.size() - 1 << "," << r.measurements << ","
             << formatNumber(r.busySeconds) << "," << formatNumber(r.endWallSeconds) << ","
             << formatNumber(r.latencies.front()) << "," << formatNumber(r.finalMs()) << ","
             << formatNumber(best) << "\n";
    }
  }
  llvm::outs() << llvm::formatv("medians over {0} seed(s):\n{1,-16} {2,12} {3,14}\n", seeds.getValue(),
                                "model", "measurements", "final/best");
  for (size_t m = 0; m < models.size(); ++m)
    llvm::outs() << llvm::formatv("{0,-16} {1,12} {2,14:f3}\n", models[m].first,
                                  formatNumber(median(measured[m])), median(ratio[m]));
  llvm::outs() << llvm::formatv("{0,-16} {1,12} busy {2:f1} s, cluster {3:f1} s, {4:f0} J "
                                "(modelled)\n",
                                "total", formatNumber(median(totalMeasurements)),
                                median(totalBusy), median(totalWall), median(totalEnergy));
  return closeReport(file);
}

int replayModelCommand() {
  if (trials < 1)
    return fail("--trials must be at least 1");
  if (seeds < 1)
    return fail("--seeds must be at least 1");
  if (slot < 1)
    return fail("--slot must be at least 1");
  if (trialsPerTask < 0 || earlyStop < 0 || taskEarlyStop < 0 || timeBudget < 0 ||
      latencyGoal < 0 || constantMs < 0)
    return fail("--trials-per-task, --early-stop, --task-early-stop, --time-budget, "
                "--latency-goal and --constant-ms must not be negative");
  if (planSize < 1 || firstFit < 1)
    return fail("--plan-size and --first-fit must be at least 1");

  SchedulerOptions so;
  so.earlyStop = earlyStop;
  so.ucbC = ucbC;
  so.probeShare = probeShare;
  so.surveyPhi = surveyPhi;
  so.surveyPrintedRule = surveyPrintedRule;
  if (paperDynaTune) {
    so.normalizeReward = so.costAware = so.similarityPrior = so.saturatingCurves =
        so.gapReward = false;
    if (probeShare.getNumOccurrences() == 0)
      so.probeShare = 1;
  }
  if (curveReward)
    so.gapReward = false;
  if (costAware)
    so.costAware = true;
  if (shareCap && paperDynaTune)
    return fail("--share-cap needs rewards in percent of the model latency, which "
                "--paper-dynatune turns off");
  if (shareCap)
    so.shareCap = true;
  // Refuse a bad scheduler name before loading the files.
  if (auto check = createTaskScheduler(schedulerName, so); !check)
    return fail(llvm::toString(check.takeError()));

  std::optional<ColdRule> coldRule;
  if (!parseColdFilter(coldFilter, coldRule))
    return fail("--cold-filter must be off, nn or trend, got '" + coldFilter + "'");
  if (!(coldFactor > 1 && coldFactor < 1e6))
    return fail("--cold-factor must be a number above 1, got " + formatNumber(coldFactor));
  if (!modelSpecs.empty())
    return replayClusterCommand(so, coldRule);
  if (taskSpecs.empty())
    return fail("give the model's tasks with --task (or several models with --model)");
  for (const cl::Option *o : std::initializer_list<const cl::Option *>{
           &clusterWorkers, &clusterInterval, &suspendModels, &plateauIntervals,
           &minImprovement, &goalFactor, &wattsPerWorker})
    if (o->getNumOccurrences())
      return fail("--" + o->ArgStr.str() + " applies to a cluster of models (--model) only");
  std::vector<RecordedTask> recorded;
  std::map<std::string, int> names;
  for (const std::string &spec : taskSpecs) {
    llvm::Expected<RecordedTask> task = parseTask(spec);
    if (!task)
      return fail(llvm::toString(task.takeError()));
    // Two tasks from kernels of one name are told apart by their position.
    if (names[task->name]++)
      task->name += "#" + std::to_string(recorded.size());
    if (task->flopsFromCache)
      llvm::outs() << llvm::formatv("note: task {0}: {1:f3} GFLOP per call from its recorded "
                                    "GFLOP/s x time\n",
                                    task->name, task->flops * 1e-9);
    recorded.push_back(std::move(*task));
  }

  double untunedModel = constantMs, bestModel = constantMs;
  for (const RecordedTask &t : recorded) {
    untunedModel += t.weight * t.cache.getMedianMs();
    bestModel += t.weight * t.cache.getOptimumMs();
  }
  llvm::outs() << llvm::formatv("model: {0} tasks, untuned {1} ms, best reachable {2} ms\n",
                                recorded.size(), formatNumber(untunedModel), formatNumber(bestModel));

  std::ofstream file;
  std::ostream *out = nullptr;
  if (!openReport(file, out, "seed,trial,task,config,time_ms,model_latency_ms,sim_clock_s"))
    return fail("cannot write '" + report + "'");

  std::vector<std::vector<double>> bestPerTask(recorded.size()), sharePerTask(recorded.size());
  for (int seed = 0; seed < seeds; ++seed) {
    CliStrategyObserver strategyObserver;
    auto coldStats = std::make_shared<ColdFilterStats>(); // over the model's tasks
    llvm::Expected<std::vector<ModelTask>> built =
        buildTasks(recorded, seed, coldRule, coldStats, &strategyObserver, 0);
    if (!built)
      return fail(llvm::toString(built.takeError()));
    std::vector<ModelTask> tasks = std::move(*built);
    SchedulerOptions seeded = so;
    seeded.seed = seed;
    std::unique_ptr<TaskScheduler> scheduler =
        llvm::cantFail(createTaskScheduler(schedulerName, seeded));
    ModelTuningOptions mo;
    mo.trials = trials;
    mo.trialsPerTask = trialsPerTask;
    mo.timeBudgetSeconds = timeBudget;
    mo.latencyGoalMs = latencyGoal;
    mo.slotTrials = slot;
    mo.taskEarlyStop = taskEarlyStop;
    mo.constantMs = constantMs;
    mo.seed = seed;
    ModelReportWriter writer(out, seed);
    ModelProgress p = runModelTuning(tasks, *scheduler, mo, &writer);
    double overhead = p.clockSeconds > 0 ? 100 * p.schedulerSeconds / p.clockSeconds : 0;
    llvm::outs() << llvm::formatv(
        "seed {0}: {1} measurements, model latency {2} ms -> {3} ms ({4:f3}x the best reachable), "
        "simulated {5:f1} s, scheduler {6:f3} s ({7:f2}% of tuning time); {8}\n",
        seed, p.model.trialsDone, formatNumber(p.model.untunedModelLatencyMs), formatNumber(p.model.modelLatencyMs),
        p.model.modelLatencyMs / bestModel, p.clockSeconds, p.schedulerSeconds, overhead,
        p.stopReason);
    if (coldRule)
      llvm::outs() << llvm::formatv("  cold filter dropped {0} of {1} proposals\n",
                                    coldStats->dropped, coldStats->proposed);
    for (size_t i = 0; i < tasks.size(); ++i) {
      bestPerTask[i].push_back(tasks[i].state.currentMs());
      sharePerTask[i].push_back(p.model.trialsDone
                                    ? 100.0 * tasks[i].state.trials / p.model.trialsDone
                                    : 0);
    }
  }

  llvm::outs() << llvm::formatv("{0,-24} {1,8} {2,12} {3,12} {4,12} {5,8}\n", "task", "weight",
                                "untuned_ms", "best_ms", "optimum_ms", "budget%");
  for (size_t i = 0; i < recorded.size(); ++i) {
    const RecordedTask &r = recorded[i];
    llvm::outs() << llvm::formatv("{0,-24} {1,8} {2,12} {3,12} {4,12} {5,8:f1}\n", r.name,
                                  formatNumber(r.weight), formatNumber(r.cache.getMedianMs()),
                                  formatNumber(median(bestPerTask[i])), formatNumber(r.cache.getOptimumMs()),
                                  median(sharePerTask[i]));
  }
  return closeReport(file);
}

} // namespace dltune_tool
