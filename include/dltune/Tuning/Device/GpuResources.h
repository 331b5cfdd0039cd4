//===- GpuResources.h - What a GPU kernel uses, and device limits -*- C++ -*-===//
//
// ptxas reports, per kernel, the registers per thread, static shared memory,
// stack frame and spill traffic (`ptxas -v`). dltune records them with every
// GPU build (a cost-model feature, and a database field) and rejects
// configurations whose kernels cannot be launched on the device before they
// are measured. MLIR-free: the log parser and the limit check are plain C++.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_DEVICE_GPURESOURCES_H
#define DLTUNE_TUNING_DEVICE_GPURESOURCES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::dltune {

/// One kernel, as ptxas compiled it for one chip.
struct GpuKernelResources {
  std::string kernel;
  int64_t registers = 0;        // per thread
  int64_t sharedBytes = 0;      // static shared memory per block
  int64_t stackBytes = 0;       // stack frame per thread (local memory)
  int64_t spillStoreBytes = 0;  // per thread
  int64_t spillLoadBytes = 0;   // per thread
  int64_t barriers = 0;         // named barriers used
  int64_t threadsPerBlock = 0;  // from the launch; 0 when unknown
  /// Dynamic shared memory per block, from the launch (tiles above 48 KiB;
  /// ptxas does not see it).
  int64_t dynamicSharedBytes = 0;
};

/// What a device allows per block and per thread. Defaults: compute
/// capability 9.0 (H100/H200), used when no driver reports the device.
struct GpuLimits {
  int64_t maxRegistersPerThread = 255;
  int64_t maxRegistersPerBlock = 65536;
  int64_t maxStaticSharedBytesPerBlock = 48 * 1024;
  /// Static plus dynamic shared memory a block may opt into.
  int64_t maxSharedBytesPerBlockOptIn = 227 * 1024;
  int64_t maxSharedBytesPerMultiprocessor = 228 * 1024;
  int64_t maxThreadsPerBlock = 1024;
};

/// "threads=1024,registers_per_thread=255,registers_per_block=65536,
/// shared_per_block=49152,shared_optin_per_block=232448,shared_per_sm=233472": how the tuner hands a
/// device's limits to its build workers. Parsing accepts any subset (the
/// rest keep their defaults) and rejects unknown names and non-positive
/// values.
std::string formatGpuLimits(const GpuLimits &limits);
llvm::Expected<GpuLimits> parseGpuLimits(llvm::StringRef text);

/// Parses the output of `ptxas -v` (one entry per compiled entry function,
/// in order). Fails when the log names a function but not its usage.
llvm::Expected<std::vector<GpuKernelResources>>
parsePtxasVerboseLog(llvm::StringRef log);

/// Registers a block occupies: the hardware allocates them per warp in units
/// of 256.
int64_t getRegistersPerBlock(const GpuKernelResources &kernel);

/// Success, or an error that names the kernel, what it uses and the limit
/// it exceeds (registers per thread and per block, static shared memory per
/// block and per multiprocessor, threads per block).
llvm::Error checkGpuLimits(const GpuKernelResources &kernel, const GpuLimits &limits);
llvm::Error checkGpuLimits(const std::vector<GpuKernelResources> &kernels,
                           const GpuLimits &limits);

/// JSON: [{"kernel": ..., "registers": ..., "shared_bytes": ..., ...}, ...].
llvm::json::Array toJSON(const std::vector<GpuKernelResources> &kernels);
llvm::Expected<std::vector<GpuKernelResources>>
gpuResourcesFromJSON(const llvm::json::Value &value);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_DEVICE_GPURESOURCES_H
