//===- DeviceInfo.h - Device fingerprints and energy meters -----*- C++ -*-===//
//
// A fingerprint of the machine measurements were taken on (CPU model, ISA
// flags, cores, caches, frequency; GPU name, compute capability, SMs,
// memory when a CUDA driver is present). It keys the database's devices and
// gives cost models numeric device features.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_DEVICEINFO_H
#define DLTUNE_EXECUTION_DEVICEINFO_H

#include "dltune/Execution/CudaDriver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::dltune {

struct DeviceInfo {
  std::string target; // "cpu" or "gpu"
  std::string cpuModel;
  std::vector<std::string> isaFlags; // the ones that matter for codegen
  int cores = 0;
  double frequencyMHz = 0;
  int64_t l1dBytes = 0, l2Bytes = 0, l3Bytes = 0;
  std::optional<GpuDeviceInfo> gpu;
  /// Measured with the caches flushed before each timed call (the tuner's
  /// `flush-caches`): such times are not comparable with ones measured hot,
  /// so they are kept under a device of their own (fingerprint and name
  /// say so).
  bool cachesFlushed = false;

  /// Reads /proc/cpuinfo and sysfs; with `target == "gpu"` also the GPU
  /// through the CUDA driver when one loads.
  static DeviceInfo detect(const std::string &target);

  std::string toJson() const;
  /// Reads what toJson wrote (a database's device record); fields it lacks
  /// keep their defaults, fields of the wrong type are an error.
  static llvm::Expected<DeviceInfo> fromJson(llvm::StringRef json);
  /// Stable over runs on the same machine (frequency readings excluded).
  std::string getFingerprint() const;
  std::string getName() const;
  /// Numbers for cost models, in the order of getFeatureNames().
  std::vector<double> getFeatures() const;
  static std::vector<std::string> getFeatureNames();
};

/// CPU package energy from RAPL (/sys/class/powercap), or GPU energy from
/// NVML (libnvidia-ml.so.1, loaded at run time), when available.
class EnergyMeter {
public:
  enum class Source { Cpu, Gpu };
  /// `powercapRoot`: where the CPU's RAPL domains are; empty: the
  /// environment's DLTUNE_POWERCAP_ROOT (tests point it at a made-up tree),
  /// else /sys/class/powercap.
  explicit EnergyMeter(Source source = Source::Cpu, std::string powercapRoot = "");
  bool isAvailable() const { return !paths.empty() || nvmlEnergy; }
  /// "RAPL" or "NVML" (empty when not available).
  std::string getName() const { return nvmlEnergy ? "NVML" : paths.empty() ? "" : "RAPL"; }
  /// Joules consumed since the last call (or construction); nullopt when
  /// no meter is readable.
  std::optional<double> readJoulesSinceLast();

private:
  std::optional<double> readNvmlJoules();
  std::vector<std::string> paths;
  std::vector<double> last, range;
  // NVML: total energy in mJ since the driver loaded.
  void *nvmlDevice = nullptr;
  int (*nvmlEnergy)(void *, unsigned long long *) = nullptr;
  double nvmlLast = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_DEVICEINFO_H
