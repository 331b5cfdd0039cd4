//===- GpuKernel.h - Running modules lowered for NVIDIA GPUs ----*- C++ -*-===//
//
// Modules lowered by --dltune-lower-gpu keep their host code as LLVM and call
// the `mgpu*` runtime functions upstream's CUDA wrappers define; Debian ships
// no such library, so dltune provides them over its dlopen'ed CudaDriver and
// hands them to the JIT. Arguments live in device memory (DeviceArguments):
// uploaded once, copied back on request, so callers see host buffers.
//
// Status: never run on a GPU. The host logic (upload once, event timing,
// download) runs in tests against a fake libcuda that only moves host
// memory and executes no kernel (unittests/Execution/FakeCuda.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_GPUKERNEL_H
#define DLTUNE_EXECUTION_GPUKERNEL_H

#include "dltune/Execution/CpuKernel.h"

namespace mlir::dltune {

struct PackedDescriptors;

class GpuKernel {
public:
  ~GpuKernel();
  /// JIT-compiles the host side of a module lowered by --dltune-lower-gpu
  /// and loads its kernels (needs a CUDA driver).
  static llvm::Expected<std::unique_ptr<GpuKernel>> compile(ModuleOp lowered,
                                                            KernelSignature signature);
  /// Copies `args` to the device, calls the entry (which launches the
  /// kernels and waits for them), copies every argument back and the
  /// results out. Driver errors are returned.
  llvm::Error run(std::vector<HostBuffer> &args, std::vector<HostBuffer> *results = nullptr);
  /// Uploads `args` once, makes `warmup` untimed calls, then times `repeat`
  /// calls (at least one) with CUDA events around the launches only; with
  /// `flushBytes`, L2 is flushed before each timed call
  /// (DeviceArguments::setCacheFlushBytes).
  llvm::Expected<TimingStats> time(std::vector<HostBuffer> &args, int warmup, int repeat,
                                   size_t flushBytes = 0);

private:
  GpuKernel() = default;
  void callPacked(PackedDescriptors &descriptors, int64_t *resultWords);
  std::unique_ptr<ExecutionEngine> engine;
  KernelSignature signature;
  void (*packed)(void **) = nullptr;
};

/// Calls a kernel entry with descriptors (pointing at device memory) and
/// storage for result descriptors.
using PackedCall = llvm::function_ref<void(PackedDescriptors &, int64_t *)>;

/// Kernel arguments resident in device memory: uploaded once, used by as
/// many calls as needed, copied back on request. Timed calls are bracketed
/// by CUDA events on the stream the entry launches its kernels on (the
/// mgpu* runtime hands the entry that stream while a DeviceArguments is
/// timing), so copies and allocations never count.
class DeviceArguments {
public:
  ~DeviceArguments();
  static llvm::Expected<std::unique_ptr<DeviceArguments>>
  upload(const KernelSignature &signature, std::vector<HostBuffer> &args);
  /// Calls the entry once and waits; the first driver error is returned.
  llvm::Error call(PackedCall call);
  /// Like call; returns the milliseconds between the events recorded before
  /// and after it.
  llvm::Expected<double> timedCall(PackedCall call);
  /// From now on each timed call starts with `bytes` of a device buffer of
  /// their own written on the timing stream before the first event (untimed),
  /// which evicts the kernels' data from L2 (0: timed hot, the default).
  void setCacheFlushBytes(size_t bytes) { flushBytes = bytes; }
  /// Twice the GPU's L2 cache, at least 32 MiB (256 MiB where the driver
  /// does not say): what setCacheFlushBytes is given for "caches flushed".
  static size_t getDefaultFlushBytes();
  /// Copies every argument back into `args`, and the results of the last
  /// call - arguments, or contiguous buffers the entry allocated - into
  /// `results`.
  llvm::Error download(std::vector<HostBuffer> &args, std::vector<HostBuffer> *results);

private:
  DeviceArguments() = default;
  /// Buffers the entry allocated and returned live until the next call (or
  /// the download after it), then go back to the runtime's pool.
  void keepReturnedBuffers();
  void releaseReturnedBuffers();
  std::vector<unsigned long long> returnedBuffers;
  KernelSignature signature;
  std::vector<unsigned long long> device; // CUdeviceptr per argument
  std::vector<size_t> bytes;
  std::unique_ptr<PackedDescriptors> descriptors;
  std::vector<int64_t> resultWords;
  void *stream = nullptr, *start = nullptr, *stop = nullptr;
  size_t flushBytes = 0;
  unsigned long long flushBuffer = 0; // allocated at the first flushed call
  size_t flushBufferBytes = 0;
  unsigned flushValue = 0;
};

/// Uploads `args`, calls once, copies every argument back and the results
/// out: DeviceArguments for a single call. Used by JIT'd and shared-object
/// GPU kernels alike.
llvm::Error runWithDeviceBuffers(const KernelSignature &signature,
                                 std::vector<HostBuffer> &args,
                                 std::vector<HostBuffer> *results, PackedCall call);

/// The first CUDA error an mgpu* call met since the last call (and clears
/// it); success when there was none.
llvm::Error takeGpuRuntimeError();

/// Frees what the runtime keeps for lowered host code: pooled buffers, the
/// device copies of constants and of tensor maps (GpuKernel's destructor
/// calls it).
void releaseGpuRuntimeMemory();

/// Bytes of a CUDA tensor map (CUtensorMap).
inline constexpr size_t kTensorMapBytes = 128;

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_GPUKERNEL_H
