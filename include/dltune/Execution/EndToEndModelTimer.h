//===- EndToEndModelTimer.h - A model's latency as a user gets it -*- C++ -*-===//
//
// Survey tuning (Trimmer, Section IV-C) stops on the model's real latency,
// not the sum of its tasks': after each epoch the whole model is compiled
// with every task's best configuration so far and timed end to end. This
// timer does that in the tuning process, through the same JIT as
// `dltune run`: it sets each task's best configuration so far (as the
// database would pick it unconfirmed; its untuned one before any) on the
// task's ops of the payload module, compiles a copy, puts the ops' own
// configurations back and times the entry function. On the GPU the copy
// is lowered with --dltune-lower-gpu and its launches are timed with CUDA
// events, as `dltune run --target gpu` times them.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_ENDTOENDMODELTIMER_H
#define DLTUNE_EXECUTION_ENDTOENDMODELTIMER_H

#include "dltune/Tuning/TaskScheduler/MultiTaskTuner.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dltune {

/// How the model is timed: hot (as a model runs call after call) unless
/// `flushCaches`, and unchecked (every configuration set was checked when it
/// was measured).
struct ModelTimingOptions {
  int warmupCalls = 2;
  /// Each sample is enough back-to-back calls to last this long, so that a
  /// model of microseconds is timed as steadily as one of milliseconds.
  double minSampleMs = 2;
  int samples = 10; // the latency is their median per call
  /// cpu (JIT) or gpu (CUDA driver; `gpuChip` empty: the driver's GPU).
  std::string target = "cpu";
  std::string gpuChip;
  /// Each call starts with the caches flushed (the tuner's flush-caches):
  /// on the CPU every sample is then one call.
  bool flushCaches = false;
};

class EndToEndModelTimer : public ModelTimer {
public:
  /// `opsOfTask[i]` are the payload ops of the model's task i (in the order
  /// of the ModelTasks timeModel gets); `module` must outlive the timer.
  EndToEndModelTimer(ModuleOp module, std::string entry,
                     std::vector<llvm::SmallVector<Operation *>> opsOfTask,
                     ModelTimingOptions options = {});

  llvm::Expected<ModelTiming> timeModel(llvm::ArrayRef<ModelTask> tasks) override;

private:
  ModuleOp module;
  std::string entry;
  std::vector<llvm::SmallVector<Operation *>> opsOfTask;
  ModelTimingOptions options;
};

/// The configuration task `t` runs with now: its best measurement by the
/// database's rule for an unconfirmed best (Database::getUnconfirmedRank;
/// cut-off records never), else its untuned configuration (nullopt when it
/// has neither).
std::optional<Config> getCurrentConfig(const ModelTask &t);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_ENDTOENDMODELTIMER_H
