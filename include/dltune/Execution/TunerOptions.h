//===- TunerOptions.h - What a tuning run is told ---------------*- C++ -*-===//
//
// The options of `--dltune-autotune` and `dltune tune`, declared once:
// their fields, names, defaults and help (forEachTunerOption), their checks
// before any work (validateTunerOptions) and their llvm::cl form
// (TunerOptionSet).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_TUNEROPTIONS_H
#define DLTUNE_EXECUTION_TUNEROPTIONS_H

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/SearchStrategy/ColdCandidateFilter.h"
#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"
#include "dltune/Tuning/TaskScheduler/TaskScheduler.h"
#include "dltune/Tuning/Transfer/TransferCostModel.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

namespace mlir::dltune {

/// Everything `--dltune-autotune` and `dltune tune` are told. Both get their
/// options from forEachTunerOption below, so an option exists in both under
/// one name, with one default and one help text.
struct ModuleTunerOptions {
  std::string target = "cpu";
  std::string dbPath = "dltune.db";
  int64_t trials = 64;           // per task (per model with a scheduler), history included
  double timeBudgetSeconds = 0;  // per task (per model with a scheduler); 0: none
  /// A task scheduler (TaskScheduler.h) spends `trials` for the whole
  /// model a slot at a time; empty: each task gets `trials` in turn.
  std::string scheduler;
  int64_t trialsPerTask = 0;  // cap per task (without a scheduler: on `trials`); 0: none
  double latencyGoalMs = 0;   // with a scheduler: stop at this model latency; 0: none
  /// Scheduler survey: Trimmer's stop threshold and rule (SurveyRule.h).
  double surveyPhi = -0.25;
  bool surveyPrintedRule = false;
  /// The model's entry function: with scheduler survey the model is timed
  /// end to end (JIT, on the CPU) with the best configurations so far after
  /// each epoch, and the stop rule and latencyGoalMs use that latency
  /// (EndToEndModelTimer.h); `dltune tune` also times it after tuning.
  /// Empty: the sum of task latencies.
  std::string modelEntry;
  int64_t slotTrials = 16;    // with a scheduler: measurements per slot
  int64_t earlyStop = 200;    // `sequential`: give up a task after this many without gain
  bool shareCap = false;      // `dynatune`: SchedulerOptions::shareCap
  double probeShare = 0.5;    // `dynatune`: SchedulerOptions::probeShare
  double ucbC = 2;            // `dynatune`: SchedulerOptions::ucbC
  bool curveReward = false;   // `dynatune`: the learning-curve reward (!gapReward)
  /// With a scheduler: a task is finished after this many measurements
  /// without improvement (DynaTune's finish rule); 0: never.
  int64_t taskEarlyStop = 0;
  uint64_t seed = 0;
  std::string strategy = "sa";
  std::string costModel; // model-based strategies; empty: the strategy's default
  unsigned planSize = 64;
  unsigned jobs = 1;
  double buildTimeoutSeconds = 60, runTimeoutSeconds = 30;
  uint64_t memoryLimitMB = 4096;
  double minTimeMs = 50;
  /// Evict the caches before each timed call (RunnerOptions::flushCaches),
  /// confirmations and the end-to-end model timings included; the records
  /// go under a device of their own (DeviceInfo::cachesFlushed).
  bool flushCaches = false;
  std::string workerPath; // empty: findWorkerExecutable()
  std::string workDir;    // empty: <db>.work
  /// Whether the CLI and the pass show progress (tuneModule itself only
  /// sends events; warnings are shown either way).
  bool progress = true;
  /// At the end of each task the best `confirmTop` candidates are
  /// re-measured in fresh processes, interleaved, for up to
  /// `confirmRepeats` rounds (0: no confirmation).
  unsigned confirmTop = 5;
  unsigned confirmRepeats = 5;
  double rtol = -1, atol = -1; // result-check tolerances; negative: by element type
  /// CPU tasks: each candidate is timed between runs of dltune's default
  /// config, and a time counts only when that anchor ran within this
  /// fraction of its fastest (Execution/AnchoredTiming.h); 0: no anchor.
  double anchorTolerance = 0.1;
  /// Transfer learning (docs/cost-models.md): none, dm (direct reuse of a
  /// model pretrained on `history`), map (MAP adaptation of a deep GP), lms
  /// or nlms (the pretrained model shifted onto the task), gs (guided
  /// sampling from a stepwise regression on `history`).
  std::string transfer = "none";
  /// What transfer pretrains on: "db" (other tasks of the same op in the
  /// database) or comma-separated Kernel Tuner cache files.
  std::string history = "db";
  /// With transfer: the tuning set's share chosen by the model's upper
  /// bound among diverse configurations, and how often map re-ranks its
  /// rest (TransferSearchOptions::exploreShare, reRankEvery; 0: off).
  double tuningSetExplore = 0;
  int64_t tuningSetReRank = 0;
  /// With a task scheduler: a task's transfer, and its cold filter's
  /// history, are built again before a proposal once the database's history
  /// rows have grown this many times over since their last build (other
  /// tasks' later slots); 0: built once, at the task's first slot.
  double historyRefresh = 2;
  /// Trimmer's cold-candidate filter (docs/trimmer.md): off, nn (cold:
  /// slower than coldFactor times the best before it) or trend (cold:
  /// above the LOESS trend of the measured times).
  std::string coldFilter = "off";
  double coldFactor = 2.0;
  /// Move the task's records on this device aside (kept in
  /// replaced_records) and measure again instead of resuming.
  bool remeasure = false;

  /// GPU tasks: the chip to build for; empty: the detected GPU, else sm_90.
  std::string gpuChip;
  /// GPU tasks: how the reference outputs every candidate is checked
  /// against are computed on the CPU: "scheduled" (the CPU's default
  /// configuration on all cores) or "untuned" (the unscheduled loops on one
  /// thread, as for CPU tasks; minutes for large tasks).
  std::string gpuReference = "scheduled";
};

/// Without a scheduler, each task's budget: `trials`, capped by
/// `trialsPerTask` when that is set.
inline int64_t getTrialsPerTaskWithoutScheduler(const ModuleTunerOptions &o) {
  return o.trialsPerTask > 0 ? std::min(o.trials, o.trialsPerTask) : o.trials;
}

/// What the task scheduler of a run gets from the tuner options.
inline SchedulerOptions getSchedulerOptions(const ModuleTunerOptions &o) {
  SchedulerOptions so;
  so.seed = o.seed;
  so.earlyStop = o.earlyStop;
  so.shareCap = o.shareCap;
  so.probeShare = o.probeShare;
  so.ucbC = o.ucbC;
  so.surveyPhi = o.surveyPhi;
  so.surveyPrintedRule = o.surveyPrintedRule;
  if (o.curveReward)
    so.gapReward = false;
  return so;
}

/// Calls `fn(name, field, help, negated)` for every option of `o`, in a fixed
/// order: the one place where option names meet fields. `negated` marks a
/// flag that sets the field to the opposite (`quiet` clears `progress`).
template <typename Fn> void forEachTunerOption(ModuleTunerOptions &o, Fn &&fn) {
  fn("target", o.target, "cpu or gpu", false);
  fn("db", o.dbPath, "Tuning database (SQLite)", false);
  fn("trials", o.trials,
     "Measurements per task (with a scheduler: for the whole model), earlier ones in the "
     "database included",
     false);
  fn("time-budget", o.timeBudgetSeconds,
     "Seconds of tuning per task (with a scheduler: for the whole model; 0: no limit)", false);
  fn("scheduler", o.scheduler,
     "Task scheduler spending one model budget: sequential, round-robin, random, flops, "
     "gradient, gradient-ms, dynatune, survey (default: none, each task gets `trials`)",
     false);
  fn("trials-per-task", o.trialsPerTask,
     "Most measurements per task: with a scheduler within the model's budget, without one a cap "
     "on `trials` (0: none)",
     false);
  fn("latency-goal-ms", o.latencyGoalMs,
     "With a scheduler: stop once the model latency reaches this (0: none)", false);
  fn("slot-trials", o.slotTrials, "With a scheduler: measurements per slot", false);
  fn("early-stop", o.earlyStop,
     "Scheduler sequential: a task passes its budget on after this many measurements without "
     "improvement (0: never)",
     false);
  fn("share-cap", o.shareCap,
     "Scheduler dynatune: no task's upper confidence bound above its share of the model "
     "latency, and an untried task waits while a tried one is expected to save more than its "
     "share",
     false);
  fn("ucb-c", o.ucbC, "Scheduler dynatune: the UCB exploration constant C", false);
  fn("curve-reward", o.curveReward,
     "Scheduler dynatune: the reward from the tasks' Bayesian learning curves (the paper's), "
     "not from their measured spread",
     false);
  fn("task-early-stop", o.taskEarlyStop,
     "With a scheduler: a task is finished after this many measurements without improvement "
     "(DynaTune's finish rule; 0: never)",
     false);
  fn("survey-phi", o.surveyPhi,
     "Scheduler survey (Trimmer): stop once the model latency's rate of reduction per "
     "second changed by at most phi (Eq. 2; -0.25: slowed by a quarter)",
     false);
  fn("survey-printed-rule", o.surveyPrintedRule,
     "Scheduler survey: Eq. 2 as printed (a sum, which never stops while the model gets "
     "faster) instead of the difference it means",
     false);
  fn("entry", o.modelEntry,
     "The model's entry function: with scheduler survey the model is timed end to end (CPU: "
     "JIT; GPU: CUDA events) with the best configurations so far after each epoch, and the "
     "stop rule and latency-goal-ms use that latency; dltune tune also times it after tuning",
     false);
  fn("probe-share", o.probeShare,
     "Scheduler dynatune: an untried task's first slot is this share of a slot (1: a full "
     "slot, the paper's)",
     false);
  fn("seed", o.seed, "Random seed", false);
  fn("strategy", o.strategy, "Search strategy: random, grid, sa, evolutionary, bo", false);
  fn("cost-model", o.costModel,
     "Cost model of sa, evolutionary (default xgb) and bo (default rf): xgb, xgb-reg, rf, "
     "dgp, gp; "
     "refused for random and grid",
     false);
  fn("transfer", o.transfer,
     "Transfer learning: none, dm (reuse a model pretrained on history), map (adapt a "
     "pretrained deep GP), lms / nlms (shift the pretrained model by a linear map / random "
     "forest of its prediction) or gs (first measure configurations that vary the knobs a "
     "stepwise regression on history names; pretrains nothing); needs strategy sa or "
     "evolutionary",
     false);
  fn("history", o.history,
     "With transfer or cold-filter: comma-separated sources: db (this database: other tasks "
     "of the same "
     "op, and this task on other devices), other dltune databases (*.db, *.sqlite) and "
     "Kernel Tuner cache files",
     false);
  fn("cold-filter", o.coldFilter,
     "Trimmer's cold-candidate filter: off, nn (drop a proposal whose nearest measured "
     "candidates in a latency network's embedding were all cold or failed; cold: slower than "
     "cold-factor times the best before it) or trend (cold: above the LOESS trend)",
     false);
  fn("cold-factor", o.coldFactor,
     "With cold-filter: the factor over the best before (nn), and over their source's best "
     "for history rows",
     false);
  fn("tuning-set-explore", o.tuningSetExplore,
     "With transfer: share of the tuning set chosen by the pretrained model's mean + 2 sd "
     "among configurations differing from the rest of the set in two knobs (0: by the mean)",
     false);
  fn("tuning-set-rerank", o.tuningSetReRank,
     "With transfer=map: re-rank the rest of the tuning set with the adapted model every N "
     "measurements (0: the pretrained order, as in the paper)",
     false);
  fn("history-refresh", o.historyRefresh,
     "With transfer or cold-filter and a scheduler: build a task's transfer (and its cold "
     "filter's history) again once the database's history has grown this many times over "
     "since the last build (0: build once)",
     false);
  fn("plan-size", o.planSize,
     "Model-based strategies: fit after this many measurements, then refit and re-plan "
     "every this many",
     false);
  fn("jobs", o.jobs, "Parallel candidate builds", false);
  fn("build-timeout", o.buildTimeoutSeconds, "Wall-time limit of one build (s)", false);
  fn("run-timeout", o.runTimeoutSeconds, "Wall-time limit of one measurement (s)", false);
  fn("mem-limit-mb", o.memoryLimitMB, "Address-space limit of build and run workers (MiB)", false);
  fn("min-time-ms", o.minTimeMs, "Minimum measured time per candidate (ms)", false);
  fn("flush-caches", o.flushCaches,
     "Evict the caches before each timed call, untimed, as inside a model (CPU: a buffer "
     "twice the last-level cache written; GPU: twice L2 written on the timing stream); the "
     "records are kept under the device named '..., caches flushed'",
     false);
  fn("anchor-tolerance", o.anchorTolerance,
     "CPU tasks: time each candidate between runs of dltune's default config and count the "
     "time only when that anchor ran within this fraction of its fastest, waiting out the "
     "machine's slow phases (0: no anchor)",
     false);
  fn("worker", o.workerPath,
     "Path of the dltune executable that runs the workers (default: $DLTUNE_WORKER, "
     "dltune next to this executable, or on PATH)",
     false);
  fn("work-dir", o.workDir, "Where kernels and references go (default: <db>.work)", false);
  fn("quiet", o.progress, "No progress output", true);
  fn("confirm-top", o.confirmTop,
     "How many of the best candidates are re-measured at the end of a task", false);
  fn("confirm-repeats", o.confirmRepeats,
     "Most rounds of fresh-process re-measurement when confirming the best", false);
  fn("rtol", o.rtol, "Relative tolerance of the result check (negative: by element type)", false);
  fn("atol", o.atol, "Absolute tolerance of the result check (negative: by element type)", false);
  fn("chip", o.gpuChip,
     "GPU tasks: the chip to build for (sm_XY; default: the detected GPU, else sm_90)", false);
  fn("gpu-reference", o.gpuReference,
     "GPU tasks: the CPU reference candidates are checked against: scheduled (the CPU's "
     "default configuration on all cores; untuned where it fails to build) or untuned (the "
     "unscheduled loops on one thread)",
     false);
  fn("remeasure", o.remeasure,
     "Move this device's records of each task aside (kept in replaced_records) and "
     "measure again instead of resuming",
     false);
}

/// Checks what can be checked before any work: budgets and limits, the
/// target, and that the strategy exists and takes the cost model given (a
/// cost model for random or grid is refused rather than ignored).
inline llvm::Error validateTunerOptions(const ModuleTunerOptions &o) {
  auto bad = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  if (o.trials < 1)
    return bad("trials must be at least 1");
  if (llvm::Error e = Database::checkPath(o.dbPath))
    return e;
  // A path that a malformed pass option ran into ("db={oops trials=2").
  if (llvm::StringRef(o.dbPath).find_first_of("{}\"'\n") != llvm::StringRef::npos)
    return bad("database path '" + o.dbPath +
               "' contains a brace, a quote or a newline: a malformed option? (quote the "
               "whole option value, balance its braces)");
  // Every real-valued option: NaN and infinities are never meant.
  for (auto [name, value] : {std::pair<const char *, double>{"time-budget", o.timeBudgetSeconds},
                             {"latency-goal-ms", o.latencyGoalMs},
                             {"survey-phi", o.surveyPhi},
                             {"probe-share", o.probeShare},
                             {"ucb-c", o.ucbC},
                             {"build-timeout", o.buildTimeoutSeconds},
                             {"run-timeout", o.runTimeoutSeconds},
                             {"min-time-ms", o.minTimeMs},
                             {"rtol", o.rtol},
                             {"atol", o.atol},
                             {"anchor-tolerance", o.anchorTolerance}})
    if (!std::isfinite(value))
      return bad(llvm::Twine(name) + " must be a finite number, got " +
                 llvm::formatv("{0}", value).str());
  if (o.jobs > 1024 || o.planSize > (1u << 20))
    return bad("jobs must be at most 1024 and plan-size at most 1048576");
  if (o.buildTimeoutSeconds > 86400 || o.runTimeoutSeconds > 86400)
    return bad("build-timeout and run-timeout must be at most 86400 s");
  if (o.memoryLimitMB > (uint64_t(1) << 30))
    return bad("mem-limit-mb must be at most 2^30");
  if (o.confirmTop > 1000 || o.confirmRepeats > 1000)
    return bad("confirm-top and confirm-repeats must be at most 1000");
  if (o.target != "cpu" && o.target != "gpu")
    return bad("target must be cpu or gpu, got '" + o.target + "'");
  if (o.gpuReference != "scheduled" && o.gpuReference != "untuned")
    return bad("gpu-reference must be scheduled or untuned, got '" + o.gpuReference + "'");
  if (o.planSize < 1 || o.jobs < 1)
    return bad("plan-size and jobs must be at least 1");
  if (!(o.buildTimeoutSeconds > 0) || !(o.runTimeoutSeconds > 0) || o.memoryLimitMB < 1)
    return bad("build-timeout, run-timeout and mem-limit-mb must be positive");
  if (o.timeBudgetSeconds < 0 || o.minTimeMs < 0 || !(o.anchorTolerance >= 0))
    return bad("time-budget, min-time-ms and anchor-tolerance must not be negative");
  if (o.trialsPerTask < 0 || o.latencyGoalMs < 0 || o.slotTrials < 1 || o.earlyStop < 0)
    return bad("trials-per-task, latency-goal-ms and early-stop must not be negative, "
               "slot-trials must be at least 1");
  if (o.shareCap && o.scheduler != "dynatune")
    return bad("share-cap applies to scheduler dynatune only");
  if (!(o.probeShare > 0 && o.probeShare <= 1))
    return bad("probe-share must be in (0, 1]");
  if (o.probeShare != ModuleTunerOptions().probeShare && o.scheduler != "dynatune")
    return bad("probe-share applies to scheduler dynatune only");
  if (!(o.ucbC >= 0))
    return bad("ucb-c must not be negative");
  if ((o.ucbC != ModuleTunerOptions().ucbC || o.curveReward) && o.scheduler != "dynatune")
    return bad("ucb-c and curve-reward apply to scheduler dynatune only");
  if ((o.surveyPhi != ModuleTunerOptions().surveyPhi || o.surveyPrintedRule) &&
      o.scheduler != "survey")
    return bad("survey-phi and survey-printed-rule apply to scheduler survey only");
  if (o.taskEarlyStop < 0)
    return bad("task-early-stop must not be negative");
  if (o.taskEarlyStop > 0 && o.scheduler.empty())
    return bad("task-early-stop needs a scheduler (without one, each task spends its own "
               "budget)");
  if (!o.scheduler.empty()) {
    llvm::Expected<std::unique_ptr<TaskScheduler>> sched = createTaskScheduler(o.scheduler);
    if (!sched)
      return sched.takeError();
  }
  StrategyOptions probe;
  probe.costModel = o.costModel;
  probe.planSize = o.planSize;
  llvm::Expected<std::unique_ptr<SearchStrategy>> s = createSearchStrategy(o.strategy, probe);
  if (!s)
    return s.takeError();
  std::optional<ColdRule> coldRule;
  if (!parseColdFilter(o.coldFilter, coldRule))
    return bad("cold-filter must be off, nn or trend, got '" + o.coldFilter + "'");
  if (!(o.coldFactor > 1 && o.coldFactor < 1e6))
    return bad("cold-factor must be a number above 1, got " + llvm::formatv("{0}", o.coldFactor));
  std::optional<TransferMode> transfer = parseTransferMode(o.transfer);
  if (!transfer)
    return bad("transfer must be one of " + llvm::Twine(kKnownTransferModes) + ", got '" +
               o.transfer + "'");
  if (o.transfer != "none" && o.strategy != "sa" && o.strategy != "evolutionary")
    return bad("transfer=" + o.transfer + " needs strategy sa or evolutionary (the search "
               "that follows the tuning set), got '" + o.strategy + "'");
  if (o.transfer == "map" && !o.costModel.empty() && o.costModel != "dgp")
    return bad("transfer=map adapts a deep GP: cost-model must be dgp (or left out), got '" +
               o.costModel + "'");
  if (!(o.tuningSetExplore >= 0 && o.tuningSetExplore <= 1))
    return bad("tuning-set-explore is a share between 0 and 1, got " +
               llvm::formatv("{0}", o.tuningSetExplore).str());
  if (!(o.historyRefresh == 0 || (o.historyRefresh > 1 && o.historyRefresh < 1e6)))
    return bad("history-refresh must be 0 (off) or a factor above 1, got " +
               llvm::formatv("{0}", o.historyRefresh).str());
  if (o.tuningSetReRank < 0)
    return bad("tuning-set-rerank must be >= 0, got " + llvm::Twine(o.tuningSetReRank));
  if (o.tuningSetReRank > 0 && o.transfer != "map")
    return bad("tuning-set-rerank needs transfer=map, got '" + o.transfer + "'");
  // The pretrained model is cost-model (default dgp); dgp, gp and rf have
  // a variance.
  if (o.tuningSetExplore > 0 &&
      (o.transfer == "none" || o.transfer == "gs" ||
       (!o.costModel.empty() && o.costModel != "dgp" && o.costModel != "gp" &&
        o.costModel != "rf")))
    return bad("tuning-set-explore needs transfer with a pretrained model that has a variance "
               "(cost-model dgp, the default, gp or rf), got transfer=" + o.transfer +
               " cost-model='" + o.costModel + "'");
  if (o.transfer == "gs" && !o.costModel.empty())
    return bad("transfer=gs pretrains no model: leave cost-model out (its learner is xgb), "
               "got '" + o.costModel + "'");
  return llvm::Error::success();
}

/// The tuner options as llvm::cl options of some kind: `make(name, help,
/// default)` creates each one (a `dltune tune` flag, a pass option) and
/// returns it as a std::unique_ptr<llvm::cl::opt<T>>; getValues() reads them
/// back. Parsing, help and errors for unknown options and bad values are
/// llvm::cl's.
class TunerOptionSet {
public:
  template <typename Make> explicit TunerOptionSet(Make &&make) {
    ModuleTunerOptions defaults;
    forEachTunerOption(defaults,
                       [&](llvm::StringRef name, auto &field, llvm::StringRef help, bool negated) {
                         options.push_back(make(name, help, flip(field, negated)));
                       });
  }

  ModuleTunerOptions getValues() const {
    ModuleTunerOptions o;
    size_t i = 0;
    forEachTunerOption(o, [&](llvm::StringRef, auto &field, llvm::StringRef, bool negated) {
      using T = std::decay_t<decltype(field)>;
      field = flip(static_cast<const llvm::cl::opt<T> &>(*options[i++]).getValue(), negated);
    });
    return o;
  }

  /// The names of the options given on the command line.
  std::vector<std::string> getGivenNames() const {
    std::vector<std::string> names;
    ModuleTunerOptions o;
    size_t i = 0;
    forEachTunerOption(o, [&](llvm::StringRef name, auto &, llvm::StringRef, bool) {
      if (options[i++]->getNumOccurrences() > 0)
        names.push_back(name.str());
    });
    return names;
  }

  void setValues(ModuleTunerOptions o) {
    size_t i = 0;
    forEachTunerOption(o, [&](llvm::StringRef, auto &field, llvm::StringRef, bool negated) {
      using T = std::decay_t<decltype(field)>;
      static_cast<llvm::cl::opt<T> &>(*options[i++]).setValue(flip(field, negated));
    });
  }

private:
  template <typename T> static T flip(const T &value, bool negated) {
    if constexpr (std::is_same_v<T, bool>)
      return negated ? !value : value;
    return value;
  }

  std::vector<std::unique_ptr<llvm::cl::Option>> options;
};

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_TUNEROPTIONS_H
