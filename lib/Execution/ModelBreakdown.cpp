//===- ModelBreakdown.cpp - Where a model's time goes ---------------------===//

#include "dltune/Execution/ModelBreakdown.h"

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/TuningTasks.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::dltune;

llvm::Expected<std::vector<TaskTiming>>
mlir::dltune::timeModelTasks(ModuleOp annotated, int warmup, int repeat,
                             size_t flushCacheBytes) {
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
    RunOptions options;
    options.warmup = warmup;
    options.repeat = repeat;
    options.flushCacheBytes = flushCacheBytes;
    llvm::Expected<RunReport> report = runCpuKernel(*task.kernel, kTaskEntryName, options);
    if (!report)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "timing task '" + t.name +
                                         "': " + llvm::toString(report.takeError()));
    t.timing = report->timing;
    out.push_back(std::move(t));
  }
  return out;
}
