//===- ReplayCommand.cpp - dltune replay ----------------------------------===//
//
//   dltune replay --dataset FILE [--strategy random] [--trials N] [--seeds K]
//                 [--time-budget S] [--stochastic] [--report OUT.csv]
//
// Runs the tuning loop the autotune pass runs, with a ReplayMeasurer that
// answers from a Kernel Tuner cache: how search strategies (and later cost
// models and schedulers) are developed and compared without the hardware.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Tuning/ReplayMeasurer.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>

using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand replayCmd("replay", "Tune on a recorded search space (Kernel Tuner cache)");
static cl::opt<std::string> dataset("dataset", cl::desc("Kernel Tuner cache (.json or .json.gz)"),
                                    cl::Required, cl::sub(replayCmd));
static cl::opt<std::string> strategyName("strategy", cl::desc("Search strategy"),
                                         cl::init("random"), cl::sub(replayCmd));
static cl::opt<int64_t> trials("trials", cl::desc("Measurements per seed"),
                               cl::init(100), cl::sub(replayCmd));
static cl::opt<int> seeds("seeds", cl::desc("Independent runs (seeds 0..K-1)"),
                          cl::init(1), cl::sub(replayCmd));
static cl::opt<double> timeBudget("time-budget",
                                  cl::desc("Simulated seconds per seed (0: none)"),
                                  cl::init(0), cl::sub(replayCmd));
static cl::opt<bool> stochastic("stochastic",
                                cl::desc("Answer with a random recorded repeat, not the mean"),
                                cl::sub(replayCmd));
static cl::opt<std::string> report("report", cl::desc("CSV with one row per measurement"),
                                   cl::sub(replayCmd));

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
      *out << llvm::formatv("{0:g}", r.timeMs).str();
    *out << ",";
    if (p.best)
      *out << llvm::formatv("{0:g}", p.bestMs).str();
    *out << "," << llvm::formatv("{0:g}", optimum).str() << ","
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
  llvm::Expected<KernelTunerCache> cache = KernelTunerCache::load(dataset);
  if (!cache)
    return fail(llvm::toString(cache.takeError()));
  SearchSpace space = cache->getSpace();
  double optimum = cache->getOptimumMs();
  std::ofstream file;
  std::ostream *out = nullptr;
  if (!report.empty()) {
    file.open(report);
    if (!file)
      return fail("cannot write '" + report + "'");
    file << "seed,trial,config,time_ms,best_time_ms,optimum_ms,sim_clock_s,status\n";
    out = &file;
  }
  llvm::outs() << llvm::formatv("{0} on {1}: {2} recorded configurations, optimum {3:g} ms\n",
                                cache->kernelName, cache->deviceName,
                                cache->entries.size(), optimum);
  for (int seed = 0; seed < seeds; ++seed) {
    llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
        createSearchStrategy(strategyName);
    if (!strategy)
      return fail(llvm::toString(strategy.takeError()));
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
        "seed {0}: {1} measurements ({2} failed), best {3:g} ms = {4:f3}x optimum, "
        "simulated {5:f1} s\n",
        seed, p.trialsDone, p.failures, p.bestMs, optimum / p.bestMs, p.elapsedSeconds);
  }
  return 0;
}

} // namespace dltune_tool
