//===- DeviceSpecs.h - Published specifications of recorded devices -*- C++ -*-===//
//
// Device features for cost models on recorded spaces: a model that sees
// what a device is (peak FP32 throughput, memory bandwidth, compute units,
// clock, L2 size, vendor) can predict a device it was never trained on.
// Kernel Tuner caches only name their device, so dltune carries a table of
// the vendors' published specifications for the GPUs of the recorded
// spaces it ships benchmarks for; users add others with a JSON file.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_DEVICE_DEVICESPECS_H
#define DLTUNE_TUNING_DEVICE_DEVICESPECS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::dltune {

struct DeviceSpec {
  std::string name;
  /// Other names the device goes by (a cache's device_name, a file stem).
  std::vector<std::string> aliases;
  double fp32Gflops = 0;   // peak FP32 (vendor's boost-clock figure)
  double memoryGBs = 0;    // DRAM bandwidth
  double computeUnits = 0; // SMs (NVIDIA) or CUs (AMD)
  double clockMhz = 0;     // boost clock
  double l2MB = 0;         // last-level on-chip cache below L1 (L2)
  std::string vendor;      // "nvidia", "amd", ...
};

/// Names of the features getDeviceFeatures returns, in order.
std::vector<std::string> getDeviceFeatureNames();
/// log2 of throughput, bandwidth, units, clock and L2 (speeds scale
/// multiplicatively), and 1 for NVIDIA, 0 otherwise.
std::vector<float> getDeviceFeatures(const DeviceSpec &spec);

/// The built-in table (docs/cost-models.md lists it with its sources).
const std::vector<DeviceSpec> &getKnownDeviceSpecs();

/// The spec whose name or alias matches `name` ignoring case and every
/// character that is not a letter or digit ("NVIDIA GeForce RTX 3090" and
/// "rtx_3090" are the same device), searching `extra` before the table.
std::optional<DeviceSpec> findDeviceSpec(llvm::StringRef name,
                                         const std::vector<DeviceSpec> &extra = {});

/// Reads user specs: a JSON object from device name to {"fp32_gflops",
/// "memory_gbs", "compute_units", "clock_mhz", "l2_mb" (positive numbers),
/// "vendor" (string), "aliases" (optional list of strings)}.
llvm::Expected<std::vector<DeviceSpec>> loadDeviceSpecs(const std::string &path);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_DEVICE_DEVICESPECS_H
