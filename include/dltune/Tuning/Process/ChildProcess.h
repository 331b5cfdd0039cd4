//===- ChildProcess.h - Running a command under limits ----------*- C++ -*-===//
//
// Candidate builds and runs happen in child processes with a wall-time limit
// (the whole process group is killed when it is exceeded) and an address-
// space limit, so a crash, hang or runaway compile never takes the tuner
// down. Output is captured.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_PROCESS_CHILDPROCESS_H
#define DLTUNE_TUNING_PROCESS_CHILDPROCESS_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::dltune {

struct ChildLimits {
  double wallSeconds = 60;
  // RLIMIT_AS; 0: none. AddressSanitizer builds use ASan's hard_rss_limit_mb
  // (a child over it is reported as killed by SIGKILL).
  uint64_t memoryBytes = 0;
};

struct ChildResult {
  int exitCode = -1;  // valid when !signaled && !timedOut
  int signal = 0;     // the signal that ended it, if any
  bool timedOut = false;
  double wallSeconds = 0;
  std::string out, err;
  bool succeeded() const { return !timedOut && signal == 0 && exitCode == 0; }
};

/// Starts `argv` (argv[0] is a path) with extra environment entries
/// ("NAME=value"), waits for it under `limits`, and reports how it ended.
/// Fails only if the process cannot be started.
llvm::Expected<ChildResult> runChild(const std::vector<std::string> &argv,
                                     const ChildLimits &limits,
                                     const std::vector<std::string> &extraEnv = {});

/// Several children at once (parallel builds): starts up to `parallelism`
/// and returns the results in order.
std::vector<llvm::Expected<ChildResult>>
runChildren(const std::vector<std::vector<std::string>> &argvs, const ChildLimits &limits,
            unsigned parallelism, const std::vector<std::string> &extraEnv = {});

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_PROCESS_CHILDPROCESS_H
