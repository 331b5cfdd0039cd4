//===- SequentialScheduler.cpp - AutoTVM: one task after another ----------===//
//
// AutoTVM's tune_tasks loop: tasks in declaration order, each with the
// budget left divided by the tasks left (so the budget a task leaves by
// stopping early passes on to the next), stopping a task after
// `earlyStop` measurements without improvement. Budget left after the last
// task goes to a second pass over the tasks that did not stop.
//
//===----------------------------------------------------------------------===//

#include "TaskScheduler/TaskSchedulers.h"

using namespace mlir::dltune;

namespace {
class SequentialScheduler : public TaskScheduler {
public:
  explicit SequentialScheduler(const SchedulerOptions &o) : earlyStop(o.earlyStop) {}
  llvm::StringRef getName() const override { return "sequential"; }

  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks,
                                  const ModelState &model) override {
    stopped.resize(tasks.size());
    // AutoTVM stops after the last task; budget left then (a small last
    // task, or tasks that ran out of space) goes to a new pass over the
    // tasks that have not stopped, so no scheduler leaves budget unused.
    for (int pass = 0; pass < 2; ++pass, current = 0, started = false) {
      if (std::optional<SlotRequest> r = nextInPass(tasks, model))
        return r;
    }
    return std::nullopt;
  }

private:
  std::optional<SlotRequest> nextInPass(llvm::ArrayRef<TaskState> tasks,
                                        const ModelState &model) {
    for (; current < tasks.size(); ++current, started = false) {
      const TaskState &t = tasks[current];
      if (stopped[current] || t.finished) {
        stopped[current] = true;
        continue;
      }
      if (!started) {
        int64_t left = std::max<int64_t>(0, model.trialsBudget - model.trialsDone);
        allotment = std::max<int64_t>(1, left / static_cast<int64_t>(tasks.size() - current));
        startTrials = t.trials;
        started = true;
      }
      int64_t used = t.trials - startTrials;
      if (earlyStop > 0 && used > 0 && t.trialsSinceImprovement >= earlyStop) {
        stopped[current] = true;
        continue;
      }
      if (used >= allotment)
        continue;
      int64_t want = allotment - used;
      if (earlyStop > 0)
        want = std::min(want, earlyStop - t.trialsSinceImprovement);
      return SlotRequest{current, want};
    }
    return std::nullopt;
  }

  std::vector<bool> stopped; // early-stopped or out of space
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
