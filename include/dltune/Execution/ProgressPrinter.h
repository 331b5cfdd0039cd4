//===- ProgressPrinter.h - Measure callback that shows progress -*- C++ -*-===//
//
// A live line (trials, best so far, failures, ETA) when the stream is a
// terminal, one plain line per result otherwise (logs, tests).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_PROGRESSPRINTER_H
#define DLTUNE_EXECUTION_PROGRESSPRINTER_H

#include "dltune/Tuning/TuningLoop.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::dltune {

class ProgressPrinter : public MeasureCallback {
public:
  /// `previous`: measurements of the task before this run (resumed).
  ProgressPrinter(std::string label, double flops, int64_t previous, llvm::raw_ostream &log);
  void onResult(const Config &config, const MeasureRecord &record,
                const TuningProgress &progress) override;
  void onFinish(const TuningProgress &progress) override;

private:
  std::string label;
  double flops;
  int64_t previous;
  llvm::raw_ostream &log;
  bool live;
};

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_PROGRESSPRINTER_H
