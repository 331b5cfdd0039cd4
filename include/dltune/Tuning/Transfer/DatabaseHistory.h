//===- DatabaseHistory.h - Other tasks' records as transfer sources -*- C++ -*-===//
//
// Transfer learning in a live run learns from what the database already
// knows: the records of other tasks of the same kind (the same op, other
// shapes or epilogues) on the same target. Each becomes a source in the
// Kernel Tuner cache form the pretraining set is built from; knobs are
// matched to the target's by name there.
//
//===----------------------------------------------------------------------===//

#ifndef DLTUNE_TUNING_TRANSFER_DATABASEHISTORY_H
#define DLTUNE_TUNING_TRANSFER_DATABASEHISTORY_H

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Replay/KernelTunerCache.h"

namespace mlir::dltune {

/// The op a task description starts with ("linalg.conv_2d_nhwc_hwcf" of
/// "linalg.conv_2d_nhwc_hwcf stride 2x2 + addf 1x..."), which decides
/// similarity.
std::string getTaskOpName(const std::string &opKind);

/// One source per other task of `target`'s op and target platform with at
/// least `minOkRecords` ok records (on any device); `names` gets
/// "<hash> <description>" per source. Records whose config does not parse
/// in their task's space or lies outside it are skipped, never guessed.
llvm::Expected<std::vector<KernelTunerCache>>
loadSimilarTaskHistory(Database &db, const TaskRecord &target, size_t minOkRecords,
                       std::vector<std::string> &names);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_DATABASEHISTORY_H
