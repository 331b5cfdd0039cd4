//===- SurveyScheduler.cpp - Trimmer's survey tuning ----------------------===//

#include "dltune/Tuning/TaskScheduler/SurveyRule.h"

#include "TaskScheduler/TaskSchedulers.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
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
/// the stop rule on the model latency and the model's tuning seconds. The
/// latency is the model timed end to end when the driver can (the paper's:
/// the real latency), else the sum of its tasks'.
class SurveyScheduler : public TaskScheduler {
public:
  explicit SurveyScheduler(const SchedulerOptions &o)
      : phi(o.surveyPhi), printed(o.surveyPrintedRule) {}
  llvm::StringRef getName() const override { return "survey"; }
  std::string getStopReason() const override { return stopReason; }

  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks,
                                  const ModelState &model) override {
    while (!stopped) {
      while (!queue.empty()) {
        size_t i = queue.front();
        queue.pop_front();
        if (!tasks[i].finished)
          return SlotRequest{i, 0, false};
      }
      if (model.canTimeModel && !timedThisEpoch) {
        timedThisEpoch = true;
        return SlotRequest{0, 0, /*timeModel=*/true};
      }
      endEpoch(tasks, model);
      timedThisEpoch = false;
    }
    return std::nullopt;
  }

private:
  void endEpoch(llvm::ArrayRef<TaskState> tasks, const ModelState &model) {
    double seconds = model.modelTimingSeconds;
    for (const TaskState &t : tasks)
      seconds += t.seconds;
    bool timed = timedThisEpoch && std::isfinite(model.timedModelLatencyMs);
    double latency = timed ? model.timedModelLatencyMs : model.modelLatencyMs;
    // A timer that stopped working: the sum is another measure, so the
    // rates start over from this epoch rather than compare the two.
    if (epochs > 0 && timed != lastTimed)
      epochs = 0;
    if (epochs > 0) {
      double rate = getSurveyRate(latency - lastLatency, seconds - lastSeconds);
      if (epochs >= 2 && shouldStopSurvey(rate, lastRate, phi, printed)) {
        stopped = true;
        stopReason = llvm::formatv("the rate rule (Eq. 2{0}, phi {1}) on the {2}",
                                   printed ? " as printed" : "", phi,
                                   timed ? "model timed end to end" : "sum of task latencies")
                         .str();
      }
      lastRate = rate;
    }
    lastTimed = timed;
    lastLatency = latency;
    lastSeconds = seconds;
    for (size_t i : aliveTasks(tasks))
      queue.push_back(i);
    if (queue.empty() && !stopped) {
      stopped = true;
      stopReason = "no task left to tune";
    }
    ++epochs;
  }

  double phi;
  bool printed;
  std::deque<size_t> queue;
  int64_t epochs = 0;
  double lastLatency = 0, lastSeconds = 0, lastRate = 0;
  bool lastTimed = false;
  bool timedThisEpoch = false; // asked the driver to time the model for this epoch
  bool stopped = false;
  std::string stopReason;
};
} // namespace

std::unique_ptr<TaskScheduler> mlir::dltune::createSurveyScheduler(const SchedulerOptions &o) {
  return std::make_unique<SurveyScheduler>(o);
}
