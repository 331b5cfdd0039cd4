//===- StudySuspension.h - Trimmer's suspension across a live study -*- C++ -*-===//
//
// Trimmer's multi-model suspension (ModelSuspension.h) among the workers of
// a live study (docs/distributed.md, "Suspension"). The workers share no
// memory, only the database: each model's latency after each interval of
// measurements and each stopped model are rows that the first writer sets
// for good (Database::addStudyInterval, stopStudyModel). Every decision is
// a function of those rows, so any worker may take it, at any time, any
// number of times, and all reach the same one; the database keeps one
// suspension per synchronisation should two workers race.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TASKSCHEDULER_STUDYSUSPENSION_H
#define DLTUNE_TUNING_TASKSCHEDULER_STUDYSUSPENSION_H

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/TaskScheduler/ModelSuspension.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <vector>

namespace mlir::dltune {

/// One model of a study on one device, as the rows say.
struct StudyModelIntervals {
  /// latencies[k]: the model's latency after interval k (0: untuned), for
  /// the intervals kept without a gap from 0; empty before interval 0.
  IntervalLatencies latencies;
  /// measured[k]: the model's records then.
  std::vector<int64_t> measured;
  std::optional<StudyModelStop> stop;

  /// Intervals completed after the untuned one.
  int64_t getCompletedIntervals() const {
    return latencies.empty() ? 0 : static_cast<int64_t>(latencies.size()) - 1;
  }
};

/// What the database says of a study model on a device now.
struct StudyModelLatency {
  /// Sum over its tasks of occurrences x best by the unconfirmed rule
  /// (Database::getUnconfirmedRank), whatever was confirmed; NaN while a
  /// task has none.
  double latencyMs = NAN;
  /// The same with each task's untuned latency (its baseline); NaN while a
  /// task has none.
  double untunedMs = NAN;
  int64_t measured = 0; // its tasks' records on the device
};
llvm::Expected<StudyModelLatency> readStudyModelLatency(Database &db, const StudyModel &model,
                                                        int64_t deviceId);

/// The rows of a study on a device, by model position (models without a
/// row are there, empty).
std::vector<StudyModelIntervals> collectStudyIntervals(llvm::ArrayRef<StudyInterval> intervals,
                                                       llvm::ArrayRef<StudyModelStop> stops,
                                                       size_t modelCount);

/// The suspensions the rows call for and do not hold yet, in order of
/// synchronisation. Synchronisation s is ready once every model not stopped
/// has completed s intervals; the models that take part are those that
/// completed s with a finite latency and were not stopped before s (nor
/// done at s); the rule of
/// chooseModelToSuspend picks at most one among them, on their latencies up
/// to s. A synchronisation that holds a suspension is decided.
std::vector<StudyModelStop> decideStudySuspensions(llvm::ArrayRef<StudyModelIntervals> models,
                                                   const ModelSuspensionOptions &options);

/// The model a worker tunes next: among those not stopped, the one with the
/// fewest completed intervals (so models advance together and reach each
/// synchronisation), then the fewest workers on it (`busyWorkers`, by
/// position), then the first; nullopt once every model is stopped.
std::optional<size_t> pickNextStudyModel(llvm::ArrayRef<StudyModelIntervals> models,
                                         llvm::ArrayRef<int> busyWorkers);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TASKSCHEDULER_STUDYSUSPENSION_H
