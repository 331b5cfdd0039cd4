//===- ModelBreakdown.h - Where a model's time goes -------------*- C++ -*-===//
//
// A whole model's latency says nothing about which op to tune next. The
// breakdown times each tuning task's kernel (the op with its fused
// epilogue, with the config it carries) alone, in this process, and
// multiplies by its occurrences; what the tasks do not explain is the time
// of ops without a task (pads, transposes, reductions, copies).
//
//===----------------------------------------------------------------------===//

#ifndef DLTUNE_EXECUTION_MODELBREAKDOWN_H
#define DLTUNE_EXECUTION_MODELBREAKDOWN_H

#include "dltune/Execution/KernelRunner.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::dltune {

struct TaskTiming {
  std::string name;    // what it computes and its shapes
  int64_t occurrences = 0;
  bool configured = false; // carries a dltune.config (else timed untuned)
  TimingStats timing;  // one call of the task's kernel
  double getTotalMs() const { return timing.medianMs * occurrences; }
};

/// Times every task of `annotated` (ops with dltune.space, configs where
/// present) alone, `repeat` timed calls after `warmup`, in order of first
/// appearance; with `flushCacheBytes`, each timed call starts with cold
/// caches (RunOptions::flushCacheBytes), as inside a model.
llvm::Expected<std::vector<TaskTiming>> timeModelTasks(ModuleOp annotated, int warmup,
                                                       int repeat, size_t flushCacheBytes = 0);

/// The same on the GPU: each task's kernel lowered for `gpu`'s chip with its
/// lowering options and timed with CUDA events (runGpuKernel), `gpu`'s
/// warmup, repeat and flushCacheBytes as above; its schedule pipeline and
/// check are not used.
llvm::Expected<std::vector<TaskTiming>> timeModelTasksOnGpu(ModuleOp annotated,
                                                            const RunOptions &gpu);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_MODELBREAKDOWN_H
