//===- CpuKernel.h - JIT-compiled CPU kernels -------------------*- C++ -*-===//
//
// Compiles a module lowered by --dltune-lower-cpu with the MLIR
// ExecutionEngine and calls one of its functions on host buffers through
// the packed-argument wrapper (memref descriptors expanded field by field).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_CPUKERNEL_H
#define DLTUNE_EXECUTION_CPUKERNEL_H

#include "dltune/Execution/HostBuffer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::dltune {

/// The buffers an entry function takes and returns (static shapes only).
struct KernelSignature {
  std::string name;
  std::vector<BufferType> args;
  std::vector<BufferType> results;
  /// Memref arguments are the kernel's outputs (destination passing); a
  /// tensor argument is a value, and whether bufferization happens to reuse
  /// its buffer says nothing about the result, so it is never compared.
  std::vector<bool> argIsOutput;
};

/// Reads the signature of function `entry` (tensor or memref arguments and
/// results with static shapes).
llvm::Expected<KernelSignature> getKernelSignature(ModuleOp module,
                                                   llvm::StringRef entry);

/// Floating-point (or integer) operations of the linalg ops in `entry`:
/// loop-nest size times the arithmetic ops in each op's body.
double countFlops(ModuleOp module, llvm::StringRef entry);

/// Initialises LLVM's native target once and registers the LLVM IR
/// translations in `context`: what every JIT or object emission needs.
void prepareForCodegen(MLIRContext *context);

/// Clones `source` and runs `pipeline` (a comma-separated pass list) on the
/// clone; diagnostics are returned in the error.
llvm::Expected<OwningOpRef<ModuleOp>> runPipelineOnClone(ModuleOp source,
                                                         llvm::StringRef pipeline);

class CpuKernel {
public:
  ~CpuKernel();
  /// JIT-compiles a module already in the LLVM dialect (optimisation -O3).
  static llvm::Expected<std::unique_ptr<CpuKernel>>
  compile(ModuleOp lowered, KernelSignature signature);

  /// Calls the function once: `args` are updated in place, and returned
  /// buffers are copied into `results` (when given).
  llvm::Error run(std::vector<HostBuffer> &args,
                  std::vector<HostBuffer> *results = nullptr);

  const KernelSignature &getSignature() const { return signature; }

private:
  CpuKernel() = default;
  std::unique_ptr<ExecutionEngine> engine;
  KernelSignature signature;
  void (*packed)(void **) = nullptr;
};

/// Median, min and max of repeated timed calls, in milliseconds.
struct TimingStats {
  double medianMs = 0, minMs = 0, maxMs = 0, meanMs = 0, stddevMs = 0;
  int repeats = 0;
};

/// Median, min, max, mean and sample standard deviation of `timesMs`.
TimingStats summarizeTimes(std::vector<double> timesMs);

/// Runs `fn` `warmup` times untimed, then `repeats` times timed (at least
/// once), stopping early only on error. `beforeEach`, if given, runs
/// untimed before every timed call (a cache flush).
llvm::Expected<TimingStats> timeRepeated(const std::function<llvm::Error()> &fn,
                                         int warmup, int repeats,
                                         const std::function<void()> &beforeEach = {});

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_CPUKERNEL_H
