//===- DatabaseHistory.h - A database's records as transfer sources -*- C++ -*-===//
//
// Transfer learning in a live run learns from what databases already know:
// the records of other tasks of the same kind (the same op, other shapes or
// epilogues) and of the same task measured on other devices. Each (task,
// device) pair becomes one source in the Kernel Tuner cache form the
// pretraining set is built from (knobs matched to the target's by name
// there), so that every source's throughput is normalised on its own
// device, and keeps its task and device record so that its rows can be
// featurised with their own shapes and device.
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

/// One (task, device) pair's records.
struct TaskHistorySource {
  /// The records, in the task's own space (knobs in its order).
  KernelTunerCache records;
  TaskRecord task;
  DeviceRecord device;
  /// "<hash> <op kind> <shapes> on <device name>", for notes and errors.
  std::string name;
};

/// One source per (task, device) pair of `db` with `target`'s op and target
/// platform and at least `minOkRecords` ok records: other tasks on every
/// device, and `target`'s own task on every device but `ownDeviceId` (its
/// own history there, which the tuner resumes; 0 excludes none, as for a
/// database of another machine). Records whose config does not parse in
/// their task's space or lies outside it are skipped, never guessed.
llvm::Expected<std::vector<TaskHistorySource>>
loadTaskHistory(Database &db, const TaskRecord &target, int64_t ownDeviceId,
                size_t minOkRecords);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_DATABASEHISTORY_H
