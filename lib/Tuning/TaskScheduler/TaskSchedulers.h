//===- TaskSchedulers.h - The task schedulers createTaskScheduler knows ---===//
//
// Private to lib/Tuning: one factory per scheduler, each defined in the
// scheduler's own file.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TUNING_TASKSCHEDULERS_H
#define DLTUNE_LIB_TUNING_TASKSCHEDULERS_H

#include "dltune/Tuning/TaskScheduler/TaskScheduler.h"

#include <random>

namespace mlir::dltune {

std::unique_ptr<TaskScheduler> createSequentialScheduler(const SchedulerOptions &options);
std::unique_ptr<TaskScheduler> createRoundRobinScheduler(const SchedulerOptions &options);
std::unique_ptr<TaskScheduler> createRandomScheduler(const SchedulerOptions &options);
std::unique_ptr<TaskScheduler> createFlopsScheduler(const SchedulerOptions &options);
std::unique_ptr<TaskScheduler> createGradientScheduler(const SchedulerOptions &options);
std::unique_ptr<TaskScheduler> createGradientMSScheduler(const SchedulerOptions &options);
std::unique_ptr<TaskScheduler> createDynaTuneScheduler(const SchedulerOptions &options);
std::unique_ptr<TaskScheduler> createSurveyScheduler(const SchedulerOptions &options);

/// The gradient schedulers' choice: alive[k] with the largest score[k]
/// (the first on ties), or a random one when all scores are equal.
size_t pickLargestOrRandom(llvm::ArrayRef<double> scores, llvm::ArrayRef<size_t> alive,
                           std::mt19937_64 &rng);

} // namespace mlir::dltune

#endif
