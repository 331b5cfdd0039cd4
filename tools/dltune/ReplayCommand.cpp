//===- ReplayCommand.cpp - dltune replay ----------------------------------===//
//
//   dltune replay --dataset FILE [--strategy random] [--cost-model M]
//                 [--plan-size P] [--first-fit F] [--trials N] [--seeds K]
//                 [--time-budget S] [--stochastic] [--report OUT.csv]
//                 [--history FILE[,FILE...] --transfer none|dm|map|lms|nlms|gs
//                  [--tuning-set T] [--prior-strength S] [--adapt-iterations N]
//                  [--transfer-fallback M] [--pretrained-cache DIR]
//                  [--pretrain-iterations N] [--dgp-inducing M] [--dgp-hidden H]]
//
// Runs the tuning loop the autotune pass runs, with a ReplayMeasurer that
// answers from a Kernel Tuner cache: how search strategies (and later cost
// models and schedulers) are developed and compared without the hardware.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "ReplayOptions.h"

#include "dltune/Tuning/GaussianProcess/DeepGaussianProcess.h"
#include "dltune/Tuning/Transfer/GuidedSampling.h"
#include "dltune/Tuning/Transfer/PretrainedModel.h"
#include "dltune/Tuning/Replay/ReplayMeasurer.h"
#include "dltune/Tuning/Replay/SimulatedWorkers.h"
#include "dltune/Tuning/SearchStrategy/ColdCandidateFilter.h"
#include "dltune/Tuning/Transfer/TransferSearch.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cerrno>
#include <cstring>
#include <fstream>

using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand replayCmd("replay", "Tune on a recorded search space (Kernel Tuner cache)");
// Defined here, not in ReplayModelCommand.cpp: the shared options below
// name it, and static constructors run in order only within one file.
cl::SubCommand replayModelCmd("replay-model",
                              "Tune a model of recorded tasks under one budget with a task scheduler");
static cl::opt<std::string> dataset("dataset", cl::desc("Kernel Tuner cache (.json or .json.gz)"),
                                    cl::Required, cl::sub(replayCmd));
static cl::opt<std::string> strategyName("strategy", cl::desc("Search strategy"),
                                         cl::init("random"), cl::sub(replayCmd));
static cl::opt<int> simulatedWorkers(
    "workers",
    cl::desc("Simulate this many workers of a study sharing the task (claims, shared results, "
             "one budget; docs/distributed.md), on simulated clocks"),
    cl::init(0), cl::sub(replayCmd));
static cl::opt<unsigned> workerBatch("worker-batch",
                                     cl::desc("--workers: configurations each worker measures "
                                              "per batch"),
                                     cl::init(1), cl::sub(replayCmd));
// Options both replay commands take (declared in ReplayOptions.h).
cl::opt<std::string>
    costModel("cost-model",
              cl::desc("Cost model of sa, evolutionary (default xgb) and bo (default rf): "
                       "xgb, xgb-reg, rf, dgp, gp; refused for random and grid"),
              cl::sub(replayCmd), cl::sub(replayModelCmd));
cl::opt<unsigned>
    planSize("plan-size",
             cl::desc("Model-based strategies: refit and re-plan every this many measurements"),
             cl::init(64), cl::sub(replayCmd), cl::sub(replayModelCmd));
cl::opt<unsigned>
    firstFit("first-fit",
             cl::desc("Measurements before the first model fit (AutoTVM: the plan size; at most "
                      "--plan-size)"),
             cl::init(64), cl::sub(replayCmd), cl::sub(replayModelCmd));
static cl::opt<int64_t> trials("trials", cl::desc("Measurements per seed"),
                               cl::init(100), cl::sub(replayCmd));
cl::opt<int> seeds("seeds", cl::desc("Independent runs (seeds 0..K-1)"), cl::init(1),
                   cl::sub(replayCmd), cl::sub(replayModelCmd));
cl::opt<double> timeBudget("time-budget", cl::desc("Simulated seconds per seed (0: none)"),
                           cl::init(0), cl::sub(replayCmd), cl::sub(replayModelCmd));
cl::opt<bool> stochastic("stochastic",
                         cl::desc("Answer with a random recorded repeat, not the mean"),
                         cl::sub(replayCmd), cl::sub(replayModelCmd));
cl::opt<std::string> report("report", cl::desc("CSV with one row per measurement"),
                            cl::sub(replayCmd), cl::sub(replayModelCmd));

static cl::opt<std::string>
    historyFiles("history",
                 cl::desc("Recorded spaces of the same kernel on other devices (comma-separated), "
                          "for --transfer and --cold-filter (which pretrains its network on "
                          "them and takes them as neighbours)"),
                 cl::sub(replayCmd));
static cl::opt<std::string>
    transferMode("transfer",
                 cl::desc("none; dm (the pretrained model picks the tuning set, target-only "
                          "refits); map (MAP-adapted deep GP); lms / nlms (the pretrained "
                          "model shifted by a linear map / 16-tree forest of its prediction); "
                          "map, lms and nlms under the negative-transfer guard; gs (guided "
                          "sampling: the tuning set varies the knobs a stepwise regression on "
                          "the history names, then target-only refits; no pretrained model)"),
                 cl::init("none"), cl::sub(replayCmd));
static cl::opt<int64_t>
    tuningSetSize("tuning-set",
                  cl::desc("Transfer: configurations measured first in the pretrained model's "
                           "order, or gs's guided samples (default min(300, trials / 4))"),
                  cl::init(-1), cl::sub(replayCmd));
static cl::opt<int64_t> tuningSetReRank(
    "tuning-set-rerank",
    cl::desc("Transfer map: re-rank the rest of the tuning set with the transfer "
             "model fitted on the target rows every N measurements (0: the paper's fixed order)"),
    cl::init(0), cl::sub(replayCmd));
static cl::opt<double> tuningSetExplore(
    "tuning-set-explore",
    cl::desc("Transfer: share of the tuning set chosen by the model's upper bound (mean + 2 sd, "
             "models with a variance) among configurations that differ from the rest of the "
             "set in at least two knobs, rather than by the mean (0: none)"),
    cl::init(0), cl::sub(replayCmd));
static cl::opt<double>
    priorStrength("prior-strength",
                  cl::desc("map: precision of the prior on the pretrained parameters (0: chosen "
                           "by held-out likelihood among 0.1, 1, 10, 100)"),
                  cl::init(0), cl::sub(replayCmd));
static cl::opt<int> adaptIterations("adapt-iterations",
                                    cl::desc("map: Adam steps of the first MAP adaptation"),
                                    cl::init(300), cl::sub(replayCmd));
static cl::opt<int> refitIterations(
    "refit-iterations",
    cl::desc("map: Adam steps of each later adaptation, which starts from an earlier one (0: "
             "adapt-iterations / 4)"),
    cl::init(0), cl::sub(replayCmd));
static cl::opt<int>
    pretrainIterations("pretrain-iterations",
                       cl::desc("Transfer with dgp: Adam steps of pretraining (0: the default, 2000)"),
                       cl::init(0), cl::sub(replayCmd));
static cl::opt<int> dgpInducing("dgp-inducing",
                                cl::desc("Transfer with dgp: inducing points (0: the default, 100)"),
                                cl::init(0), cl::sub(replayCmd));
static cl::opt<int> dgpHidden("dgp-hidden",
                              cl::desc("Transfer with dgp: inner layer width (0: min(features, 30))"),
                              cl::init(0), cl::sub(replayCmd));
static cl::opt<std::string>
    transferFallback("transfer-fallback",
                     cl::desc("Target-only model of dm and gs, and of the guard's fallback"),
                     cl::init("xgb"), cl::sub(replayCmd));
static cl::opt<std::string>
    pretrainedCache("pretrained-cache",
                    cl::desc("Directory of pretrained models, reused across runs by history hash"),
                    cl::sub(replayCmd));

cl::opt<std::string>
    coldFilter("cold-filter",
               cl::desc("Trimmer's cold-candidate filter: off, nn (cold: slower than "
                        "--cold-factor times the best before it) or trend (cold: above the "
                        "LOESS trend)"),
               cl::init("off"), cl::sub(replayCmd), cl::sub(replayModelCmd));
cl::opt<double> coldFactor("cold-factor",
                           cl::desc("With --cold-filter nn: the factor over the best"),
                           cl::init(ColdFilterOptions().coldFactor), cl::sub(replayCmd),
                           cl::sub(replayModelCmd));

int closeReport(std::ofstream &file) {
  if (!file.is_open())
    return 0;
  file.close();
  // A full disk or /dev/full: the report is not what it claims to be.
  if (!file)
    return fail("cannot write '" + report + "': " + std::strerror(errno ? errno : EIO));
  return 0;
}

bool openReport(std::ofstream &file, std::ostream *&out, const char *header) {
  out = nullptr;
  if (report.empty())
    return true;
  file.open(report);
  if (!file)
    return false;
  file << header << "\n";
  out = &file;
  return true;
}

namespace {
/// Writes `seed,trial,config,time_ms,best_time_ms,optimum_ms,sim_clock_s,status`.
class ReportWriter : public MeasureCallback {
public:
  ReportWriter(std::ostream *out, int seed, double optimum, const Measurer &m)
      : out(out), seed(seed), optimum(optimum), measurer(m) {}
  void onResult(const Config &, const MeasureRecord &r, const TuningProgress &p) override {
    if (!out)
      return;
    *out << seed << "," << p.trialsDone << ",\"" << r.config << "\",";
    if (r.isOk())
      *out << formatNumber(r.timeMs);
    *out << ",";
    if (p.best)
      *out << formatNumber(p.bestMs);
    *out << "," << formatNumber(optimum) << ","
         << llvm::formatv("{0:f3}", measurer.getClockSeconds()).str() << ","
         << toString(r.status).str() << "\n";
  }

private:
  std::ostream *out;
  int seed;
  double optimum;
  const Measurer &measurer;
};
} // namespace

int replayCommand() {
  if (trials < 1)
    return fail("--trials must be at least 1");
  if (seeds < 1)
    return fail("--seeds must be at least 1");
  if (planSize < 1 || firstFit < 1)
    return fail("--plan-size and --first-fit must be at least 1");
  if (!(tuningSetExplore >= 0 && tuningSetExplore <= 1))
    return fail("--tuning-set-explore is a share between 0 and 1");
  if (tuningSetReRank < 0)
    return fail("--tuning-set-rerank must be at least 0");
  if ((tuningSetExplore > 0 || tuningSetReRank > 0) && transferMode == "none")
    return fail("--tuning-set-explore and --tuning-set-rerank need --transfer");
  if (tuningSetReRank > 0 && transferMode != "map")
    return fail("--tuning-set-rerank needs --transfer map (the other modes do not change the "
                "pretrained order)");
  llvm::Expected<KernelTunerCache> cache = KernelTunerCache::load(dataset);
  if (!cache)
    return fail(llvm::toString(cache.takeError()));
  SearchSpace space = cache->getSpace();
  double optimum = cache->getOptimumMs();
  std::ofstream file;
  std::ostream *out = nullptr;
  if (!openReport(file, out, "seed,trial,config,time_ms,best_time_ms,optimum_ms,sim_clock_s,status"))
    return fail("cannot write '" + report + "'");
  llvm::outs() << cache->kernelName << " on " << cache->deviceName << ": "
               << cache->entries.size() << " recorded configurations, optimum "
               << formatNumber(optimum) << " ms\n";

  std::optional<ColdRule> coldRule;
  if (!parseColdFilter(coldFilter, coldRule))
    return fail("--cold-filter must be off, nn or trend, got '" + coldFilter + "'");
  if (!(coldFactor > 1 && coldFactor < 1e6))
    return fail("--cold-factor must be a number above 1, got " + formatNumber(coldFactor));
  std::optional<TransferMode> mode = parseTransferMode(transferMode);
  if (!mode)
    return fail("unknown --transfer '" + transferMode + "' (known: " + kKnownTransferModes +
                ")");
  if (*mode != TransferMode::None && historyFiles.empty())
    return fail("--transfer " + transferMode + " needs --history FILE[,FILE...]");
  if (*mode == TransferMode::None && !coldRule && !historyFiles.empty())
    return fail("--history is used only with --transfer or --cold-filter");
  // Checked before pretraining, which takes a while (the library checks too).
  if (*mode != TransferMode::None && strategyName != "sa" && strategyName != "evolutionary")
    return fail("transfer needs the model-based strategy sa or evolutionary, not '" +
                strategyName + "'");
  if (*mode == TransferMode::Map && !costModel.empty() && costModel != "dgp")
    return fail("transfer 'map' adapts a deep GP: use --cost-model dgp, not '" + costModel + "'");
  if (*mode == TransferMode::GuidedSampling && !costModel.empty())
    return fail("transfer 'gs' pretrains no model: leave --cost-model out (its learner is "
                "--transfer-fallback)");
  if (adaptIterations < 1 || refitIterations < 0 || priorStrength < 0)
    return fail("--adapt-iterations must be at least 1, --refit-iterations and "
                "--prior-strength at least 0");
  std::shared_ptr<const FeatureExtractor> features = createKnobFeatureExtractor(space);
  std::shared_ptr<const CostModel> pretrained;
  std::shared_ptr<const StepwiseRegression> guide;
  std::shared_ptr<const std::vector<ColdFilterPrior>> coldPrior;
  std::vector<std::string> names;
  std::vector<KernelTunerCache> historySources;
  if (!historyFiles.empty()) {
    llvm::Expected<std::vector<KernelTunerCache>> loaded =
        KernelTunerCache::loadList(historyFiles, names);
    if (!loaded)
      return fail(llvm::toString(loaded.takeError()));
    historySources = std::move(*loaded);
  }
  if (coldRule && !historySources.empty()) {
    std::vector<std::string> notes;
    llvm::Expected<std::vector<ColdFilterPrior>> prior =
        buildColdFilterPrior(historySources, names, cache->knobs, notes);
    if (!prior)
      return fail(llvm::toString(prior.takeError()));
    for (const std::string &note : notes)
      llvm::outs() << "note: " << note << "\n";
    llvm::outs() << "cold filter: history of " << prior->size()
                 << " recorded configurations of " << historySources.size() << " device(s)\n";
    coldPrior = std::make_shared<const std::vector<ColdFilterPrior>>(std::move(*prior));
  }
  if (*mode != TransferMode::None) {
    std::vector<std::string> notes;
    if (*mode == TransferMode::GuidedSampling) {
      llvm::Expected<StepwiseRegression> regression =
          fitGuidedSamplingRegression(historySources, names, cache->knobs, notes);
      if (!regression)
        return fail(llvm::toString(regression.takeError()));
      for (const std::string &note : notes)
        llvm::outs() << "note: " << note << "\n";
      llvm::outs() << llvm::formatv("guided sampling: stepwise regression on {0} recorded "
                                    "configurations of {1} device(s), R^2 {2:f3}, terms: {3}\n",
                                    regression->rows, historySources.size(), regression->rSquared,
                                    regression->formatTerms(cache->knobs));
      guide = std::make_shared<const StepwiseRegression>(std::move(*regression));
    } else {
      llvm::Expected<PretrainingSet> set =
          buildPretrainingSet(historySources, names, cache->knobs, *features, notes);
      if (!set)
        return fail(llvm::toString(set.takeError()));
      for (const std::string &note : notes)
        llvm::outs() << "note: " << note << "\n";
      DeepGPOptions dgpOptions;
      if (pretrainIterations > 0)
        dgpOptions.iterations = pretrainIterations;
      if (dgpInducing > 0)
        dgpOptions.inducingPoints = dgpInducing;
      dgpOptions.hiddenDims = dgpHidden;
      std::string modelName = costModel.empty() ? std::string("dgp") : std::string(costModel);
      llvm::Expected<PretrainedModel> model =
          getPretrainedModel(modelName, *set, /*seed=*/0, pretrainedCache, dgpOptions);
      if (!model)
        return fail(llvm::toString(model.takeError()));
      llvm::outs() << llvm::formatv(
          "pretrained {0} on {1} recorded configurations of {2} device(s): {3}\n", modelName,
          set->labels.size(), historySources.size(),
          model->reused ? std::string("reused from the cache")
                        : llvm::formatv("{0:f1} s", model->trainSeconds).str());
      pretrained = model->model;
    }
  }
  if (simulatedWorkers.getNumOccurrences()) {
    if (simulatedWorkers < 1 || simulatedWorkers > 4096)
      return fail("--workers must be between 1 and 4096");
    if (workerBatch < 1)
      return fail("--worker-batch must be at least 1");
    if (*mode != TransferMode::None || coldRule || timeBudget > 0 || !report.empty())
      return fail("--workers simulates plain search: not with --transfer, --cold-filter, "
                  "--time-budget or --report");
    for (int seed = 0; seed < seeds; ++seed) {
      std::string error;
      auto make = [&](int) -> std::unique_ptr<SearchStrategy> {
        StrategyOptions so;
        so.costModel = costModel;
        so.planSize = planSize;
        so.firstFit = firstFit;
        so.features = features;
        llvm::Expected<std::unique_ptr<SearchStrategy>> s = createSearchStrategy(strategyName, so);
        if (!s) {
          error = llvm::toString(s.takeError());
          return llvm::cantFail(createSearchStrategy("random"));
        }
        return std::move(*s);
      };
      SimulatedWorkersOptions wo;
      wo.workers = simulatedWorkers;
      wo.trials = trials;
      wo.batchSize = workerBatch;
      wo.seed = seed;
      wo.stochastic = stochastic;
      SimulatedWorkersRun run = simulateWorkers(*cache, make, wo);
      if (!error.empty())
        return fail(error);
      auto at = [&](double factor) {
        double t = run.secondsToReach(optimum, factor);
        if (std::isnan(t))
          return std::string("never");
        return llvm::formatv("{0:f1} s after {1} measurements", t,
                             run.measurementsToReach(optimum, factor))
            .str();
      };
      llvm::outs() << llvm::formatv("seed {0}: {1} workers, {2} measurements, best = {3:f3}x "
                                    "optimum, simulated wall {4:f1} s; 95% of the optimum at "
                                    "{5}; 99% at {6}; {7} proposals skipped as claimed\n",
                                    seed, simulatedWorkers.getValue(), run.results.size(),
                                    optimum / run.bestMs(), run.wallSeconds, at(0.95), at(0.99),
                                    run.skippedClaims);
    }
    return 0;
  }
  size_t tuningSet = tuningSetSize >= 0 ? static_cast<size_t>(tuningSetSize)
                                        : std::min<size_t>(300, trials / 4);
  for (int seed = 0; seed < seeds; ++seed) {
    CliStrategyObserver observer;
    StrategyOptions so;
    so.costModel = costModel;
    so.planSize = planSize;
    so.firstFit = firstFit;
    so.observer = &observer;
    so.features = features;
    auto log = std::make_shared<TransferLog>();
    llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
        createSearchStrategy(strategyName, so);
    if (strategy && *mode != TransferMode::None) {
      TransferSearchOptions transferOptions;
      transferOptions.innerStrategy = strategyName;
      transferOptions.inner = so;
      transferOptions.transfer.mode = *mode;
      transferOptions.transfer.priorStrength = priorStrength;
      transferOptions.transfer.adaptIterations = adaptIterations;
      transferOptions.transfer.refitIterations = refitIterations;
      transferOptions.transfer.targetOnlyModel = transferFallback;
      transferOptions.tuningSetSize = tuningSet;
      transferOptions.reRankEvery = static_cast<size_t>(tuningSetReRank.getValue());
      transferOptions.exploreShare = tuningSetExplore;
      transferOptions.guidedSampling = guide;
      strategy = createTransferSearch(pretrained, transferOptions, log);
    }
    if (!strategy)
      return fail(llvm::toString(strategy.takeError()));
    auto coldStats = std::make_shared<ColdFilterStats>();
    strategy = applyColdFilter(std::move(*strategy), coldRule, coldFactor, coldStats, coldPrior);
    ReplayMeasurer measurer(*cache, stochastic, /*seed=*/1000 + seed);
    ReportWriter writer(out, seed, optimum, measurer);
    TuningHistory history;
    TuningOptions options;
    options.trials = trials;
    options.timeBudgetSeconds = timeBudget;
    options.seed = seed;
    MeasureCallback *callbacks[] = {&writer};
    TuningProgress p = runTuningLoop(space, **strategy, measurer, history, callbacks, options);
    llvm::outs() << llvm::formatv(
        "seed {0}: {1} measurements ({2} failed), best {3} ms = {4:f3}x optimum, "
        "simulated {5:f1} s",
        seed, p.trialsDone, p.failures, formatNumber(p.bestMs), optimum / p.bestMs, p.elapsedSeconds);
    if (observer.fits)
      llvm::outs() << llvm::formatv(", {0} model fits, {1} proposals from the model", observer.fits,
                                    observer.proposals);
    if (coldRule)
      llvm::outs() << llvm::formatv(", cold filter dropped {0} of {1} proposals ({2} trainings)",
                                    coldStats->dropped, coldStats->proposed,
                                    coldStats->trainings);
    llvm::outs() << "\n";
    for (const TransferDecision &d : *log) {
      llvm::outs() << llvm::formatv("  transfer decision on {0} rows: {1}", d.rows,
                                    d.usedTransfer ? "transferred model" : "target-only model");
      if (!std::isnan(d.transferRho)) {
        llvm::outs() << llvm::formatv(" (held-out Spearman transfer {0:f3}, target-only {1:f3}",
                                      d.transferRho, d.targetOnlyRho);
        if (d.priorStrength > 0)
          llvm::outs() << llvm::formatv(", prior strength {0}", d.priorStrength);
        llvm::outs() << ")";
      }
      llvm::outs() << ": " << d.reason;
      if (!std::isnan(d.seconds))
        llvm::outs() << llvm::formatv(" [{0:f1} s]", d.seconds);
      llvm::outs() << "\n";
    }
  }
  return closeReport(file);
}

} // namespace dltune_tool
