//===- SurveyScheduler.cpp - Trimmer's survey tuning ----------------------===//

#include "dltune/Tuning/TaskScheduler/SurveyRule.h"

#include "TaskScheduler/TaskSchedulers.h"

#include <deque>

using namespace mlir::dltune;

double mlir::dltune::getSurveyRate(double df, double dO) {
  if (dO == 0)
    return 0;
  double w2 = (df < 0 && dO < 0) ? -1 : 1;
  return w2 * df / dO;
}

bool mlir::dltune::shouldStopSurvey(double x, double previous, double phi, bool printed) {
  // A previous rate of 0 divides by zero: as printed, the rule is then
  // undefined and does not stop; the meant rule stops when this epoch made
  // no progress either.
  if (previous == 0)
    return !printed && x >= 0;
  double w1 = ((x > 0 && previous > 0) || (x < 0 && previous > 0)) ? -1 : 1;
  double ratio = printed ? (x + previous) / previous : (x - previous) / previous;
  return w1 * ratio <= phi;
}

namespace {
/// Epochs of one slot per unfinished task, in task order; after each epoch
/// the stop rule on the model latency and the tasks' tuning seconds.
class SurveyScheduler : public TaskScheduler {
public:
  explicit SurveyScheduler(const SchedulerOptions &o)
      : phi(o.surveyPhi), printed(o.surveyPrintedRule) {}
  llvm::StringRef getName() const override { return "survey"; }

  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks,
                                  const ModelState &model) override {
    while (!stopped) {
      while (!queue.empty()) {
        size_t i = queue.front();
        queue.pop_front();
        if (!tasks[i].finished)
          return SlotRequest{i, 0};
      }
      endEpoch(tasks, model);
    }
    return std::nullopt;
  }

private:
  void endEpoch(llvm::ArrayRef<TaskState> tasks, const ModelState &model) {
    double seconds = 0;
    for (const TaskState &t : tasks)
      seconds += t.seconds;
    if (epochs > 0) {
      double rate = getSurveyRate(model.modelLatencyMs - lastLatency, seconds - lastSeconds);
      if (epochs >= 2 && shouldStopSurvey(rate, lastRate, phi, printed))
        stopped = true;
      lastRate = rate;
    }
    lastLatency = model.modelLatencyMs;
    lastSeconds = seconds;
    for (size_t i : aliveTasks(tasks))
      queue.push_back(i);
    if (queue.empty())
      stopped = true;
    ++epochs;
  }

  double phi;
  bool printed;
  std::deque<size_t> queue;
  int64_t epochs = 0;
  double lastLatency = 0, lastSeconds = 0, lastRate = 0;
  bool stopped = false;
};
} // namespace

std::unique_ptr<TaskScheduler> mlir::dltune::createSurveyScheduler(const SchedulerOptions &o) {
  return std::make_unique<SurveyScheduler>(o);
}
