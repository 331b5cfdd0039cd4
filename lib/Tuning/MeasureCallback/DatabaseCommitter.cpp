//===- DatabaseCommitter.cpp - Measure callback that commits results ------===//

#include "dltune/Tuning/MeasureCallback/DatabaseCommitter.h"
#include "dltune/Version.h"

using namespace mlir::dltune;

DatabaseCommitter::DatabaseCommitter(Database &db, int64_t taskId, int64_t deviceId,
                                     std::function<void(llvm::Error)> onError)
    : db(db), taskId(taskId), deviceId(deviceId), onError(std::move(onError)) {}

void DatabaseCommitter::onResult(const Config &, const MeasureRecord &result,
                                 const TuningProgress &) {
  MeasureRecord r = result;
  r.generator = getGeneratorString();
  llvm::Expected<bool> inserted = db.commitRecord(taskId, deviceId, r);
  if (!inserted)
    onError(inserted.takeError());
}
