//===- CudaDriver.cpp - CUDA driver API loaded at run time ----------------===//

#include "dltune/Execution/CudaDriver.h"
#include "dltune/Tuning/Support/Error.h"

#include <dlfcn.h>
#include <mutex>

using namespace mlir::dltune;

llvm::Error CudaDriver::check(CUresult result, const char *what) {
  if (result == 0)
    return llvm::Error::success();
  const char *text = nullptr;
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  return makeError(llvm::Twine(what) + " failed: CUDA error " +
                   llvm::Twine(result) + (text ? llvm::Twine(" (") + text + ")" : ""));
}

llvm::Error CudaDriver::load() {
  const char *path = std::getenv("DLTUNE_CUDA_DRIVER");
  handle = dlopen(path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return makeError("no CUDA driver: cannot load " +
                     llvm::Twine(path ? path : "libcuda.so.1") +
                     " (is an NVIDIA driver installed?)");
  bool missing = false;
  std::string missingName;
  auto bind = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
    if (!fn && !missing) {
      missing = true;
      missingName = name;
    }
  };
  bind(cuInit, "cuInit");
  bind(cuDeviceGet, "cuDeviceGet");
  bind(cuDeviceGetCount, "cuDeviceGetCount");
  bind(cuDeviceGetName, "cuDeviceGetName");
  bind(cuDeviceGetAttribute, "cuDeviceGetAttribute");
  bind(cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  bind(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(cuCtxSetCurrent, "cuCtxSetCurrent");
  bind(cuCtxSynchronize, "cuCtxSynchronize");
  bind(cuModuleLoadData, "cuModuleLoadData");
  bind(cuModuleUnload, "cuModuleUnload");
  bind(cuModuleGetFunction, "cuModuleGetFunction");
  bind(cuLaunchKernel, "cuLaunchKernel");
  bind(cuFuncSetAttribute, "cuFuncSetAttribute");
  bind(cuStreamCreate, "cuStreamCreate");
  bind(cuStreamSynchronize, "cuStreamSynchronize");
  bind(cuStreamDestroy, "cuStreamDestroy_v2");
  bind(cuMemAlloc, "cuMemAlloc_v2");
  bind(cuMemFree, "cuMemFree_v2");
  bind(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  bind(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  bind(cuMemcpy, "cuMemcpy");
  bind(cuMemsetD32, "cuMemsetD32_v2");
  bind(cuMemsetD32Async, "cuMemsetD32Async");
  bind(cuEventCreate, "cuEventCreate");
  bind(cuEventRecord, "cuEventRecord");
  bind(cuEventSynchronize, "cuEventSynchronize");
  bind(cuEventElapsedTime, "cuEventElapsedTime");
  bind(cuEventDestroy, "cuEventDestroy_v2");
  bind(cuGetErrorString, "cuGetErrorString");
  if (missing)
    return makeError("CUDA driver lacks " + llvm::Twine(missingName));
  // Drivers before CUDA 12 have no tensor maps; only warpgroup kernels ask.
  cuTensorMapEncodeTiled = reinterpret_cast<decltype(cuTensorMapEncodeTiled)>(
      dlsym(handle, "cuTensorMapEncodeTiled"));
  if (missing)
    return makeError("CUDA driver lacks " + llvm::Twine(missingName));
  if (llvm::Error err = check(cuInit(0), "cuInit"))
    return err; // the toolkit's stub library answers 34 here
  int count = 0;
  if (llvm::Error err = check(cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return err;
  if (count == 0)
    return makeError("the CUDA driver reports no GPU");
  CUdevice dev;
  if (llvm::Error err = check(cuDeviceGet(&dev, 0), "cuDeviceGet"))
    return err;
  if (llvm::Error err = check(cuDevicePrimaryCtxRetain(&context, dev),
                              "cuDevicePrimaryCtxRetain"))
    return err;
  return check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

llvm::Expected<CudaDriver &> CudaDriver::get() {
  static CudaDriver driver;
  static std::once_flag once;
  static std::string loadError;
  std::call_once(once, [] {
    if (llvm::Error err = driver.load())
      loadError = llvm::toString(std::move(err));
  });
  if (!loadError.empty())
    return makeError(loadError);
  return driver;
}

llvm::Expected<GpuDeviceInfo> CudaDriver::getDeviceInfo(int device) {
  CUdevice dev;
  if (llvm::Error err = check(cuDeviceGet(&dev, device), "cuDeviceGet"))
    return std::move(err);
  GpuDeviceInfo info;
  char name[256] = {0};
  if (llvm::Error err = check(cuDeviceGetName(name, sizeof(name), dev),
                              "cuDeviceGetName"))
    return std::move(err);
  info.name = name;
  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR, MULTIPROCESSOR_COUNT.
  cuDeviceGetAttribute(&info.computeMajor, 75, dev);
  cuDeviceGetAttribute(&info.computeMinor, 76, dev);
  cuDeviceGetAttribute(&info.multiprocessors, 16, dev);
  cuDeviceTotalMem(&info.totalMemoryBytes, dev);
  return info;
}

llvm::Expected<GpuLimits> CudaDriver::getDeviceLimits(int device) {
  CUdevice dev;
  if (llvm::Error err = check(cuDeviceGet(&dev, device), "cuDeviceGet"))
    return std::move(err);
  GpuLimits limits;
  struct Attr {
    int id;
    int64_t *dst;
  };
  // CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, MAX_REGISTERS_PER_BLOCK,
  // MAX_SHARED_MEMORY_PER_BLOCK, MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
  // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN.
  for (Attr a : {Attr{1, &limits.maxThreadsPerBlock}, Attr{12, &limits.maxRegistersPerBlock},
                 Attr{8, &limits.maxStaticSharedBytesPerBlock},
                 Attr{81, &limits.maxSharedBytesPerMultiprocessor},
                 Attr{97, &limits.maxSharedBytesPerBlockOptIn}}) {
    int v = 0;
    if (llvm::Error err = check(cuDeviceGetAttribute(&v, a.id, dev), "cuDeviceGetAttribute"))
      return std::move(err);
    if (v > 0)
      *a.dst = v;
  }
  return limits;
}

llvm::Expected<size_t> CudaDriver::getL2CacheBytes(int device) {
  CUdevice dev;
  if (llvm::Error err = check(cuDeviceGet(&dev, device), "cuDeviceGet"))
    return std::move(err);
  int bytes = 0; // CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE
  if (llvm::Error err = check(cuDeviceGetAttribute(&bytes, 38, dev), "cuDeviceGetAttribute"))
    return std::move(err);
  return static_cast<size_t>(std::max(bytes, 0));
}

GpuTarget mlir::dltune::selectGpuTarget(llvm::StringRef chip) {
  GpuTarget target;
  target.origin = "default";
  if (llvm::Expected<CudaDriver &> driver = CudaDriver::get()) {
    llvm::Expected<GpuDeviceInfo> info = driver->getDeviceInfo(0);
    if (info && info->computeMajor > 0) {
      target.chip =
          "sm_" + std::to_string(info->computeMajor) + std::to_string(info->computeMinor);
      target.origin = "driver";
    } else if (!info) {
      llvm::consumeError(info.takeError());
    }
    if (llvm::Expected<GpuLimits> limits = driver->getDeviceLimits(0))
      target.limits = *limits;
    else
      llvm::consumeError(limits.takeError());
  } else {
    llvm::consumeError(driver.takeError());
  }
  if (!chip.empty()) {
    target.chip = chip.str();
    target.origin = "option";
  }
  return target;
}
