//===- TaskSummary.cpp - The task table and the model line ----------------===//

#include "dltune/Execution/TaskSummary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir::dltune;

void mlir::dltune::printTaskTable(llvm::ArrayRef<TaskSummary> tasks, llvm::raw_ostream &os) {
  // Transfer's own cost, where a task used it: it must not eat the saving.
  bool anyTransfer = llvm::any_of(
      tasks, [](const TaskSummary &t) { return !std::isnan(t.transferSeconds); });
  os << llvm::formatv(
      "{0,-44} {1,3} {2,11} {3,10} {4,10} {5,7} {6,9} {7,9} {8,10} {9,7} {10,6} {11,8}", "task",
      "ops", "untuned ms", "default ms", "best ms", "spread", "GFLOP/s", "speed-up", "vs default",
      "trials", "failed", "time s");
  os << (anyTransfer ? "  transfer s\n" : "\n");
  for (const TaskSummary &t : tasks) {
    std::string d = t.description.size() > 44 ? t.description.substr(0, 41) + "..."
                                               : t.description;
    if (!t.error.empty()) {
      os << llvm::formatv("{0,-44} {1,3} not tuned: {2}\n", d, t.weight, t.error);
      continue;
    }
    bool ok = !std::isnan(t.bestMs);
    bool hasDefault = !std::isnan(t.defaultMs);
    // Spread of the confirmed best: (max - min) / median over fresh
    // processes; "-" when the best was not confirmed.
    std::string spread = "-";
    if (ok && t.confirmRounds > 0)
      spread = llvm::formatv("{0:f1}%", 100 * (t.bestMaxMs - t.bestMinMs) / t.bestMs).str();
    auto orDash = [](bool have, std::string text) { return have ? text : std::string("-"); };
    // A GPU task's reference ran on the CPU: "cpu" marks its time, and no
    // speed-up over it is claimed.
    bool comparable = !t.referenceOnOtherDevice;
    std::string untuned = llvm::formatv("{0:f3}", t.untunedMs).str();
    if (!comparable)
      untuned = "cpu " + untuned;
    os << llvm::formatv(
        "{0,-44} {1,3} {2,11} {3,10} {4,10} {5,7} {6,9} {7,9} {8,10} {9,7} {10,6} {11,8:f1}",
        d, t.weight, untuned,
        orDash(hasDefault, llvm::formatv("{0:f4}", t.defaultMs).str()),
        orDash(ok, llvm::formatv("{0:f4}", t.bestMs).str()), spread,
        orDash(ok, llvm::formatv("{0:f1}", t.flops / (t.bestMs * 1e6)).str()),
        orDash(ok && comparable, llvm::formatv("{0:f1}x", t.untunedMs / t.bestMs).str()),
        orDash(ok && hasDefault, llvm::formatv("{0:f2}x", t.defaultMs / t.bestMs).str()),
        t.trials, t.failures, t.tuningSeconds);
    if (anyTransfer)
      os << llvm::formatv(" {0,11}", std::isnan(t.transferSeconds)
                                         ? std::string("-")
                                         : llvm::formatv("{0:f1}", t.transferSeconds).str());
    os << "\n";
  }
}

void mlir::dltune::printModelSummary(llvm::ArrayRef<TaskSummary> tasks, llvm::raw_ostream &os) {
  double untuned = 0, defaults = 0, tuned = 0;
  bool anyDefault = false;
  int64_t measured = 0;
  for (TaskSummary t : tasks) {
    // A GPU task's baseline is its default configuration on the GPU, not
    // its reference's time on the CPU.
    if (t.referenceOnOtherDevice)
      t.untunedMs = t.defaultMs;
    if (std::isnan(t.untunedMs))
      continue;
    // Without a best (every candidate failed, cut off, or noisy without a
    // slowest repeat: Database::getBest) apply-best gives the op dltune's default, so the model runs
    // at the default's latency, not at the unscheduled lowering's.
    double now = !std::isnan(t.bestMs)      ? std::min(t.untunedMs, t.bestMs)
                 : !std::isnan(t.defaultMs) ? t.defaultMs
                                            : t.untunedMs;
    untuned += t.weight * t.untunedMs;
    // A task whose default was not measured counts as it runs now.
    anyDefault |= !std::isnan(t.defaultMs);
    defaults += t.weight * (std::isnan(t.defaultMs) ? now : t.defaultMs);
    tuned += t.weight * now;
    measured += t.newTrials;
  }
  if (untuned <= 0)
    return;
  os << llvm::formatv("model latency (tuned ops x task latency): untuned {0:f3} ms, ", untuned);
  if (anyDefault)
    os << llvm::formatv("dltune's defaults {0:f3} ms, ", defaults);
  os << llvm::formatv("now {0:f3} ms ({1:f2}x", tuned, untuned / tuned);
  if (anyDefault)
    os << llvm::formatv("; {0:f2}x over the defaults", defaults / tuned);
  os << ")\n";
  if (measured == 0)
    return;
  os << "share of this run's " << measured << " measurements:";
  for (const TaskSummary &t : tasks)
    if (t.newTrials)
      os << llvm::formatv(" {0} {1:f0}%;", t.description, 100.0 * t.newTrials / measured);
  os << "\n";
}

