//===- GradientMSScheduler.cpp - MetaSchedule's gradient-based scheduler --===//
//
// TVM MetaSchedule's GradientBased task scheduler (src/meta_schedule/
// task_scheduler/gradient_based.cc): a round-robin warm-up, then the slot
// goes to the task with the largest
//   w_i * (alpha * (h[n-1-W] - best) / W + (1 - alpha) * best / n)
// where h is the task's best latency after each of its n slots (the first
// term is 0 until n >= W + 1); all equal: a random task. No FLOPs, no
// similarity groups. A task without a valid measurement counts 1e100 ms,
// as there.
//
//===----------------------------------------------------------------------===//

#include "TaskScheduler/TaskSchedulers.h"

#include <random>

using namespace mlir::dltune;

namespace {
class GradientMSScheduler : public TaskScheduler {
public:
  explicit GradientMSScheduler(const SchedulerOptions &o)
      : alpha(o.alpha), window(o.backwardWindow), rng(o.seed) {}
  llvm::StringRef getName() const override { return "gradient-ms"; }

  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks, const ModelState &) override {
    history.resize(tasks.size());
    std::vector<size_t> alive = aliveTasks(tasks);
    if (alive.empty())
      return std::nullopt;
    for (size_t i : alive)
      if (history[i].empty())
        return SlotRequest{i, 0};
    std::vector<double> grads;
    for (size_t i : alive) {
      const std::vector<double> &h = history[i];
      int n = static_cast<int>(h.size());
      double best = h.back();
      double g1 = n >= 1 + window ? (h[n - 1 - window] - best) / window : 0.0;
      double g2 = best / n;
      grads.push_back(tasks[i].weight * (alpha * g1 + (1 - alpha) * g2));
    }
    return SlotRequest{pickLargestOrRandom(grads, alive, rng), 0};
  }

  void onSlotDone(size_t task, llvm::ArrayRef<TaskState> tasks) override {
    history.resize(tasks.size());
    const TaskState &t = tasks[task];
    history[task].push_back(std::isfinite(t.bestMs) ? t.bestMs : 1e100);
  }

private:
  double alpha;
  int window;
  std::mt19937_64 rng;
  std::vector<std::vector<double>> history;
};
} // namespace

std::unique_ptr<TaskScheduler> mlir::dltune::createGradientMSScheduler(const SchedulerOptions &o) {
  return std::make_unique<GradientMSScheduler>(o);
}
