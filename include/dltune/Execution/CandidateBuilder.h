//===- CandidateBuilder.h - Compile a tuning candidate ----------*- C++ -*-===//
//
// A CandidateBuilder turns a task kernel (func @dltune_task whose op
// carries a dltune.space, see TuningTasks.h) and one configuration of its
// space into an artifact a CandidateRunner can load and time: a shared
// object, for GPU kernels one embedding the device code (a cubin where
// ptxas is found, checked against the device's limits, else PTX for the
// driver). Like MetaSchedule's Builder, it compiles and never runs.
//
// `dltune worker build` runs the local builder in a child process of the
// tuner; a downstream compiler may call it in process.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_CANDIDATEBUILDER_H
#define DLTUNE_EXECUTION_CANDIDATEBUILDER_H

#include "dltune/Execution/CandidateError.h"
#include "dltune/Execution/SharedObjectKernel.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::dltune {

struct BuildOptions {
  /// The candidate: "knob=value,..." of the kernel's space.
  std::string config;
  /// Where the shared object is written.
  std::string outPath;
  /// GPU kernels: the chip (sm_XY); empty: the detected GPU's, else sm_90.
  std::string chip;
  /// GPU kernels: the device's limits as parseGpuLimits reads them
  /// ("threads=N,registers_per_block=N,..."); empty: the driver's, else
  /// compute capability 9.0's. With both `chip` and this given the driver is
  /// not touched.
  std::string gpuLimits;
};

/// A built candidate: what a CandidateRunner loads.
struct Artifact {
  std::string path;
  KernelSignature signature; // of the kernel's entry
  bool onDevice = false;     // a GPU kernel: its arguments live in device memory
};

struct BuildResult {
  Artifact artifact;
  BuildPhases phases;
  /// GPU kernels: the chip built for, and the kernels' resource report
  /// (empty for PTX, which only the driver compiles).
  std::string chip;
  std::vector<GpuKernelResources> gpuResources;
};

/// Compiles candidates. Fails with a CandidateError: kUsage (the kernel has
/// no usable entry, the GPU limits do not parse), kInvalidConfig (the
/// configuration is not in the space, or the GPU build exceeds the device's
/// limits: gpuResources says by what), kCompileError (anything else).
class CandidateBuilder {
public:
  virtual ~CandidateBuilder();
  /// Builds `kernel` with `options.config` applied; `kernel` is not
  /// modified.
  virtual llvm::Expected<BuildResult> build(ModuleOp kernel, const BuildOptions &options) = 0;
};

/// Builds in the calling process (apply, lower, LLVM -O3 for the host,
/// link); prints nothing.
std::unique_ptr<CandidateBuilder> createLocalCandidateBuilder();

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_CANDIDATEBUILDER_H
