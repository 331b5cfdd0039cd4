//===- CandidateBuilder.cpp - Compile a candidate in this process ---------===//

#include "dltune/Execution/CandidateBuilder.h"

#include "dltune/Execution/CudaDriver.h"
#include "dltune/Transforms/LowerGpu.h"
#include "dltune/Transforms/TuningTasks.h"

#include "mlir/IR/OwningOpRef.h"

using namespace mlir;
using namespace mlir::dltune;

CandidateBuilder::~CandidateBuilder() = default;

namespace {

class LocalCandidateBuilder final : public CandidateBuilder {
public:
  llvm::Expected<BuildResult> build(ModuleOp kernel, const BuildOptions &options) override;
};

} // namespace

llvm::Expected<BuildResult> LocalCandidateBuilder::build(ModuleOp kernel,
                                                         const BuildOptions &options) {
  BuildResult result;
  llvm::Expected<KernelSignature> signature = getKernelSignature(kernel, kTaskEntryName);
  if (!signature)
    return makeCandidateError(worker::kUsage, signature.takeError());
  OwningOpRef<ModuleOp> candidate(kernel.clone());
  if (llvm::Error e = setKernelConfig(*candidate, options.config))
    return makeCandidateError(worker::kInvalidConfig, std::move(e));
  bool gpu = getKernelTarget(*candidate) == "gpu";
  result.artifact = {options.outPath, std::move(*signature), gpu};

  std::string lowering = "dltune-lower-cpu";
  GpuTarget target;
  if (gpu) {
    if (!options.chip.empty() && !options.gpuLimits.empty()) {
      target.chip = options.chip;
      target.origin = "option";
    } else {
      target = selectGpuTarget(options.chip);
    }
    if (!options.gpuLimits.empty()) {
      llvm::Expected<GpuLimits> limits = parseGpuLimits(options.gpuLimits);
      if (!limits)
        return makeCandidateError(worker::kUsage, limits.takeError());
      target.limits = *limits;
    }
    result.chip = target.chip;
    lowering = "dltune-lower-gpu{chip=" + target.chip +
               " features=" + getPtxFeaturesForChip(target.chip) +
               (findPtxas().empty() ? " format=isa}" : " format=bin}");
  }
  // GPU kernels: the resource report of the cubin is kept and checked
  // against the device's limits before code generation goes on.
  std::optional<std::string> overLimit;
  auto inspect = [&](ModuleOp lowered) -> llvm::Error {
    if (!gpu)
      return llvm::Error::success();
    llvm::Expected<std::vector<GpuKernelResources>> r = getGpuKernelResources(lowered);
    if (!r)
      return r.takeError();
    result.gpuResources = std::move(*r);
    if (llvm::Error e = checkGpuLimits(result.gpuResources, target.limits)) {
      overLimit = llvm::toString(std::move(e));
      return makeCandidateError(worker::kInvalidConfig, *overLimit);
    }
    return llvm::Error::success();
  };
  if (llvm::Error e = buildSharedObjectWith(*candidate, kTaskEntryName, "dltune-apply,dltune-strip",
                                            lowering, options.outPath, &result.phases, inspect)) {
    if (!overLimit)
      return makeCandidateError(worker::kCompileError, std::move(e));
    llvm::consumeError(std::move(e));
    auto error = std::make_unique<CandidateError>(worker::kInvalidConfig, *overLimit);
    error->gpuResources = std::move(result.gpuResources);
    return llvm::Error(std::move(error));
  }
  return std::move(result);
}

std::unique_ptr<CandidateBuilder> mlir::dltune::createLocalCandidateBuilder() {
  return std::make_unique<LocalCandidateBuilder>();
}
