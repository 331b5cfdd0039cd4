//===- RandomScheduler.cpp - Slots to tasks drawn uniformly ---------------===//

#include "TaskScheduler/TaskSchedulers.h"

#include <random>

using namespace mlir::dltune;

namespace {
/// DynaTune's "random" baseline: each slot to an unfinished task drawn
/// uniformly (a finished task's slots go to the others).
class RandomScheduler : public TaskScheduler {
public:
  explicit RandomScheduler(uint64_t seed) : rng(seed) {}
  llvm::StringRef getName() const override { return "random"; }
  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks, const ModelState &) override {
    std::vector<size_t> alive = aliveTasks(tasks);
    if (alive.empty())
      return std::nullopt;
    std::uniform_int_distribution<size_t> pick(0, alive.size() - 1);
    return SlotRequest{alive[pick(rng)], 0};
  }

private:
  std::mt19937_64 rng;
};
} // namespace

std::unique_ptr<TaskScheduler> mlir::dltune::createRandomScheduler(const SchedulerOptions &o) {
  return std::make_unique<RandomScheduler>(o.seed);
}
