//===- ProgressPrinter.cpp - Measure callback that shows progress ---------===//

#include "dltune/Execution/ProgressPrinter.h"

#include "llvm/Support/FormatVariadic.h"

#include <unistd.h>

using namespace mlir::dltune;

ProgressPrinter::ProgressPrinter(std::string label, double flops, int64_t previous,
                                 llvm::raw_ostream &log)
    : label(std::move(label)), flops(flops), previous(previous), log(log),
      live(log.is_displayed()) {}

void ProgressPrinter::onResult(const Config &, const MeasureRecord &r,
                               const TuningProgress &p) {
  std::string best = "-";
  if (p.best)
    best = llvm::formatv("{0:f4} ms ({1:f1} GFLOP/s)", p.bestMs, flops / (p.bestMs * 1e6)).str();
  double eta =
      p.trialsDone ? p.elapsedSeconds / p.trialsDone * (p.trialsBudget - p.trialsDone) : 0;
  if (live) {
    log << llvm::formatv("\r\033[K{0}: {1}/{2} best {3} failed {4} ETA {5:f0} s", label,
                         previous + p.trialsDone, previous + p.trialsBudget, best, p.failures,
                         eta);
  } else {
    std::string what =
        r.isOk() ? llvm::formatv("{0:f4} ms{1}", r.timeMs, r.noisy ? " (noisy)" : "").str()
                 : toString(r.status).str();
    log << llvm::formatv("{0}: trial {1}/{2} {3}: {4}; best {5}\n", label,
                         previous + p.trialsDone, previous + p.trialsBudget, r.config, what,
                         best);
  }
  log.flush();
}

void ProgressPrinter::onFinish(const TuningProgress &) {
  if (live)
    log << "\n";
}
