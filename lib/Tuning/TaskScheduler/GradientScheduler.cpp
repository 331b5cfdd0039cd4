//===- GradientScheduler.cpp - Ansor's gradient-based task scheduler ------===//
//
// Ansor (Zheng et al., OSDI'20, section 6; TVM auto_scheduler/
// task_scheduler.py, strategy "gradient"). A round-robin warm-up gives
// every task one slot; then each slot goes to the task with the most
// negative
//   dF/dg_i * (alpha * backward_i + (1 - alpha) * forward_i)
// where F = sum_i w_i g_i (so dF/dg_i = w_i), g_i is the task's best
// latency after each of its slots, backward_i = (g_i(t) - g_i(t - W)) / W
// over the last W slots (0 until the task has W + 1 slots) and
// forward_i = min(g_i - g_i / t_i, beta * C_i / max_{j similar} V_j) - g_i
// (C_i FLOPs, V_j = C_j / g_j the best speed in i's similarity group; the
// second term only for groups of two or more). All gradients equal: a
// random task. After each slot a task that has had 5 more slots than every
// other task of its group and is still beta times slower than the group's
// fastest leaves the group. Departures from the Python, each because our
// inputs differ: a task without a valid measurement counts 1e10 ms as in
// Ansor but ties are broken among unfinished tasks only.
//
//===----------------------------------------------------------------------===//

#include "TaskScheduler/TaskSchedulers.h"

#include <map>
#include <random>

using namespace mlir::dltune;

namespace {
class GradientScheduler : public TaskScheduler {
public:
  explicit GradientScheduler(const SchedulerOptions &o)
      : alpha(o.alpha), beta(o.beta), window(o.backwardWindow), rng(o.seed) {}
  llvm::StringRef getName() const override { return "gradient"; }

  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks, const ModelState &) override {
    setUp(tasks);
    std::vector<size_t> alive = aliveTasks(tasks);
    if (alive.empty())
      return std::nullopt;
    for (size_t i : alive) // warm-up: one slot each
      if (history[i].empty())
        return SlotRequest{i, 0};
    std::vector<double> negated; // the most negative gradient wins
    for (size_t i : alive)
      negated.push_back(-gradient(tasks, i));
    return SlotRequest{pickLargestOrRandom(negated, alive, rng), 0};
  }

  void onSlotDone(size_t task, llvm::ArrayRef<TaskState> tasks) override {
    setUp(tasks);
    history[task].push_back(cost(tasks[task]));
    adjustGroup(tasks, task);
  }

  /// The gradient of task `i` (public for tests).
  double gradient(llvm::ArrayRef<TaskState> tasks, size_t i) const {
    const TaskState &t = tasks[i];
    double g = cost(t);
    const std::vector<double> &h = history[i];
    int64_t cts = static_cast<int64_t>(h.size());
    double backward = 0;
    if (cts - 1 - window >= 0)
      backward = (h[cts - 1] - h[cts - 1 - window]) / window;
    double next1 = g - g / static_cast<double>(cts);
    double next2 = beta * 1e30;
    const std::vector<size_t> *group = groupOf(i);
    if (group && group->size() > 1) {
      double bestFlops = 0;
      for (size_t j : *group)
        bestFlops = std::max(bestFlops, tasks[j].flops / cost(tasks[j]));
      next2 = beta * t.flops / bestFlops;
    }
    double forward = std::min(next1, next2) - g;
    return t.weight * (alpha * backward + (1 - alpha) * forward);
  }

private:
  static double cost(const TaskState &t) { return std::isfinite(t.bestMs) ? t.bestMs : 1e10; }

  void setUp(llvm::ArrayRef<TaskState> tasks) {
    if (!history.empty())
      return;
    history.resize(tasks.size());
    tags.resize(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
      tags[i] = similarityTag(tasks[i]);
      if (!tags[i].empty())
        groups[tags[i]].push_back(i);
    }
  }

  const std::vector<size_t> *groupOf(size_t i) const {
    if (tags[i].empty())
      return nullptr;
    return &groups.at(tags[i]);
  }

  void adjustGroup(llvm::ArrayRef<TaskState> tasks, size_t i) {
    if (tags[i].empty())
      return;
    std::vector<size_t> &group = groups[tags[i]];
    if (group.size() <= 1)
      return;
    double bestFlops = 0;
    size_t othersMax = 0;
    for (size_t j : group) {
      bestFlops = std::max(bestFlops, tasks[j].flops / cost(tasks[j]));
      if (j != i)
        othersMax = std::max(othersMax, history[j].size());
    }
    double cur = tasks[i].flops / cost(tasks[i]);
    if (cur < bestFlops / beta && history[i].size() > 5 + othersMax) {
      group.erase(std::find(group.begin(), group.end(), i));
      tags[i].clear();
    }
  }

  double alpha, beta;
  int window;
  std::mt19937_64 rng;
  std::vector<std::vector<double>> history; // cost after each slot
  std::vector<std::string> tags;
  std::map<std::string, std::vector<size_t>> groups;
};
} // namespace

std::unique_ptr<TaskScheduler> mlir::dltune::createGradientScheduler(const SchedulerOptions &o) {
  return std::make_unique<GradientScheduler>(o);
}
