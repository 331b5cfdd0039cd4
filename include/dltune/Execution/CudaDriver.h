//===- CudaDriver.h - CUDA driver API loaded at run time --------*- C++ -*-===//
//
// dltune never links against libcuda: the driver is opened with dlopen the
// first time it is needed, so the build, the tests and CPU tuning work on
// machines without a GPU, and GPU commands fail there with a clear error.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_CUDADRIVER_H
#define DLTUNE_EXECUTION_CUDADRIVER_H

#include "dltune/Tuning/Device/GpuResources.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <string>

namespace mlir::dltune {

/// What the GPU is, for reports and device fingerprints.
struct GpuDeviceInfo {
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int multiprocessors = 0;
  size_t totalMemoryBytes = 0;
};

class CudaDriver {
public:
  /// The process-wide driver, loaded and initialised on first use; fails
  /// with a message naming the missing library or the cuInit error.
  static llvm::Expected<CudaDriver &> get();

  llvm::Expected<GpuDeviceInfo> getDeviceInfo(int device = 0);
  /// Threads, registers and shared memory per block (and per SM) of a GPU.
  llvm::Expected<GpuLimits> getDeviceLimits(int device = 0);
  /// Bytes of the GPU's L2 cache (0 where the driver does not say).
  llvm::Expected<size_t> getL2CacheBytes(int device = 0);

  using CUresult = int;
  using CUdevice = int;
  using CUcontext = void *;
  using CUmodule = void *;
  using CUfunction = void *;
  using CUstream = void *;
  using CUevent = void *;
  using CUdeviceptr = unsigned long long;

  // Driver entry points (v2 variants where CUDA has them).
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **) = nullptr;
  /// Used to let a kernel have more than 48 KiB of dynamic shared memory.
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuStreamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemcpy)(CUdeviceptr, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemsetD32)(CUdeviceptr, unsigned, size_t) = nullptr;
  /// Used to evict the L2 cache before a timed call, on the timing stream.
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream) = nullptr;
  CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;
  /// Null where the driver has none (before CUDA 12): the warpgroup MMA
  /// kernels' tensor maps (CUtensorMap, 128 bytes) are encoded with it.
  CUresult (*cuTensorMapEncodeTiled)(void *tensorMap, int dataType, unsigned rank,
                                     void *globalAddress, const unsigned long long *globalDim,
                                     const unsigned long long *globalStrides,
                                     const unsigned *boxDim, const unsigned *elementStrides,
                                     int interleave, int swizzle, int l2Promotion,
                                     int oobFill) = nullptr;

  /// Turns a driver result into an llvm::Error naming `what`.
  llvm::Error check(CUresult result, const char *what);

private:
  CudaDriver() = default;
  llvm::Error load();
  void *handle = nullptr;
  CUcontext context = nullptr;
};

/// What GPU code is built for and checked against.
struct GpuTarget {
  std::string chip = "sm_90";
  GpuLimits limits;
  std::string origin; // "option", "driver" or "default" (for the chip)
};

/// The chip: `chip` when given; else the compute capability of the first
/// GPU the driver reports (sm_<major><minor>); else sm_90. The limits: the
/// driver's when there is one, else those of compute capability 9.0.
GpuTarget selectGpuTarget(llvm::StringRef chip);
inline std::string selectGpuChip(llvm::StringRef chip) { return selectGpuTarget(chip).chip; }

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_CUDADRIVER_H
