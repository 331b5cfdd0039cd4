//===- DatabaseCommitter.h - Measure callback that commits results -*- C++ -*-===//
//
// Results reach the database only through this callback (as in TVM
// MetaSchedule), each in its own transaction the moment it arrives, stamped
// with the generator that produced the timed code (Version.h).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_MEASURECALLBACK_DATABASECOMMITTER_H
#define DLTUNE_TUNING_MEASURECALLBACK_DATABASECOMMITTER_H

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/MeasureCallback/TuningLoop.h"

#include <functional>

namespace mlir::dltune {

class DatabaseCommitter : public MeasureCallback {
public:
  /// `onError` hears commit failures (the tuning goes on).
  DatabaseCommitter(Database &db, int64_t taskId, int64_t deviceId,
                    std::function<void(llvm::Error)> onError);
  void onResult(const Config &config, const MeasureRecord &result,
                const TuningProgress &progress) override;

private:
  Database &db;
  int64_t taskId, deviceId;
  std::function<void(llvm::Error)> onError;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_MEASURECALLBACK_DATABASECOMMITTER_H
