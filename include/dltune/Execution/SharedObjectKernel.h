//===- SharedObjectKernel.h - Kernels built into shared objects -*- C++ -*-===//
//
// The tuner's builder turns a scheduled module into a shared object (apply,
// lower, LLVM -O3 for the host CPU, link with libomp), so that builds can
// run in parallel worker processes and the runner only loads and times
// finished artifacts. Kernels are called through their C interface
// (`_mlir_ciface_<entry>`, memref descriptors by pointer).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_SHAREDOBJECTKERNEL_H
#define DLTUNE_EXECUTION_SHAREDOBJECTKERNEL_H

#include "dltune/Execution/CpuKernel.h"

namespace mlir::dltune {

struct PackedDescriptors;

/// Where a build's time goes (seconds).
struct BuildPhases {
  double scheduleAndLower = 0; // dltune-apply + lowering to the LLVM dialect
  double codegen = 0;          // LLVM IR, -O3, object emission
  double link = 0;             // cc -shared
};

/// Runs `schedulePipeline` (e.g. "dltune-apply,dltune-strip"), then
/// `loweringPipeline` (e.g. "dltune-lower-cpu", "dltune-lower-gpu{format=bin}"),
/// optimises at -O3 for the host and links `outPath`. `inspect`, when
/// given, sees the lowered module before code generation; its error stops
/// the build.
llvm::Error buildSharedObjectWith(ModuleOp module, llvm::StringRef entry,
                                  llvm::StringRef schedulePipeline,
                                  llvm::StringRef loweringPipeline, const std::string &outPath,
                                  BuildPhases *phases = nullptr,
                                  llvm::function_ref<llvm::Error(ModuleOp)> inspect = nullptr);

class SharedObjectKernel {
public:
  ~SharedObjectKernel();
  /// `onDevice`: the kernel was lowered for the GPU; its arguments are
  /// passed in device memory (see runWithDeviceBuffers).
  static llvm::Expected<std::unique_ptr<SharedObjectKernel>>
  load(const std::string &path, KernelSignature signature, bool onDevice = false);
  llvm::Error run(std::vector<HostBuffer> &args, std::vector<HostBuffer> *results = nullptr);
  const KernelSignature &getSignature() const { return signature; }
  /// Calls the entry with packed descriptors (and storage for the result
  /// descriptors): what DeviceArguments::call needs for GPU kernels.
  void callPacked(PackedDescriptors &descriptors, int64_t *resultWords);

private:
  SharedObjectKernel() = default;
  void *handle = nullptr;
  void *function = nullptr;
  KernelSignature signature;
  bool onDevice = false;
};

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_SHAREDOBJECTKERNEL_H
