//===- EndToEndModelTimer.cpp - A model's latency as a user gets it -------===//

#include "dltune/Execution/EndToEndModelTimer.h"

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Execution/CacheFlusher.h"
#include "dltune/Execution/KernelRunner.h"
#include "dltune/Tuning/Database/Database.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::dltune;

std::optional<Config> mlir::dltune::getCurrentConfig(const ModelTask &t) {
  // The rule of the database's unconfirmed best (Database::getBest), so
  // that the model timed is the one the task's summary attaches unless a
  // confirmation decides otherwise: the fastest median of many noisy
  // records is biased low.
  std::optional<size_t> best = Database::findUnconfirmedBest(t.history.records);
  if (best)
    return t.history.configs[*best];
  return t.untunedConfig;
}

EndToEndModelTimer::EndToEndModelTimer(ModuleOp module, std::string entry,
                                       std::vector<llvm::SmallVector<Operation *>> opsOfTask,
                                       ModelTimingOptions options)
    : module(module), entry(std::move(entry)), opsOfTask(std::move(opsOfTask)),
      options(options) {}

llvm::Expected<ModelTiming> EndToEndModelTimer::timeModel(llvm::ArrayRef<ModelTask> tasks) {
  using Clock = std::chrono::steady_clock;
  auto secondsSince = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  if (tasks.size() != opsOfTask.size())
    return llvm::createStringError("the timer knows %zu tasks, the model has %zu",
                                   opsOfTask.size(), tasks.size());
  Clock::time_point start = Clock::now();
  // The configurations timed are set for the compile only: the module goes
  // back to what it had, which is what the tuner attaches its results to.
  std::vector<std::pair<Operation *, Attribute>> before;
  for (size_t i = 0; i < tasks.size(); ++i) {
    std::optional<Config> config = getCurrentConfig(tasks[i]);
    if (!config)
      continue; // the op keeps what it has (its annotation's default)
    for (Operation *op : opsOfTask[i]) {
      before.emplace_back(op, op->getAttr(DLTuneDialect::kConfigAttrName));
      op->setAttr(DLTuneDialect::kConfigAttrName,
                  ConfigAttr::get(op->getContext(), tasks[i].space, *config));
    }
  }
  bool gpu = options.target == "gpu";
  llvm::Expected<std::unique_ptr<CpuKernel>> kernel =
      gpu ? std::unique_ptr<CpuKernel>()
          : compileCpuKernel(module, entry, "dltune-apply,dltune-strip");
  llvm::Expected<std::unique_ptr<GpuKernel>> gpuKernel =
      gpu ? compileGpuKernel(module, entry, "dltune-apply,dltune-strip", options.gpuChip)
          : std::unique_ptr<GpuKernel>();
  for (auto &[op, attr] : before) {
    if (attr)
      op->setAttr(DLTuneDialect::kConfigAttrName, attr);
    else
      op->removeAttr(DLTuneDialect::kConfigAttrName);
  }
  if (!kernel)
    return kernel.takeError();
  if (!gpuKernel)
    return gpuKernel.takeError();
  if (gpu) {
    // The launches alone, by CUDA events, with the inputs uploaded once.
    llvm::Expected<KernelSignature> sig = getKernelSignature(module, entry);
    if (!sig)
      return sig.takeError();
    std::vector<HostBuffer> args = makeInputs(*sig, /*seed=*/1);
    llvm::Expected<TimingStats> stats = (*gpuKernel)->time(
        args, std::max(1, options.warmupCalls), std::max(1, options.samples),
        options.flushCaches ? getDefaultFlushBytes("gpu") : 0);
    if (!stats)
      return stats.takeError();
    ModelTiming timing;
    timing.latencyMs = stats->medianMs;
    timing.seconds = secondsSince(start);
    return timing;
  }
  std::vector<HostBuffer> args = makeInputs((*kernel)->getSignature(), /*seed=*/1);
  auto call = [&]() { return (*kernel)->run(args, nullptr); };
  for (int i = 0; i < std::max(1, options.warmupCalls); ++i)
    if (llvm::Error e = call())
      return std::move(e);
  Clock::time_point once = Clock::now();
  if (llvm::Error e = call())
    return std::move(e);
  double oneCallMs = std::max(1e-6, secondsSince(once) * 1e3);
  int64_t callsPerSample =
      std::clamp<int64_t>(static_cast<int64_t>(std::ceil(options.minSampleMs / oneCallMs)), 1,
                          100000);
  std::optional<CacheFlusher> flusher;
  if (options.flushCaches) {
    flusher.emplace(CacheFlusher::getDefaultBytes());
    callsPerSample = 1;
  }
  std::vector<double> perCallMs;
  for (int s = 0; s < std::max(1, options.samples); ++s) {
    if (flusher)
      flusher->flush();
    Clock::time_point t = Clock::now();
    for (int64_t c = 0; c < callsPerSample; ++c)
      if (llvm::Error e = call())
        return std::move(e);
    perCallMs.push_back(secondsSince(t) * 1e3 / callsPerSample);
  }
  std::nth_element(perCallMs.begin(), perCallMs.begin() + perCallMs.size() / 2, perCallMs.end());
  ModelTiming timing;
  timing.latencyMs = perCallMs[perCallMs.size() / 2];
  timing.seconds = secondsSince(start);
  return timing;
}
