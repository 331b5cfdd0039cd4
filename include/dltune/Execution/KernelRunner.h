//===- KernelRunner.h - Check and time one kernel of a module ---*- C++ -*-===//
#ifndef DLTUNE_EXECUTION_KERNELRUNNER_H
#define DLTUNE_EXECUTION_KERNELRUNNER_H

#include "dltune/Execution/CpuKernel.h"
#include "dltune/Execution/GpuKernel.h"

namespace mlir::dltune {

struct RunOptions {
  int warmup = 2;
  int repeat = 10;
  /// Bytes written before each timed call to evict the kernel's data from
  /// the caches (CPU: CacheFlusher; GPU: a device buffer written on the
  /// timing stream, DeviceArguments::setCacheFlushBytes; 0: timed hot, as
  /// calls in a loop find it). getDefaultFlushBytes gives the usual size.
  size_t flushCacheBytes = 0;
  bool check = false;
  /// Check against the CPU's default configuration on all cores
  /// (kScheduledReferenceSchedule; the untuned lowering where it fails to
  /// build) instead of the untuned lowering on one thread.
  bool scheduledReference = false;
  /// Passes run before --dltune-lower-cpu on the candidate (e.g.
  /// "dltune-apply,dltune-strip"); the reference always runs
  /// "dltune-strip" and a serial lowering.
  std::string schedulePipeline = "dltune-apply,dltune-strip";
  uint64_t seed = 1;
  /// .npy files for the first arguments, in order (the others stay
  /// deterministic pseudo-random); types and shapes must match.
  std::vector<std::string> inputFiles;
  /// Where the results go (.npy), in result order.
  std::vector<std::string> outputFiles;
  /// The module whose untuned lowering `check` compares with, when not the
  /// run module itself (a model after rewrites such as Winograd's, checked
  /// against the model before them).
  ModuleOp referenceModule;
  /// GPU runs: the chip to build for (empty: the driver's GPU, else sm_90).
  std::string gpuChip;
  /// GPU runs, on the device or emulated: more --dltune-lower-gpu options
  /// ("implicit-gemm=false fuse-epilogues=false": A/B comparisons).
  std::string gpuLoweringOptions;
  /// How runCpuKernel lowers the scheduled module (GPU kernels emulated on
  /// the CPU: "dltune-lower-gpu{emulate=true}").
  std::string cpuLowering = "dltune-lower-cpu";
};

/// Bytes to flush the caches of `target` ("cpu" or "gpu") with: twice
/// the last-level cache (CacheFlusher::getDefaultBytes,
/// DeviceArguments::getDefaultFlushBytes).
size_t getDefaultFlushBytes(llvm::StringRef target);

struct RunReport {
  TimingStats timing;
  double flops = 0;
  bool checked = false;
  Comparison comparison; // valid when checked
  /// What the check compared with: "untuned", "scheduled", or "untuned (the
  /// scheduled build failed: ...)".
  std::string reference;
  double getGflops() const {
    return timing.medianMs > 0 ? flops / (timing.medianMs * 1e6) : 0;
  }
};

/// Inputs for `signature`: argument i is filled from seed `seed + i`.
std::vector<HostBuffer> makeInputs(const KernelSignature &signature,
                                   uint64_t seed);

/// Lowers, JIT-compiles and times `entry` of `module` (which is not
/// modified); with `check`, also runs the untuned reference on the same
/// inputs and compares every argument and result buffer.
llvm::Expected<RunReport> runCpuKernel(ModuleOp module, llvm::StringRef entry,
                                       const RunOptions &options);

/// The same for the GPU: the candidate is lowered with --dltune-lower-gpu
/// (cubin when ptxas is found, else PTX for the driver to compile) and run
/// through the CUDA driver; the reference is the untuned CPU lowering.
llvm::Expected<RunReport> runGpuKernel(ModuleOp module, llvm::StringRef entry,
                                       const RunOptions &options);

/// How references are lowered (`--check`, the tuner's untuned outputs): one
/// thread and none of the optional rewrites (constant packs, pads written
/// in place), so that a check compares code using them with code that
/// does not.
inline constexpr llvm::StringLiteral kReferenceLowering =
    "dltune-lower-cpu{openmp=false fold-constant-packs=false pad-in-place=false}";

/// The scheduled reference of GPU kernels (the tuner's `gpu-reference`,
/// `dltune run --scheduled-reference`): the CPU's default configuration on all
/// cores, without Winograd (other rounding) or the optional rewrites. The
/// untuned loops run at 0.1-1 GFLOP/s, which makes the reference of a
/// large GPU task take minutes (a 4096^3 matmul ~6 min); this one runs at
/// tens of GFLOP/s a core. Its outputs are checked against the untuned
/// ones in test/Autotune/gpu-fake-scheduled-reference.mlir.
inline constexpr llvm::StringLiteral kScheduledReferenceSchedule =
    "dltune-strip,dltune-annotate{default-config=true},dltune-apply,dltune-strip";
inline constexpr llvm::StringLiteral kScheduledReferenceLowering =
    "dltune-lower-cpu{fold-constant-packs=false pad-in-place=false}";

/// A GPU kernel of `entry` compiled from `module` (not modified) by
/// `schedulePipeline` then --dltune-lower-gpu for `chip` (empty: the
/// driver's GPU, else sm_90) with `loweringOptions` added to its options: a
/// cubin where ptxas is found, else PTX for the driver to compile.
llvm::Expected<std::unique_ptr<GpuKernel>>
compileGpuKernel(ModuleOp module, llvm::StringRef entry, llvm::StringRef schedulePipeline,
                 llvm::StringRef chip = "", llvm::StringRef loweringOptions = "");

/// Compiles (without timing) a module with the given schedule pipeline,
/// then `lowering`.
llvm::Expected<std::unique_ptr<CpuKernel>>
compileCpuKernel(ModuleOp module, llvm::StringRef entry, llvm::StringRef schedulePipeline,
                 llvm::StringRef lowering = "dltune-lower-cpu");

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_KERNELRUNNER_H
