//===- ProgressPrinter.h - Tuning events as terminal output -----*- C++ -*-===//
//
// What the CLI and the pass show of tuneModule's events: a live line
// (trials, best so far, failures, ETA) when the stream is a terminal, one
// plain line per result otherwise (logs, tests); notes when progress is
// wanted; warnings and failed tasks always.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_PROGRESSPRINTER_H
#define DLTUNE_EXECUTION_PROGRESSPRINTER_H

#include "dltune/Execution/TuningEvents.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::dltune {

class ProgressPrinter {
public:
  /// `showProgress` false: only warnings and failed tasks.
  ProgressPrinter(llvm::raw_ostream &log, bool showProgress);
  void print(const TuningEvent &event);
  /// A callback for tuneModule that prints to this printer; it must
  /// outlive the call.
  TuningEventCallback asCallback() {
    return [this](const TuningEvent &e) { print(e); };
  }

private:
  /// Ends a pending live line so that the next text starts on its own.
  void endLiveLine();

  llvm::raw_ostream &log;
  bool showProgress;
  bool live;
  bool lineOpen = false;
};

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_PROGRESSPRINTER_H
