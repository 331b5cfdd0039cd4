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
              cl::OneOrMore, cl::sub(replayModelCmd));
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

  std::optional<ColdRule> coldRule;
  if (!parseColdFilter(coldFilter, coldRule))
    return fail("--cold-filter must be off, nn or trend, got '" + coldFilter + "'");
  if (!(coldFactor > 1 && coldFactor < 1e6))
    return fail("--cold-factor must be a number above 1, got " + formatNumber(coldFactor));
  std::vector<std::vector<double>> bestPerTask(recorded.size()), sharePerTask(recorded.size());
  for (int seed = 0; seed < seeds; ++seed) {
    CliStrategyObserver strategyObserver;
    auto coldStats = std::make_shared<ColdFilterStats>(); // over the model's tasks
    std::vector<ModelTask> tasks;
    for (const RecordedTask &r : recorded) {
      StrategyOptions opts;
      opts.costModel = costModel;
      opts.planSize = planSize;
      opts.firstFit = std::min(firstFit, planSize);
      opts.observer = &strategyObserver;
      llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
          createSearchStrategy(strategyName, opts);
      if (!strategy)
        return fail(llvm::toString(strategy.takeError()));
      strategy = applyColdFilter(std::move(*strategy), coldRule, coldFactor, coldStats);
      ModelTask t{TaskState{}, r.cache.getSpace(), std::move(*strategy),
                   std::make_unique<ReplayMeasurer>(r.cache, stochastic,
                                                     1000 + seed * 101 + tasks.size()),
                   TuningHistory{}};
      t.state.name = r.name;
      t.state.kind = r.cache.kernelName;
      t.state.weight = r.weight;
      t.state.flops = r.flops;
      t.state.untunedMs = r.cache.getMedianMs();
      tasks.push_back(std::move(t));
    }
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
