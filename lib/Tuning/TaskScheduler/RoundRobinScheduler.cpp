//===- RoundRobinScheduler.cpp - Slots in circular order ------------------===//

#include "TaskScheduler/TaskSchedulers.h"

using namespace mlir::dltune;

namespace {
/// DynaTune's and Ansor's "round-robin": unfinished tasks in turn.
class RoundRobinScheduler : public TaskScheduler {
public:
  llvm::StringRef getName() const override { return "round-robin"; }
  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks, const ModelState &) override {
    for (size_t k = 0; k < tasks.size(); ++k) {
      size_t i = (cursor + k) % tasks.size();
      if (!tasks[i].finished) {
        cursor = i + 1;
        return SlotRequest{i, 0};
      }
    }
    return std::nullopt;
  }

private:
  size_t cursor = 0;
};
} // namespace

std::unique_ptr<TaskScheduler> mlir::dltune::createRoundRobinScheduler(const SchedulerOptions &) {
  return std::make_unique<RoundRobinScheduler>();
}
