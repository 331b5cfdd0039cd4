//===- KernelRunner.cpp - Check and time one kernel of a module -----------===//

#include "dltune/Execution/KernelRunner.h"
#include "dltune/Execution/CacheFlusher.h"
#include "dltune/Execution/NpyFile.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Execution/CudaDriver.h"
#include "dltune/Execution/GpuKernel.h"
#include "dltune/Transforms/GpuMatmulKernel.h"
#include "dltune/Transforms/LowerGpu.h"

#include "llvm/Support/Program.h"

#include <functional>
#include <optional>

using namespace mlir;
using namespace mlir::dltune;

std::vector<HostBuffer> mlir::dltune::makeInputs(const KernelSignature &sig,
                                                 uint64_t seed) {
  std::vector<HostBuffer> buffers;
  for (size_t i = 0; i < sig.args.size(); ++i) {
    buffers.emplace_back(sig.args[i]);
    buffers.back().fillRandom(seed + i);
  }
  return buffers;
}

llvm::Expected<std::unique_ptr<CpuKernel>>
mlir::dltune::compileCpuKernel(ModuleOp module, StringRef entry,
                               StringRef schedulePipeline, StringRef lowering) {
  llvm::Expected<KernelSignature> sig = getKernelSignature(module, entry);
  if (!sig)
    return sig.takeError();
  std::string pipeline = schedulePipeline.str();
  if (!pipeline.empty())
    pipeline += ",";
  pipeline += lowering;
  llvm::Expected<OwningOpRef<ModuleOp>> lowered =
      runPipelineOnClone(module, pipeline);
  if (!lowered)
    return lowered.takeError();
  return CpuKernel::compile(lowered->get(), std::move(*sig));
}

/// Compares every output argument and result of a candidate run with the
/// reference.
static Comparison compareRuns(const KernelSignature &sig,
                              const std::vector<HostBuffer> &refArgs,
                              const std::vector<HostBuffer> &refResults,
                              const std::vector<HostBuffer> &candArgs,
                              const std::vector<HostBuffer> &candResults, bool tf32) {
  Comparison total;
  // f32 results of a module that may use TF32 have its precision.
  auto tolerance = [&](const HostBuffer &b) -> std::optional<Tolerance> {
    if (tf32 && b.getType().element == ElementKind::F32)
      return getTolerance(ElementKind::F32, kTf32RelativeTolerance);
    return std::nullopt;
  };
  auto consider = [&](const Comparison &c, const std::string &what) {
    total.maxRelativeError = std::max(total.maxRelativeError, c.maxRelativeError);
    if (!c.ok && total.ok) {
      total.ok = false;
      total.message = what + ": " + c.message;
    }
  };
  for (size_t i = 0; i < refArgs.size(); ++i)
    if (sig.argIsOutput[i])
      consider(compareBuffers(candArgs[i], refArgs[i], tolerance(refArgs[i])),
               "argument #" + std::to_string(i));
  for (size_t i = 0; i < refResults.size() && i < candResults.size(); ++i)
    consider(compareBuffers(candResults[i], refResults[i], tolerance(refResults[i])),
             "result #" + std::to_string(i));
  return total;
}

/// The kernel's inputs: the given .npy files for the first arguments,
/// deterministic pseudo-random contents for the rest.
static llvm::Expected<std::vector<HostBuffer>> loadInputs(const KernelSignature &sig,
                                                          const RunOptions &options) {
  std::vector<HostBuffer> generated = makeInputs(sig, options.seed);
  if (options.inputFiles.size() > generated.size())
    return makeError(std::to_string(options.inputFiles.size()) + " input files for " +
                     std::to_string(generated.size()) + " arguments");
  std::vector<HostBuffer> inputs;
  for (size_t i = 0; i < generated.size(); ++i) {
    if (i >= options.inputFiles.size()) {
      inputs.push_back(generated[i]);
      continue;
    }
    llvm::Expected<HostBuffer> b = readNpyFile(options.inputFiles[i]);
    if (!b)
      return b.takeError();
    const BufferType &want = generated[i].getType(), &have = b->getType();
    if (want.element != have.element || want.shape != have.shape)
      return makeError("argument #" + std::to_string(i) + " is " + want.str() + ", but '" +
                       options.inputFiles[i] + "' holds " + have.str());
    inputs.push_back(std::move(*b));
  }
  return inputs;
}

using RunFn = std::function<llvm::Error(std::vector<HostBuffer> &, std::vector<HostBuffer> *)>;

/// The part of a run every target shares: inputs, the optional check against
/// the untuned CPU lowering (or the scheduled one), and timing.
/// Times the kernel on `args` (warm-up and repeats from the options).
using TimeFn = std::function<llvm::Expected<TimingStats>(std::vector<HostBuffer> &)>;

static llvm::Expected<RunReport> checkAndTime(ModuleOp module, StringRef entry,
                                              const KernelSignature &sig,
                                              const RunOptions &options, const RunFn &run,
                                              const TimeFn &time = nullptr) {
  RunReport report;
  report.flops = countFlops(module, entry);
  llvm::Expected<std::vector<HostBuffer>> loaded = loadInputs(sig, options);
  if (!loaded)
    return loaded.takeError();
  std::vector<HostBuffer> inputs = std::move(*loaded);
  if (options.check) {
    ModuleOp referenceModule = options.referenceModule ? options.referenceModule : module;
    llvm::Expected<std::unique_ptr<CpuKernel>> reference =
        options.scheduledReference
            ? compileCpuKernel(referenceModule, entry, kScheduledReferenceSchedule,
                               kScheduledReferenceLowering)
            : llvm::Expected<std::unique_ptr<CpuKernel>>(nullptr);
    report.reference = "scheduled";
    if (!reference || !*reference) { // untuned, or the scheduled build failed
      report.reference = "untuned";
      if (!reference)
        report.reference += " (the scheduled build failed: " +
                            llvm::toString(reference.takeError()) + ")";
      reference = compileCpuKernel(referenceModule, entry, "dltune-strip", kReferenceLowering);
    }
    if (!reference)
      return reference.takeError();
    std::vector<HostBuffer> refArgs(inputs), candArgs(inputs), refResults, candResults;
    if (llvm::Error err = (*reference)->run(refArgs, &refResults))
      return std::move(err);
    if (llvm::Error err = run(candArgs, &candResults))
      return std::move(err);
    report.checked = true;
    report.comparison = compareRuns(sig, refArgs, refResults, candArgs, candResults,
                                    isTf32AllowedAnywhere(module));
  }
  std::vector<HostBuffer> args(inputs);
  std::optional<CacheFlusher> flusher;
  std::function<void()> beforeEach;
  if (options.flushCacheBytes && !time) { // GPU timing flushes L2 itself
    flusher.emplace(options.flushCacheBytes);
    beforeEach = [&] { flusher->flush(); };
  }
  llvm::Expected<TimingStats> timing =
      time ? time(args)
           : timeRepeated([&]() { return run(args, nullptr); }, options.warmup, options.repeat,
                          beforeEach);
  if (!timing)
    return timing.takeError();
  report.timing = *timing;
  if (!options.outputFiles.empty()) {
    std::vector<HostBuffer> outArgs(inputs), results;
    if (llvm::Error err = run(outArgs, &results))
      return std::move(err);
    if (options.outputFiles.size() > results.size())
      return makeError(std::to_string(options.outputFiles.size()) + " output files for " +
                       std::to_string(results.size()) + " results of '" + entry.str() + "'");
    for (size_t i = 0; i < options.outputFiles.size(); ++i)
      if (llvm::Error err = writeNpyFile(options.outputFiles[i], results[i]))
        return std::move(err);
  }
  return report;
}

llvm::Expected<std::unique_ptr<GpuKernel>>
mlir::dltune::compileGpuKernel(ModuleOp module, StringRef entry, StringRef schedulePipeline,
                               StringRef chipName, StringRef loweringOptions) {
  llvm::Expected<KernelSignature> sig = getKernelSignature(module, entry);
  if (!sig)
    return sig.takeError();
  std::string chip = selectGpuChip(chipName);
  std::string pipeline = schedulePipeline.str();
  if (!pipeline.empty())
    pipeline += ",";
  pipeline += "dltune-lower-gpu{chip=" + chip + " features=" + getPtxFeaturesForChip(chip) +
              (findPtxas().empty() ? " format=isa " : " format=bin ") + loweringOptions.str() +
              "}";
  llvm::Expected<OwningOpRef<ModuleOp>> lowered = runPipelineOnClone(module, pipeline);
  if (!lowered)
    return lowered.takeError();
  return GpuKernel::compile(**lowered, *sig);
}

llvm::Expected<RunReport> mlir::dltune::runGpuKernel(ModuleOp module, StringRef entry,
                                                     const RunOptions &options) {
  llvm::Expected<KernelSignature> sig = getKernelSignature(module, entry);
  if (!sig)
    return sig.takeError();
  llvm::Expected<std::unique_ptr<GpuKernel>> kernel =
      compileGpuKernel(module, entry, options.schedulePipeline, options.gpuChip,
                       options.gpuLoweringOptions);
  if (!kernel)
    return kernel.takeError();
  // The check copies in and out; timing uploads once and reads CUDA events
  // around the launches.
  GpuKernel *k = kernel->get();
  return checkAndTime(
      module, entry, *sig, options,
      [&](std::vector<HostBuffer> &args, std::vector<HostBuffer> *results) {
        return k->run(args, results);
      },
      [&](std::vector<HostBuffer> &args) {
        return k->time(args, options.warmup, options.repeat, options.flushCacheBytes);
      });
}

llvm::Expected<RunReport> mlir::dltune::runCpuKernel(ModuleOp module,
                                                     StringRef entry,
                                                     const RunOptions &options) {
  llvm::Expected<std::unique_ptr<CpuKernel>> kernel =
      compileCpuKernel(module, entry, options.schedulePipeline, options.cpuLowering);
  if (!kernel)
    return kernel.takeError();
  CpuKernel *k = kernel->get();
  return checkAndTime(module, entry, k->getSignature(), options,
                      [&](std::vector<HostBuffer> &args, std::vector<HostBuffer> *results) {
                        return k->run(args, results);
                      });
}

size_t mlir::dltune::getDefaultFlushBytes(StringRef target) {
  return target == "gpu" ? DeviceArguments::getDefaultFlushBytes()
                         : CacheFlusher::getDefaultBytes();
}
