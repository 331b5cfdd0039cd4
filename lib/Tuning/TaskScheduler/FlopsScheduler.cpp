//===- FlopsScheduler.cpp - Budget in proportion to FLOPs -----------------===//
//
// DynaTune's "linear" static baseline: each task's share of the budget is
// proportional to its FLOPs in the model (weight x FLOPs). Slots go to the
// task furthest below its share, so the split holds at every point of the
// run, not only at the end. When any task's FLOPs are unknown, every
// share is weight x untuned latency instead (the time the task costs).
//
//===----------------------------------------------------------------------===//

#include "TaskScheduler/TaskSchedulers.h"

using namespace mlir::dltune;

namespace {
class FlopsScheduler : public TaskScheduler {
public:
  llvm::StringRef getName() const override { return "flops"; }
  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks, const ModelState &) override {
    bool allFlops = true;
    for (const TaskState &t : tasks)
      allFlops &= t.flops > 0;
    std::optional<size_t> best;
    double bestRatio = INFINITY;
    for (size_t i : aliveTasks(tasks)) {
      const TaskState &t = tasks[i];
      double share = t.weight * (allFlops ? t.flops : t.untunedMs);
      double ratio = share > 0 ? t.trials / share : INFINITY;
      if (!best || ratio < bestRatio) {
        best = i;
        bestRatio = ratio;
      }
    }
    if (!best)
      return std::nullopt;
    return SlotRequest{*best, 0};
  }
};
} // namespace

std::unique_ptr<TaskScheduler> mlir::dltune::createFlopsScheduler(const SchedulerOptions &) {
  return std::make_unique<FlopsScheduler>();
}
