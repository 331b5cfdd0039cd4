//===- StudySettings.h - What a study fixes for all its workers -*- C++ -*-===//
//
// A study (issue 34, docs/distributed.md) registers its tuner options once
// in the shared database, so that every worker tunes with the same budget,
// strategy and annotation - the same task hashes. What is the machine's own
// business (the database URL, build jobs, timeouts, memory limit, work
// directory, progress output, the GPU chip) stays with each worker.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_STUDYSETTINGS_H
#define DLTUNE_EXECUTION_STUDYSETTINGS_H

#include "dltune/Execution/TunerOptions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::dltune {

/// Trimmer's multi-model suspension among the study's workers
/// (docs/distributed.md, "Suspension"): the models are tuned an interval at
/// a time, and at each synchronisation the rule of ModelSuspension.h may
/// suspend one.
struct StudySuspensionSettings {
  bool enabled = false;
  int plateauIntervals = 2;
  double minImprovement = 0.01;
  /// Measurements per model per interval; 0: one epoch (slot-trials times
  /// the model's tasks).
  int64_t intervalTrials = 0;
};

/// The tuner options and `dltune tune`'s own flags that shape the tasks.
struct StudySettings {
  ModuleTunerOptions tuner;
  int threads = 0;
  bool winograd = true;
  bool tf32 = false;
  StudySuspensionSettings suspension;
};

/// Refuses suspension settings that cannot work: suspension without a
/// scheduler (the interval is the scheduler's model budget), a plateau
/// below 1 interval, an improvement threshold outside [0, 1), a negative
/// interval.
llvm::Error validateStudySuspension(const StudySettings &settings);

/// Whether a tuner option (forEachTunerOption's name) is each worker's
/// own rather than the study's.
bool isWorkerOption(llvm::StringRef name);

/// Whether a tuner option can be a study's at all: `entry` (timing one
/// model end to end per epoch) belongs to a single run, and `dltune study
/// create` and its workers refuse it.
bool isStudyOption(llvm::StringRef name);

/// The study's part of `settings` as a JSON object (keys: the options'
/// names, plus "threads", "winograd", "tf32", and with suspension
/// "suspend", "plateau", "min-improvement", "suspend-interval", so that a
/// study without it reads as before).
std::string encodeStudySettings(const StudySettings &settings);

/// `base` (a worker's settings) with the study's part replaced by what
/// `json` holds; an error for text that is not such an object, a key no
/// option has, or a value of the wrong type.
llvm::Expected<StudySettings> decodeStudySettings(llvm::StringRef json, StudySettings base);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_STUDYSETTINGS_H
