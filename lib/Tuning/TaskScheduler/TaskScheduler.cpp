//===- TaskScheduler.cpp - Creating task schedulers by name ---------------===//

#include "dltune/Tuning/TaskScheduler/TaskScheduler.h"

#include "TaskScheduler/TaskSchedulers.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::dltune;

llvm::ArrayRef<llvm::StringRef> mlir::dltune::getTaskSchedulerNames() {
  static const llvm::StringRef names[] = {"sequential", "round-robin", "random", "flops",
                                          "gradient",   "gradient-ms", "dynatune",
                                          "survey"};
  return names;
}

llvm::Expected<std::unique_ptr<TaskScheduler>>
mlir::dltune::createTaskScheduler(llvm::StringRef name, const SchedulerOptions &o) {
  auto error = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  if (o.earlyStop < 0)
    return error("scheduler early stop must not be negative");
  if (!(o.surveyPhi > -1e6 && o.surveyPhi < 1e6))
    return error("survey phi must be a finite number");
  if (o.alpha < 0 || o.alpha > 1 || o.beta <= 0 || o.backwardWindow < 1)
    return error("gradient scheduler needs 0 <= alpha <= 1, beta > 0 and a window >= 1");
  if (o.ucbC < 0 || o.walkers < 4 || o.walkers % 2 || o.mcmcSteps < 2 ||
      o.posteriorSamples < 1 || !(o.probeShare > 0 && o.probeShare <= 1))
    return error("dynatune needs C >= 0, an even number of walkers >= 4, at least 2 MCMC "
                 "steps, 1 posterior sample and a probe share in (0, 1]");
  if (name == "sequential")
    return createSequentialScheduler(o);
  if (name == "round-robin")
    return createRoundRobinScheduler(o);
  if (name == "random")
    return createRandomScheduler(o);
  if (name == "flops")
    return createFlopsScheduler(o);
  if (name == "gradient")
    return createGradientScheduler(o);
  if (name == "gradient-ms")
    return createGradientMSScheduler(o);
  if (name == "dynatune")
    return createDynaTuneScheduler(o);
  if (name == "survey")
    return createSurveyScheduler(o);
  return error("unknown task scheduler '" + name + "' (known: " +
               llvm::join(getTaskSchedulerNames(), ", ") + ")");
}

std::string mlir::dltune::similarityTag(const TaskState &task) {
  if (task.flops <= 0)
    return "";
  int flopClass = static_cast<int>(std::log(task.flops + 1) / std::log(1.618));
  return task.kind + "_" + std::to_string(flopClass);
}

std::vector<size_t> mlir::dltune::aliveTasks(llvm::ArrayRef<TaskState> tasks) {
  std::vector<size_t> alive;
  for (size_t i = 0; i < tasks.size(); ++i)
    if (!tasks[i].finished)
      alive.push_back(i);
  return alive;
}

size_t mlir::dltune::pickLargestOrRandom(llvm::ArrayRef<double> scores,
                                         llvm::ArrayRef<size_t> alive, std::mt19937_64 &rng) {
  auto [minIt, maxIt] = std::minmax_element(scores.begin(), scores.end());
  if (*minIt == *maxIt) {
    std::uniform_int_distribution<size_t> pick(0, alive.size() - 1);
    return alive[pick(rng)];
  }
  // minmax_element gives the last maximum; numpy's argmax the first.
  return alive[std::max_element(scores.begin(), scores.end()) - scores.begin()];
}
