//===- ProgressPrinter.cpp - Tuning events as terminal output -------------===//

#include "dltune/Execution/ProgressPrinter.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir::dltune;

ProgressPrinter::ProgressPrinter(llvm::raw_ostream &log, bool showProgress)
    : log(log), showProgress(showProgress), live(log.is_displayed()) {}

void ProgressPrinter::endLiveLine() {
  if (lineOpen)
    log << "\n";
  lineOpen = false;
}

void ProgressPrinter::print(const TuningEvent &e) {
  using Kind = TuningEvent::Kind;
  switch (e.kind) {
  case Kind::TaskStarted:
    return;
  case Kind::Note:
    if (!showProgress)
      return;
    endLiveLine();
    log << e.getLabel() << ": " << e.message << "\n";
    break;
  case Kind::Warning:
    endLiveLine();
    log << "dltune: warning: " << e.getLabel() << ": " << e.message << "\n";
    break;
  case Kind::TaskFailed:
    endLiveLine();
    log << "dltune: error: " << e.getLabel() << ": not tuned: " << e.message << "\n";
    break;
  case Kind::TaskFinished:
    endLiveLine();
    return;
  case Kind::CostModelFitted:
  case Kind::CostModelProposed:
    return;
  case Kind::CostModelFailed:
    endLiveLine();
    log << "dltune: warning: cost model: " << e.message
        << " (proposing at random until the next fit)\n";
    return;
  case Kind::ModelTimed:
    endLiveLine();
    if (!e.message.empty()) {
      log << "dltune: warning: model: the end-to-end timing failed (" << e.message
          << "); the run goes on with the sum of task latencies\n";
      return;
    }
    if (showProgress)
      log << llvm::formatv("model: timed end to end {0:f3} ms (sum of its tasks {1:f3} ms), "
                           "{2} measurements, {3:f1} s\n",
                           e.timedModelLatencyMs, e.modelLatencyMs, e.modelTrialsDone,
                           e.modelSeconds);
    return;
  case Kind::ModelFinished:
    if (!showProgress)
      return;
    endLiveLine();
    log << "model: tuning stopped: " << e.message << "\n";
    return;
  case Kind::Measured: {
    if (!showProgress || !e.progress || !e.record)
      return;
    const TuningProgress &p = *e.progress;
    const MeasureRecord &r = *e.record;
    std::string best = "-";
    if (p.best)
      best = llvm::formatv("{0:f4} ms ({1:f1} GFLOP/s)", p.bestMs, e.taskFlops / (p.bestMs * 1e6))
                 .str();
    double eta =
        p.trialsDone ? p.elapsedSeconds / p.trialsDone * (p.trialsBudget - p.trialsDone) : 0;
    int64_t previous = e.previousTrials;
    bool model = !std::isnan(e.modelLatencyMs);
    std::string what =
        r.isOk() ? llvm::formatv("{0:f4} ms{1}", r.timeMs, r.noisy ? " (noisy)" : "").str()
                 : toString(r.status).str();
    if (model && live) {
      // One model budget: the model's latency leads, then the task in hand.
      double modelEta = e.modelTrialsDone ? e.modelSeconds / e.modelTrialsDone *
                                                (e.modelTrialsBudget - e.modelTrialsDone)
                                          : 0;
      log << llvm::formatv("\r\033[Kmodel {0:f3} ms (untuned {1:f3}) {2}/{3} ETA {4:f0} s | "
                           "{5}: best {6}",
                           e.modelLatencyMs, e.untunedModelLatencyMs, e.modelTrialsDone,
                           e.modelTrialsBudget, modelEta, e.getLabel(), best);
      lineOpen = true;
    } else if (live) {
      log << llvm::formatv("\r\033[K{0}: {1}/{2} best {3} failed {4} ETA {5:f0} s", e.getLabel(),
                           previous + p.trialsDone, previous + p.trialsBudget, best, p.failures,
                           eta);
      lineOpen = true;
    } else if (model) {
      log << llvm::formatv("model trial {0}/{1}: {2} {3}: {4}; task best {5}; model {6:f3} ms "
                           "(untuned {7:f3})\n",
                           e.modelTrialsDone, e.modelTrialsBudget, e.getLabel(), r.config, what,
                           best, e.modelLatencyMs, e.untunedModelLatencyMs);
    } else {
      log << llvm::formatv("{0}: trial {1}/{2} {3}: {4}; best {5}\n", e.getLabel(),
                           previous + p.trialsDone, previous + p.trialsBudget, r.config, what,
                           best);
    }
    break;
  }
  }
  log.flush();
}
