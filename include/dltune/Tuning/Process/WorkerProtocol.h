//===- WorkerProtocol.h - How tuner and worker processes talk ---*- C++ -*-===//
//
// The tuner runs `dltune worker build|reference|measure` in child processes.
// Workers report through their exit code (below) and one JSON object on
// stdout; signals and timeouts are seen by the parent. Fault injection
// (DLTUNE_INJECT_FAULT) lets tests force every failure class.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_PROCESS_WORKERPROTOCOL_H
#define DLTUNE_TUNING_PROCESS_WORKERPROTOCOL_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::dltune::worker {

enum ExitCode : int {
  kOk = 0,
  kUsage = 1,
  kInvalidConfig = 2,
  kCompileError = 3,
  kWrongResult = 4,
  kOutOfMemory = 5,
  kRunError = 6,
};

/// Whether fault `kind` (crash, hang, wrong, oom, invalid_config,
/// compile_error, compile_hang, compile_oom, disk_full) is to be injected for `config`.
/// DLTUNE_INJECT_FAULT holds
/// "kind[:probability][,kind[:probability]...]" (probability 1 if omitted);
/// the draw is a hash of DLTUNE_INJECT_SEED, the kind and the config, so a
/// run is reproducible.
bool shouldInjectFault(llvm::StringRef kind, llvm::StringRef config);

} // namespace mlir::dltune::worker

#endif // DLTUNE_TUNING_PROCESS_WORKERPROTOCOL_H
