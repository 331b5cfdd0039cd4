//===- GpuKernel.h - Running modules lowered for NVIDIA GPUs ----*- C++ -*-===//
//
// Modules lowered by --dltune-lower-gpu keep their host code as LLVM and call
// the `mgpu*` runtime functions upstream's CUDA wrappers define; Debian ships
// no such library, so dltune provides them over its dlopen'ed CudaDriver and
// hands them to the JIT. Arguments live in device memory for the call:
// copied in before, copied back after, so callers see host buffers.
//
// Status: the lowering and the runner build and run their error paths here;
// running on a real GPU has not been verified yet (no GPU in this task).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_GPUKERNEL_H
#define DLTUNE_EXECUTION_GPUKERNEL_H

#include "dltune/Execution/CpuKernel.h"

namespace mlir::dltune {

class GpuKernel {
public:
  ~GpuKernel();
  /// JIT-compiles the host side of a module lowered by --dltune-lower-gpu
  /// and loads its kernels (needs a CUDA driver).
  static llvm::Expected<std::unique_ptr<GpuKernel>> compile(ModuleOp lowered,
                                                            KernelSignature signature);
  /// Copies `args` to the device, calls the entry (which launches the
  /// kernels and waits for them), copies every argument back and the
  /// results (which must alias arguments) out. Driver errors are returned.
  llvm::Error run(std::vector<HostBuffer> &args, std::vector<HostBuffer> *results = nullptr);

private:
  GpuKernel() = default;
  std::unique_ptr<ExecutionEngine> engine;
  KernelSignature signature;
  void (*packed)(void **) = nullptr;
};

struct PackedDescriptors;

/// Copies `args` into device memory, lets `call` run the entry with
/// descriptors pointing there (and storage for result descriptors), waits,
/// copies every argument back and copies the results - which must alias
/// arguments - out. Used by JIT'd and shared-object GPU kernels alike.
llvm::Error runWithDeviceBuffers(const KernelSignature &signature,
                                 std::vector<HostBuffer> &args,
                                 std::vector<HostBuffer> *results,
                                 llvm::function_ref<void(PackedDescriptors &, int64_t *)> call);

/// The first CUDA error an mgpu* call met since the last call (and clears
/// it); success when there was none.
llvm::Error takeGpuRuntimeError();

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_GPUKERNEL_H
