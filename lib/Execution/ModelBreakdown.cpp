//===- ModelBreakdown.cpp - Where a model's time goes ---------------------===//

#include "dltune/Execution/ModelBreakdown.h"

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/TuningTasks.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::dltune;

/// Times each task of `annotated` with `run` (the task's kernel, its entry).
static llvm::Expected<std::vector<TaskTiming>> timeTasks(
    ModuleOp annotated,
    llvm::function_ref<llvm::Expected<RunReport>(ModuleOp, StringRef)> run) {
  std::vector<TaskTiming> out;
  for (TuningTask &task : collectTuningTasks(annotated)) {
    TaskTiming t;
    t.name = task.record.opKind + " " + task.record.shapes;
    t.occurrences = task.getWeight();
    // The kernel was extracted without the config; the first instance's
    // config goes back onto the kernel's op (instances share the space).
    Attribute config = task.ops.front()->getAttr(DLTuneDialect::kConfigAttrName);
    task.kernel->walk([&](linalg::LinalgOp op) {
      if (config && op->hasAttr(DLTuneDialect::kSpaceAttrName))
        op->setAttr(DLTuneDialect::kConfigAttrName, config);
    });
    t.configured = static_cast<bool>(config);
    llvm::Expected<RunReport> report = run(*task.kernel, kTaskEntryName);
    if (!report)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "timing task '" + t.name +
                                         "': " + llvm::toString(report.takeError()));
    t.timing = report->timing;
    out.push_back(std::move(t));
  }
  return out;
}

llvm::Expected<std::vector<TaskTiming>>
mlir::dltune::timeModelTasks(ModuleOp annotated, int warmup, int repeat,
                             size_t flushCacheBytes) {
  RunOptions options;
  options.warmup = warmup;
  options.repeat = repeat;
  options.flushCacheBytes = flushCacheBytes;
  return timeTasks(annotated, [&](ModuleOp kernel, StringRef entry) {
    return runCpuKernel(kernel, entry, options);
  });
}

llvm::Expected<std::vector<TaskTiming>>
mlir::dltune::timeModelTasksOnGpu(ModuleOp annotated, const RunOptions &gpu) {
  RunOptions options;
  options.warmup = gpu.warmup;
  options.repeat = gpu.repeat;
  options.flushCacheBytes = gpu.flushCacheBytes;
  options.gpuChip = gpu.gpuChip;
  options.gpuLoweringOptions = gpu.gpuLoweringOptions;
  return timeTasks(annotated, [&](ModuleOp kernel, StringRef entry) {
    return runGpuKernel(kernel, entry, options);
  });
}
