//===- HostCpu.h - What the host CPU offers code generation -----*- C++ -*-===//
//
// Read from /proc/cpuinfo and sysfs, without MLIR: the device fingerprint
// (Execution/DeviceInfo) and the default schedules (Transforms/SchedulePlan)
// both derive from it, so a heuristic never hard-codes one machine.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_DEVICE_HOSTCPU_H
#define DLTUNE_TUNING_DEVICE_HOSTCPU_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::dltune {

struct HostCpu {
  std::string model;
  std::vector<std::string> isaFlags; // sorted; the ones that matter for codegen
  int cores = 0;
  double frequencyMHz = 0;
  int64_t l1dBytes = 0, l2Bytes = 0, l3Bytes = 0; // per core (L1, L2) or shared (L3)

  /// Reads the machine this process runs on.
  static HostCpu detect();

  bool hasFlag(const std::string &flag) const;
  /// f32 lanes of the widest vector registers: 16 (AVX-512), 8 (AVX/AVX2),
  /// 4 (SSE, NEON).
  int getF32Lanes() const;
  /// Architectural vector registers: 32 (AVX-512, AArch64), 16 (x86 AVX/SSE).
  int getVectorRegisters() const;
};

/// The contents of a small text file (sysfs, procfs) without trailing
/// blanks; "" when it cannot be read.
std::string readSmallTextFile(const std::string &path);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_DEVICE_HOSTCPU_H
