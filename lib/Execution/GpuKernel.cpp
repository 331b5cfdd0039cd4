//===- GpuKernel.cpp - Running modules lowered for NVIDIA GPUs ------------===//

#include "dltune/Execution/GpuKernel.h"
#include "dltune/Execution/CudaDriver.h"
#include "dltune/Execution/MemRefDescriptors.h"
#include "dltune/Transforms/GpuHostMemory.h"
#include "dltune/Tuning/Device/GpuResources.h"
#include "dltune/Tuning/Support/Error.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"

#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace mlir;
using namespace mlir::dltune;

//===----------------------------------------------------------------------===//
// mgpu* runtime over CudaDriver. Called from JIT'd host code, which cannot
// take errors back: the first error is kept and reported after the call.
//===----------------------------------------------------------------------===//

namespace {
std::mutex errorMutex;
std::string firstError;

CudaDriver *driverOrNull() {
  llvm::Expected<CudaDriver &> d = CudaDriver::get();
  if (!d) {
    std::string msg = llvm::toString(d.takeError());
    std::lock_guard<std::mutex> lock(errorMutex);
    if (firstError.empty())
      firstError = msg;
    return nullptr;
  }
  return &*d;
}

void note(CudaDriver &d, int result, const char *what) {
  if (llvm::Error e = d.check(result, what)) {
    std::string msg = llvm::toString(std::move(e));
    std::lock_guard<std::mutex> lock(errorMutex);
    if (firstError.empty())
      firstError = msg;
  }
}

void noteError(const char *msg) {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (firstError.empty())
    firstError = msg;
}
} // namespace

// The names upstream's lowering calls. Exported: JIT'd host code gets them
// through registerSymbols, and kernels built into shared objects resolve
// them against the dltune executable (linked with --export-dynamic).
#define DLTUNE_GPU_EXPORT extern "C" __attribute__((visibility("default")))

DLTUNE_GPU_EXPORT void *mgpuModuleLoad(void *data, size_t) {
  CudaDriver *d = driverOrNull();
  void *module = nullptr;
  if (d)
    note(*d, d->cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

// PTX: the driver JIT-compiles it (optimisation level left to the driver).
DLTUNE_GPU_EXPORT void *mgpuModuleLoadJIT(void *data, int, size_t) {
  return mgpuModuleLoad(data, 0);
}

DLTUNE_GPU_EXPORT void mgpuModuleUnload(void *module) {
  if (CudaDriver *d = driverOrNull(); d && module)
    note(*d, d->cuModuleUnload(module), "cuModuleUnload");
}

DLTUNE_GPU_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  CudaDriver *d = driverOrNull();
  void *fn = nullptr;
  if (d && module)
    note(*d, d->cuModuleGetFunction(&fn, module, name), "cuModuleGetFunction");
  else if (d)
    noteError("no GPU module to take a kernel from (the module failed to load)");
  return fn;
}

// While DeviceArguments times a call, every launch goes to its stream, on
// which the timing events are recorded; the entry's own create/destroy
// calls leave that stream alone.
namespace {
std::atomic<void *> pinnedStream{nullptr};
} // namespace

DLTUNE_GPU_EXPORT void *mgpuStreamCreate() {
  if (void *pinned = pinnedStream.load())
    return pinned;
  CudaDriver *d = driverOrNull();
  void *stream = nullptr;
  if (d)
    note(*d, d->cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1), "cuStreamCreate");
  return stream;
}

DLTUNE_GPU_EXPORT void mgpuStreamDestroy(void *stream) {
  if (stream && stream == pinnedStream.load())
    return;
  if (CudaDriver *d = driverOrNull(); d && stream)
    note(*d, d->cuStreamDestroy(stream), "cuStreamDestroy");
}

DLTUNE_GPU_EXPORT void mgpuStreamSynchronize(void *stream) {
  if (CudaDriver *d = driverOrNull(); d && stream)
    note(*d, d->cuStreamSynchronize(stream), "cuStreamSynchronize");
}

DLTUNE_GPU_EXPORT void mgpuLaunchKernel(void *function, intptr_t gx, intptr_t gy, intptr_t gz,
                                   intptr_t bx, intptr_t by, intptr_t bz, int32_t smem,
                                   void *stream, void **params, void **extra, size_t) {
  CudaDriver *d = driverOrNull();
  if (!d)
    return;
  if (!function) {
    noteError("kernel launch without a kernel (its module failed to load)");
    return;
  }
  // Dynamic shared memory above the 48 KiB a block may have without asking
  // is an opt-in of each kernel (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8).
  if (smem > GpuLimits().maxStaticSharedBytesPerBlock)
    note(*d, d->cuFuncSetAttribute(function, 8, smem), "cuFuncSetAttribute");
  note(*d, d->cuLaunchKernel(function, gx, gy, gz, bx, by, bz, smem, stream, params, extra),
       "cuLaunchKernel");
}

// Device memory of the lowered host code: its buffers (gpu.alloc; a
// model's intermediate tensors) and the device copies of its constants.
// Freed buffers are kept for the next allocation of the same size, so that
// a model's second and later calls allocate nothing (cuMemAlloc costs
// microseconds, and a model allocates ~100 buffers a call); constants are
// uploaded once. releaseGpuRuntimeMemory() gives it all back.
namespace {
struct DeviceMemoryPool {
  std::mutex mutex;
  std::multimap<uint64_t, CudaDriver::CUdeviceptr> freeBlocks; // by size
  std::unordered_map<CudaDriver::CUdeviceptr, uint64_t> liveBlocks;
  // Host address of a constant -> its device copy and size.
  std::unordered_map<const void *, std::pair<CudaDriver::CUdeviceptr, int64_t>> constants;
};
DeviceMemoryPool &getPool() {
  static DeviceMemoryPool pool;
  return pool;
}

/// Puts a block of the pool back for reuse; false if `ptr` is not one.
bool returnToPool(CudaDriver::CUdeviceptr ptr) {
  DeviceMemoryPool &pool = getPool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  auto it = pool.liveBlocks.find(ptr);
  if (it == pool.liveBlocks.end())
    return false;
  pool.freeBlocks.emplace(it->second, ptr);
  pool.liveBlocks.erase(it);
  return true;
}

/// A new device buffer holding `bytes` of `host`, or 0 after noting the
/// error (nothing is kept). A copy from pageable memory may return before
/// the data has arrived, and the kernels run on non-blocking streams, which
/// do not wait for it: this waits, once per upload (a constant, a tensor
/// map).
CudaDriver::CUdeviceptr uploadAndWait(CudaDriver &d, const void *host, size_t bytes) {
  CudaDriver::CUdeviceptr ptr = 0;
  note(d, d.cuMemAlloc(&ptr, std::max<size_t>(bytes, 4)), "cuMemAlloc");
  if (!ptr)
    return 0;
  int copied = d.cuMemcpyHtoD(ptr, host, bytes);
  int synced = copied == 0 ? d.cuCtxSynchronize() : copied;
  if (copied != 0 || synced != 0) {
    note(d, copied != 0 ? copied : synced, copied != 0 ? "cuMemcpyHtoD" : "cuCtxSynchronize");
    d.cuMemFree(ptr);
    return 0;
  }
  return ptr;
}
} // namespace

DLTUNE_GPU_EXPORT void *mgpuMemAlloc(uint64_t bytes, void *, bool) {
  DeviceMemoryPool &pool = getPool();
  {
    std::lock_guard<std::mutex> lock(pool.mutex);
    auto it = pool.freeBlocks.find(bytes);
    if (it != pool.freeBlocks.end()) {
      CudaDriver::CUdeviceptr ptr = it->second;
      pool.freeBlocks.erase(it);
      pool.liveBlocks[ptr] = bytes;
      return reinterpret_cast<void *>(ptr);
    }
  }
  CudaDriver *d = driverOrNull();
  CudaDriver::CUdeviceptr ptr = 0;
  if (!d)
    return nullptr;
  note(*d, d->cuMemAlloc(&ptr, std::max<uint64_t>(bytes, 4)), "cuMemAlloc");
  if (ptr) {
    std::lock_guard<std::mutex> lock(pool.mutex);
    pool.liveBlocks[ptr] = bytes;
  }
  return reinterpret_cast<void *>(ptr);
}

DLTUNE_GPU_EXPORT void mgpuMemFree(void *ptr, void *) {
  auto p = reinterpret_cast<CudaDriver::CUdeviceptr>(ptr);
  if (!ptr || returnToPool(p))
    return;
  if (CudaDriver *d = driverOrNull())
    note(*d, d->cuMemFree(p), "cuMemFree");
}

DLTUNE_GPU_EXPORT void *dltuneDeviceConstant(void *host, int64_t bytes) {
  DeviceMemoryPool &pool = getPool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  auto it = pool.constants.find(host);
  if (it != pool.constants.end() && it->second.second == bytes)
    return reinterpret_cast<void *>(it->second.first);
  CudaDriver *d = driverOrNull();
  if (!d)
    return nullptr;
  CudaDriver::CUdeviceptr ptr = uploadAndWait(*d, host, static_cast<size_t>(bytes));
  if (!ptr)
    return nullptr;
  if (it != pool.constants.end())
    d->cuMemFree(it->second.first);
  pool.constants[host] = {ptr, bytes};
  return reinterpret_cast<void *>(ptr);
}

// Tensor maps of the warpgroup MMA kernels (nvgpu.tma.create.descriptor's
// lowering calls this with a ranked memref descriptor of device memory). A
// kernel reads its map from device memory, so each distinct map is copied
// there once and kept: a model's second and later calls create the same
// maps (same buffers from the pool) and copy nothing. Upstream's runtime
// allocates and copies one per call and never frees it.
namespace {
struct TensorMapCache {
  std::mutex mutex;
  std::map<std::array<unsigned char, kTensorMapBytes>, CudaDriver::CUdeviceptr> deviceCopies;
};
TensorMapCache &getTensorMapCache() {
  static TensorMapCache cache;
  return cache;
}
/// Bytes of CUtensorMapDataType's element types (CUDA's enum order).
int64_t tensorMapElementBytes(int64_t dataType) {
  static constexpr int64_t bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return dataType >= 0 && dataType < 13 ? bytes[dataType] : 0;
}
} // namespace

DLTUNE_GPU_EXPORT void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *rankedDescriptor,
                                                       int64_t dataType, int64_t interleave,
                                                       int64_t swizzle, int64_t l2Promotion,
                                                       int64_t oobFill, int64_t *boxDims) {
  CudaDriver *d = driverOrNull();
  if (!d)
    return nullptr;
  if (!d->cuTensorMapEncodeTiled) {
    noteError("the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or later is needed for "
              "warpgroup MMA kernels)");
    return nullptr;
  }
  int64_t elemBytes = tensorMapElementBytes(dataType);
  if (rank < 1 || rank > 5 || elemBytes == 0) {
    noteError("tensor map of an unsupported rank or element type");
    return nullptr;
  }
  // {allocated, aligned, offset, sizes[rank], strides[rank]}; CUDA lists
  // dimensions innermost first, and strides (bytes) of all but the first.
  auto *fields = static_cast<int64_t *>(rankedDescriptor);
  auto *aligned = reinterpret_cast<char *>(fields[1]);
  const int64_t *sizes = fields + 3, *strides = fields + 3 + rank;
  unsigned long long globalDim[5], globalStrides[4];
  unsigned boxDim[5], elementStrides[5];
  for (int64_t i = 0; i < rank; ++i) {
    globalDim[i] = static_cast<unsigned long long>(sizes[rank - 1 - i]);
    boxDim[i] = static_cast<unsigned>(boxDims[rank - 1 - i]);
    elementStrides[i] = 1;
  }
  for (int64_t i = 0; i + 1 < rank; ++i)
    globalStrides[i] = static_cast<unsigned long long>(strides[rank - 2 - i] * elemBytes);
  alignas(128) std::array<unsigned char, kTensorMapBytes> map{};
  int result = d->cuTensorMapEncodeTiled(
      map.data(), static_cast<int>(dataType), static_cast<unsigned>(rank),
      aligned + fields[2] * elemBytes, globalDim, globalStrides, boxDim, elementStrides,
      static_cast<int>(interleave), static_cast<int>(swizzle), static_cast<int>(l2Promotion),
      static_cast<int>(oobFill));
  if (result != 0) {
    note(*d, result, "cuTensorMapEncodeTiled");
    return nullptr;
  }
  TensorMapCache &cache = getTensorMapCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (auto it = cache.deviceCopies.find(map); it != cache.deviceCopies.end())
    return reinterpret_cast<void *>(it->second);
  CudaDriver::CUdeviceptr copy = uploadAndWait(*d, map.data(), kTensorMapBytes);
  if (!copy)
    return nullptr;
  cache.deviceCopies.emplace(map, copy);
  return reinterpret_cast<void *>(copy);
}

void mlir::dltune::releaseGpuRuntimeMemory() {
  TensorMapCache &cache = getTensorMapCache();
  DeviceMemoryPool &pool = getPool();
  std::scoped_lock lock(cache.mutex, pool.mutex);
  llvm::Expected<CudaDriver &> d = CudaDriver::get();
  if (!d) {
    llvm::consumeError(d.takeError());
    return;
  }
  for (auto &[map, copy] : cache.deviceCopies)
    d->cuMemFree(copy);
  cache.deviceCopies.clear();
  for (auto &[bytes, ptr] : pool.freeBlocks)
    d->cuMemFree(ptr);
  for (auto &[host, copy] : pool.constants)
    d->cuMemFree(copy.first);
  pool.freeBlocks.clear();
  pool.constants.clear();
}

DLTUNE_GPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes, void *) {
  if (CudaDriver *d = driverOrNull())
    note(*d,
         d->cuMemcpy(reinterpret_cast<CudaDriver::CUdeviceptr>(dst),
                     reinterpret_cast<CudaDriver::CUdeviceptr>(src), bytes),
         "cuMemcpy");
}

DLTUNE_GPU_EXPORT void mgpuMemset32(void *dst, unsigned value, size_t count, void *) {
  if (CudaDriver *d = driverOrNull())
    note(*d, d->cuMemsetD32(reinterpret_cast<CudaDriver::CUdeviceptr>(dst), value, count),
         "cuMemsetD32");
}

DLTUNE_GPU_EXPORT void mgpuSetDefaultDevice(int32_t) {}

namespace {
llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap map;
  auto add = [&](const char *name, void *fn) {
    map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                           llvm::JITSymbolFlags::Exported};
  };
  add("mgpuModuleLoad", reinterpret_cast<void *>(&mgpuModuleLoad));
  add("mgpuModuleLoadJIT", reinterpret_cast<void *>(&mgpuModuleLoadJIT));
  add("mgpuModuleUnload", reinterpret_cast<void *>(&mgpuModuleUnload));
  add("mgpuModuleGetFunction", reinterpret_cast<void *>(&mgpuModuleGetFunction));
  add("mgpuStreamCreate", reinterpret_cast<void *>(&mgpuStreamCreate));
  add("mgpuStreamDestroy", reinterpret_cast<void *>(&mgpuStreamDestroy));
  add("mgpuStreamSynchronize", reinterpret_cast<void *>(&mgpuStreamSynchronize));
  add("mgpuLaunchKernel", reinterpret_cast<void *>(&mgpuLaunchKernel));
  add("mgpuMemAlloc", reinterpret_cast<void *>(&mgpuMemAlloc));
  add("mgpuMemFree", reinterpret_cast<void *>(&mgpuMemFree));
  add("mgpuMemcpy", reinterpret_cast<void *>(&mgpuMemcpy));
  add("mgpuMemset32", reinterpret_cast<void *>(&mgpuMemset32));
  add("mgpuSetDefaultDevice", reinterpret_cast<void *>(&mgpuSetDefaultDevice));
  add(kDeviceConstantFunction.data(), reinterpret_cast<void *>(&dltuneDeviceConstant));
  add("mgpuTensorMapEncodeTiledMemref",
      reinterpret_cast<void *>(&mgpuTensorMapEncodeTiledMemref));
  return map;
}
} // namespace

llvm::Error mlir::dltune::takeGpuRuntimeError() {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (firstError.empty())
    return llvm::Error::success();
  std::string msg;
  std::swap(msg, firstError);
  return makeError("GPU runtime: " + msg);
}

//===----------------------------------------------------------------------===//
// GpuKernel
//===----------------------------------------------------------------------===//

// The host addresses of the engine's constants die with it: another
// engine's constants may come to live there.
GpuKernel::~GpuKernel() {
  engine.reset();
  releaseGpuRuntimeMemory();
}

llvm::Expected<std::unique_ptr<GpuKernel>> GpuKernel::compile(ModuleOp lowered,
                                                              KernelSignature signature) {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  prepareForCodegen(lowered.getContext());
  auto transformer = makeOptimizingTransformer(2, 0, nullptr);
  ExecutionEngineOptions options;
  options.transformer = transformer;
  auto engine = ExecutionEngine::create(lowered, options);
  if (!engine)
    return makeError("JIT compilation of the host code failed: " +
                     llvm::toString(engine.takeError()));
  std::unique_ptr<GpuKernel> k(new GpuKernel());
  k->engine = std::move(*engine);
  k->engine->registerSymbols(runtimeSymbols);
  (void)takeGpuRuntimeError();
  k->engine->initialize(); // loads the kernels (global constructors)
  if (llvm::Error e = takeGpuRuntimeError())
    return std::move(e);
  auto fn = k->engine->lookupPacked(signature.name);
  if (!fn)
    return makeError("entry '" + signature.name + "' not found: " +
                     llvm::toString(fn.takeError()));
  k->packed = *fn;
  k->signature = std::move(signature);
  return k;
}

void GpuKernel::callPacked(PackedDescriptors &desc, int64_t *resultWords) {
  std::vector<void *> pointers;
  for (int64_t &w : desc.words)
    pointers.push_back(&w);
  if (!signature.results.empty())
    pointers.push_back(resultWords);
  packed(pointers.data());
}

llvm::Error GpuKernel::run(std::vector<HostBuffer> &args, std::vector<HostBuffer> *results) {
  return runWithDeviceBuffers(signature, args, results,
                              [&](PackedDescriptors &desc, int64_t *resultWords) {
                                callPacked(desc, resultWords);
                              });
}

llvm::Expected<TimingStats> GpuKernel::time(std::vector<HostBuffer> &args, int warmup,
                                            int repeat, size_t flushBytes) {
  llvm::Expected<std::unique_ptr<DeviceArguments>> dev = DeviceArguments::upload(signature, args);
  if (!dev)
    return dev.takeError();
  (*dev)->setCacheFlushBytes(flushBytes);
  auto call = [&](PackedDescriptors &desc, int64_t *resultWords) {
    callPacked(desc, resultWords);
  };
  for (int i = 0; i < warmup; ++i)
    if (llvm::Error e = (*dev)->call(call))
      return std::move(e);
  std::vector<double> times;
  for (int i = 0; i < std::max(1, repeat); ++i) {
    llvm::Expected<double> ms = (*dev)->timedCall(call);
    if (!ms)
      return ms.takeError();
    times.push_back(*ms);
  }
  return summarizeTimes(std::move(times));
}

//===----------------------------------------------------------------------===//
// DeviceArguments
//===----------------------------------------------------------------------===//

DeviceArguments::~DeviceArguments() {
  releaseReturnedBuffers();
  llvm::Expected<CudaDriver &> d = CudaDriver::get();
  if (!d) {
    llvm::consumeError(d.takeError());
    return;
  }
  for (CudaDriver::CUdeviceptr p : device)
    if (p)
      d->cuMemFree(p);
  if (flushBuffer)
    d->cuMemFree(flushBuffer);
  if (start)
    d->cuEventDestroy(start);
  if (stop)
    d->cuEventDestroy(stop);
  if (stream)
    d->cuStreamDestroy(stream);
}

llvm::Expected<std::unique_ptr<DeviceArguments>>
DeviceArguments::upload(const KernelSignature &signature, std::vector<HostBuffer> &args) {
  llvm::Expected<CudaDriver &> driverOr = CudaDriver::get();
  if (!driverOr)
    return driverOr.takeError();
  CudaDriver &d = *driverOr;
  std::unique_ptr<DeviceArguments> dev(new DeviceArguments());
  dev->signature = signature;
  dev->device.assign(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    size_t n = args[i].getType().getBytes();
    dev->bytes.push_back(n);
    if (llvm::Error e = d.check(d.cuMemAlloc(&dev->device[i], std::max<size_t>(n, 4)),
                                "cuMemAlloc"))
      return std::move(e);
    if (llvm::Error e = d.check(d.cuMemcpyHtoD(dev->device[i], args[i].data(), n),
                                "cuMemcpyHtoD"))
      return std::move(e);
  }
  // The copies may return before the data has arrived (pageable memory);
  // the launches go to non-blocking streams, which do not wait for them.
  if (llvm::Error e = d.check(d.cuCtxSynchronize(), "cuCtxSynchronize"))
    return std::move(e);
  llvm::Expected<PackedDescriptors> desc = packArguments(signature, args);
  if (!desc)
    return desc.takeError();
  dev->descriptors = std::make_unique<PackedDescriptors>(std::move(*desc));
  for (size_t i = 0; i < args.size(); ++i) {
    int64_t *words = static_cast<int64_t *>(dev->descriptors->get(i));
    words[0] = words[1] = static_cast<int64_t>(dev->device[i]);
  }
  dev->resultWords.assign(getResultWords(signature), 0);
  return dev;
}

void DeviceArguments::releaseReturnedBuffers() {
  for (CudaDriver::CUdeviceptr p : returnedBuffers)
    returnToPool(p);
  returnedBuffers.clear();
}

void DeviceArguments::keepReturnedBuffers() {
  size_t r = 0;
  for (const BufferType &t : signature.results) {
    auto allocated = static_cast<CudaDriver::CUdeviceptr>(resultWords[r]);
    auto aligned = static_cast<CudaDriver::CUdeviceptr>(resultWords[r + 1]);
    if (std::find(device.begin(), device.end(), aligned) == device.end())
      returnedBuffers.push_back(allocated);
    r += 3 + 2 * t.shape.size();
  }
}

llvm::Error DeviceArguments::call(PackedCall call) {
  llvm::Expected<CudaDriver &> d = CudaDriver::get();
  if (!d)
    return d.takeError();
  (void)takeGpuRuntimeError();
  releaseReturnedBuffers();
  call(*descriptors, resultWords.data());
  keepReturnedBuffers();
  if (llvm::Error e = takeGpuRuntimeError())
    return e;
  return d->check(d->cuCtxSynchronize(), "cuCtxSynchronize");
}

llvm::Expected<double> DeviceArguments::timedCall(PackedCall call) {
  llvm::Expected<CudaDriver &> driverOr = CudaDriver::get();
  if (!driverOr)
    return driverOr.takeError();
  CudaDriver &d = *driverOr;
  if (!stream) {
    if (llvm::Error e = d.check(d.cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1),
                                "cuStreamCreate"))
      return std::move(e);
    if (llvm::Error e = d.check(d.cuEventCreate(&start, /*CU_EVENT_DEFAULT=*/0), "cuEventCreate"))
      return std::move(e);
    if (llvm::Error e = d.check(d.cuEventCreate(&stop, 0), "cuEventCreate"))
      return std::move(e);
  }
  if (flushBytes && flushBufferBytes != flushBytes) {
    if (flushBuffer)
      d.cuMemFree(flushBuffer);
    flushBuffer = 0;
    flushBufferBytes = 0;
    if (llvm::Error e = d.check(d.cuMemAlloc(&flushBuffer, flushBytes), "cuMemAlloc"))
      return std::move(e);
    flushBufferBytes = flushBytes;
  }
  // Written before the first event, on the same stream: the kernels start
  // with L2 holding this buffer's lines, not their data, as inside a model
  // whose earlier ops moved more than L2 holds. A new value each call, so
  // no write can be skipped. (The evicted lines are dirty: a kernel whose
  // reads push them out pays their write-back, as it would in a model.)
  if (flushBytes)
    if (llvm::Error e = d.check(d.cuMemsetD32Async(flushBuffer, ++flushValue,
                                                   flushBufferBytes / 4, stream),
                                "cuMemsetD32Async"))
      return std::move(e);
  (void)takeGpuRuntimeError();
  releaseReturnedBuffers();
  pinnedStream.store(stream);
  llvm::Error e = d.check(d.cuEventRecord(start, stream), "cuEventRecord");
  if (!e) {
    call(*descriptors, resultWords.data());
    keepReturnedBuffers();
    e = d.check(d.cuEventRecord(stop, stream), "cuEventRecord");
  }
  pinnedStream.store(nullptr);
  if (e)
    return std::move(e);
  if (llvm::Error err = takeGpuRuntimeError())
    return std::move(err);
  if (llvm::Error err = d.check(d.cuEventSynchronize(stop), "cuEventSynchronize"))
    return std::move(err);
  float ms = 0;
  if (llvm::Error err = d.check(d.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime"))
    return std::move(err);
  return static_cast<double>(ms);
}

size_t DeviceArguments::getDefaultFlushBytes() {
  constexpr size_t kMiB = size_t(1) << 20;
  size_t l2 = 0;
  if (llvm::Expected<CudaDriver &> d = CudaDriver::get()) {
    if (llvm::Expected<size_t> bytes = d->getL2CacheBytes(0))
      l2 = *bytes;
    else
      llvm::consumeError(bytes.takeError());
  } else {
    llvm::consumeError(d.takeError());
  }
  return l2 ? std::max(2 * l2, 32 * kMiB) : 256 * kMiB;
}

llvm::Error DeviceArguments::download(std::vector<HostBuffer> &args,
                                      std::vector<HostBuffer> *results) {
  llvm::Expected<CudaDriver &> driverOr = CudaDriver::get();
  if (!driverOr)
    return driverOr.takeError();
  CudaDriver &d = *driverOr;
  for (size_t i = 0; i < args.size() && i < device.size(); ++i)
    if (llvm::Error e = d.check(d.cuMemcpyDtoH(args[i].data(), device[i], bytes[i]),
                                "cuMemcpyDtoH"))
      return e;
  // A result is an argument (destination-passing style) or a buffer the
  // entry allocated (a model's output), copied out here.
  size_t r = 0;
  for (const BufferType &t : signature.results) {
    auto aligned = static_cast<CudaDriver::CUdeviceptr>(resultWords[r + 1]);
    int64_t offset = resultWords[r + 2];
    size_t rank = t.shape.size();
    auto it = std::find(device.begin(), device.end(), aligned);
    if (it != device.end()) {
      if (offset != 0)
        return makeError("GPU entry returned a view into an argument; it must return the "
                         "whole argument or a buffer of its own");
      if (results)
        results->push_back(HostBuffer(args[it - device.begin()]));
    } else {
      int64_t expected = 1;
      for (size_t i = rank; i-- > 0;) {
        if (t.shape[i] != 1 && resultWords[r + 3 + rank + i] != expected)
          return makeError("GPU entry returned a strided view; only contiguous results can be "
                           "copied out");
        expected *= t.shape[i];
      }
      HostBuffer out(t);
      if (llvm::Error e = d.check(d.cuMemcpyDtoH(out.data(),
                                                 aligned + offset * t.getElementBytes(),
                                                 t.getBytes()),
                                  "cuMemcpyDtoH"))
        return e;
      if (results)
        results->push_back(std::move(out));
    }
    r += 3 + 2 * rank;
  }
  return llvm::Error::success();
}

llvm::Error mlir::dltune::runWithDeviceBuffers(const KernelSignature &signature,
                                               std::vector<HostBuffer> &args,
                                               std::vector<HostBuffer> *results,
                                               PackedCall call) {
  llvm::Expected<std::unique_ptr<DeviceArguments>> dev = DeviceArguments::upload(signature, args);
  if (!dev)
    return dev.takeError();
  if (llvm::Error e = (*dev)->call(call))
    return e;
  return (*dev)->download(args, results);
}
