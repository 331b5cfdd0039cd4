//===- SequentialScheduler.cpp - AutoTVM: one task after another ----------===//
//
// AutoTVM's tune_tasks loop: tasks in declaration order, each with the
// budget left divided by the tasks left (so the budget a task leaves by
// stopping early passes on to the next), stopping a task after
// `earlyStop` measurements without improvement.
//
//===----------------------------------------------------------------------===//

#include "TaskSchedulers.h"

using namespace mlir::dltune;

namespace {
class SequentialScheduler : public TaskScheduler {
public:
  explicit SequentialScheduler(const SchedulerOptions &o) : earlyStop(o.earlyStop) {}
  llvm::StringRef getName() const override { return "sequential"; }

  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks,
                                  const ModelState &model) override {
    for (; current < tasks.size(); ++current, started = false) {
      const TaskState &t = tasks[current];
      if (!started) {
        int64_t left = std::max<int64_t>(0, model.trialsBudget - model.trialsDone);
        allotment = std::max<int64_t>(1, left / static_cast<int64_t>(tasks.size() - current));
        startTrials = t.trials;
        started = true;
      }
      int64_t used = t.trials - startTrials;
      bool stale = earlyStop > 0 && used > 0 && t.trialsSinceImprovement >= earlyStop;
      if (t.finished || used >= allotment || stale)
        continue;
      int64_t want = allotment - used;
      if (earlyStop > 0)
        want = std::min(want, earlyStop - t.trialsSinceImprovement);
      return SlotRequest{current, want};
    }
    return std::nullopt;
  }

private:
  int64_t earlyStop;
  size_t current = 0;
  bool started = false;
  int64_t allotment = 0, startTrials = 0;
};
} // namespace

std::unique_ptr<TaskScheduler>
mlir::dltune::createSequentialScheduler(const SchedulerOptions &options) {
  return std::make_unique<SequentialScheduler>(options);
}
