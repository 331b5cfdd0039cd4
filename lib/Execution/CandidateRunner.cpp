//===- CandidateRunner.cpp - Check and time a candidate in this process ---===//

#include "dltune/Execution/CandidateRunner.h"

#include "dltune/Execution/CacheFlusher.h"
#include "dltune/Execution/DeviceInfo.h"
#include "dltune/Execution/GpuKernel.h"
#include "dltune/Execution/KernelRunner.h"
#include "dltune/Execution/MemRefDescriptors.h"
#include "dltune/Transforms/TuningTasks.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <unistd.h>

using namespace mlir;
using namespace mlir::dltune;

CandidateRunner::~CandidateRunner() = default;

static double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

static llvm::Error runError(llvm::Error cause, const llvm::Twine &prefix = "") {
  return makeCandidateError(worker::kRunError, std::move(cause), prefix);
}

/// Writes the file with `write` aside, then renames it to `path`.
static llvm::Error writeAtomically(const std::string &path,
                                   llvm::function_ref<void(std::ofstream &)> write) {
  std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  std::ofstream out(tmp, std::ios::binary);
  write(out);
  out.close();
  if (!out || llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    return makeCandidateError(worker::kRunError,
                              "cannot write '" + path + "': " + std::strerror(errno));
  }
  return llvm::Error::success();
}

llvm::Expected<double> mlir::dltune::createReference(ModuleOp kernel,
                                                     const ReferenceFile &reference,
                                                     bool scheduled, std::string *fallback) {
  llvm::Expected<KernelSignature> sig = getKernelSignature(kernel, kTaskEntryName);
  if (!sig)
    return makeCandidateError(worker::kUsage, sig.takeError());
  // Per process: two tuners may build one task's reference at once.
  std::string so = reference.path + "." + std::to_string(::getpid()) + ".untuned.so";
  std::string fallbackWhy;
  if (scheduled) {
    if (llvm::Error e = buildSharedObjectWith(kernel, kTaskEntryName, kScheduledReferenceSchedule,
                                              kScheduledReferenceLowering, so)) {
      fallbackWhy = llvm::toString(std::move(e));
      std::replace(fallbackWhy.begin(), fallbackWhy.end(), '\n', ' '); // one line in .kind
      if (fallback)
        *fallback = fallbackWhy;
      scheduled = false; // the untuned loops instead
    }
  }
  if (!scheduled)
    if (llvm::Error e = buildSharedObjectWith(kernel, kTaskEntryName, "dltune-strip",
                                              kReferenceLowering, so))
      return makeCandidateError(worker::kCompileError, std::move(e));
  llvm::Expected<std::unique_ptr<SharedObjectKernel>> k = SharedObjectKernel::load(so, *sig);
  llvm::sys::fs::remove(so);
  if (!k)
    return runError(k.takeError());
  std::vector<HostBuffer> args = makeInputs(*sig, /*seed=*/1);
  std::vector<HostBuffer> results;
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error e = (*k)->run(args, &results))
    return runError(std::move(e));
  double firstMs = millisecondsSince(start);
  // The key last: a reference without it (a killed worker) is never used.
  if (llvm::Error e = writeAtomically(reference.path, [&](std::ofstream &out) {
        for (const HostBuffer &b : args)
          out.write(static_cast<const char *>(b.data()), b.getType().getBytes());
        for (const HostBuffer &b : results)
          out.write(static_cast<const char *>(b.data()), b.getType().getBytes());
      }))
    return e;
  // What it is, for a tuner reusing it (ProcessMeasurer::readReferenceKind);
  // before the key, which makes the reference valid.
  if (scheduled || !fallbackWhy.empty()) // a scheduled one was asked for
    if (llvm::Error e = writeAtomically(reference.path + ".kind", [&](std::ofstream &out) {
          out << (fallbackWhy.empty() ? std::string("scheduled") : "untuned: " + fallbackWhy)
              << "\n";
        }))
      return e;
  if (llvm::Error e = writeAtomically(reference.path + ".key",
                                      [&](std::ofstream &out) { out << reference.key << "\n"; }))
    return e;
  // The untuned time for reports: a few more calls unless they are slow.
  std::vector<double> times = {firstMs};
  std::vector<HostBuffer> again = makeInputs(*sig, 1);
  while (times.size() < 3 && firstMs < 2000) {
    auto s = std::chrono::steady_clock::now();
    if (llvm::Error e = (*k)->run(again))
      return runError(std::move(e));
    times.push_back(millisecondsSince(s));
  }
  return summarizeTimes(times).medianMs;
}

namespace {

using TimedCall = llvm::function_ref<llvm::Expected<double>()>;

class LocalCandidateRunner final : public CandidateRunner {
public:
  llvm::Expected<RunResult> run(const Artifact &artifact, const ReferenceFile &reference,
                                const RunnerOptions &options) override;
};

} // namespace

/// A warm-up call, then timed calls until both the minimum count and the
/// minimum total time are reached. `timedCall` runs the kernel once and
/// returns its time in ms.
static llvm::Expected<TimingStats> timeKernel(const RunnerOptions &options, TimedCall timedCall,
                                              double minTotalMs) {
  if (llvm::Expected<double> warm = timedCall(); !warm)
    return warm.takeError();
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < options.maxRepeats &&
         (static_cast<int>(times.size()) < options.minRepeats || total < minTotalMs)) {
    llvm::Expected<double> ms = timedCall();
    if (!ms)
      return ms.takeError();
    times.push_back(*ms);
    total += *ms;
  }
  return summarizeTimes(std::move(times));
}

/// Joules per call of a timed block, whose warm-up call is inside the
/// metered interval.
static std::optional<double> getJoulesPerCall(std::optional<double> joules,
                                              const TimingStats &block) {
  if (joules)
    *joules /= block.repeats + 1;
  return joules;
}

/// The candidate's timing between blocks of the anchor: an anchor block is
/// a warm-up call and at least `minRepeats` calls and 10 ms; the anchor has
/// its own arguments, and the candidate's block starts with its own warm-up
/// call, so each times with its data in cache. Nothing (plain timing) for
/// an anchor under 0.1 ms per call: its block medians differ by more than
/// the tolerance from process to process (timer granularity, code and data
/// placement), so the gate would judge noise, not the machine's phase.
static llvm::Expected<std::optional<AnchoredTiming>>
timeBetweenAnchors(const RunnerOptions &options, const KernelSignature &sig,
                   TimedCall candidateCall, EnergyMeter &meter) {
  llvm::Expected<std::unique_ptr<SharedObjectKernel>> anchor =
      SharedObjectKernel::load(options.anchorPath, sig);
  if (!anchor)
    return runError(anchor.takeError(), "anchor: ");
  std::vector<HostBuffer> anchorArgs = makeInputs(sig, /*seed=*/1);
  auto anchorCall = [&]() -> llvm::Expected<double> {
    auto s = std::chrono::steady_clock::now();
    if (llvm::Error e = (*anchor)->run(anchorArgs))
      return runError(std::move(e), "anchor: ");
    return millisecondsSince(s);
  };
  constexpr double kAnchorBlockMs = 10, kShortestAnchoredMs = 0.1;
  llvm::Expected<TimingStats> probe = timeKernel(options, anchorCall, kAnchorBlockMs);
  if (!probe)
    return probe.takeError();
  if (probe->medianMs < kShortestAnchoredMs)
    return std::nullopt;
  // The probe was timed right before the first candidate block: it is that
  // attempt's first anchor block.
  std::optional<TimingStats> unusedProbe = *probe;
  auto attempt = [&]() -> llvm::Expected<AnchoredAttempt> {
    AnchoredAttempt a;
    llvm::Expected<TimingStats> before =
        unusedProbe ? llvm::Expected<TimingStats>(*unusedProbe)
                    : timeKernel(options, anchorCall, kAnchorBlockMs);
    unusedProbe.reset();
    if (!before)
      return before.takeError();
    (void)meter.readJoulesSinceLast();
    llvm::Expected<TimingStats> c = timeKernel(options, candidateCall, options.minTimeMs);
    if (!c)
      return c.takeError();
    a.joules = getJoulesPerCall(meter.readJoulesSinceLast(), *c);
    llvm::Expected<TimingStats> after = timeKernel(options, anchorCall, kAnchorBlockMs);
    if (!after)
      return after.takeError();
    a.anchorBeforeMs = before->medianMs;
    a.anchorAfterMs = after->medianMs;
    a.candidate = *c;
    return a;
  };
  llvm::Expected<AnchoredTiming> timing = timeAgainstAnchor(attempt, options.anchor);
  if (!timing)
    return timing.takeError();
  return std::optional<AnchoredTiming>(std::move(*timing));
}

/// Compares every output buffer (output arguments, then results) with the
/// reference file, which holds every argument and result.
static llvm::Error checkOutputs(const KernelSignature &sig, const std::vector<HostBuffer> &args,
                                const std::vector<HostBuffer> &results,
                                const ReferenceFile &reference, const RunnerOptions &options,
                                double &maxError) {
  std::ifstream ref(reference.path, std::ios::binary);
  if (!ref)
    return makeCandidateError(worker::kRunError,
                              "cannot read reference '" + reference.path + "'");
  auto compare = [&](const HostBuffer &got, const std::string &what) -> std::string {
    HostBuffer expected(got.getType());
    ref.read(static_cast<char *>(expected.data()), got.getType().getBytes());
    if (!ref)
      return "reference file is too short";
    Comparison c = compareBuffers(
        got, expected, getTolerance(got.getType().element, options.rtol, options.atol));
    maxError = std::max(maxError, c.maxRelativeError);
    return c.ok ? "" : what + ": " + c.message;
  };
  std::string mismatch;
  for (size_t i = 0; i < args.size() && mismatch.empty(); ++i) {
    if (sig.argIsOutput[i])
      mismatch = compare(args[i], "argument #" + std::to_string(i));
    else
      ref.seekg(args[i].getType().getBytes(), std::ios::cur);
  }
  for (size_t i = 0; i < results.size() && mismatch.empty(); ++i)
    mismatch = compare(results[i], "result #" + std::to_string(i));
  if (mismatch.empty())
    return llvm::Error::success();
  auto error = std::make_unique<CandidateError>(worker::kWrongResult, "wrong result: " + mismatch);
  error->maxRelativeError = maxError;
  return llvm::Error(std::move(error));
}

llvm::Expected<RunResult> LocalCandidateRunner::run(const Artifact &artifact,
                                           const ReferenceFile &reference,
                                           const RunnerOptions &givenOptions) {
  RunnerOptions runOptions = givenOptions;
  // A CPU flush writes twice the last-level cache (milliseconds, untimed):
  // min-time-ms would buy a small kernel hundreds of them and run into the
  // run timeout. 30 calls time it well enough.
  if (runOptions.flushCaches && !artifact.onDevice)
    runOptions.maxRepeats = std::min(runOptions.maxRepeats, RunnerOptions::kFlushedCpuMaxRepeats);
  // Only a reference made from this very kernel can check it.
  std::string storedKey;
  std::ifstream(reference.path + ".key") >> storedKey;
  if (storedKey != reference.key)
    return makeCandidateError(worker::kRunError,
                              "reference '" + reference.path +
                                  "' was made from another kernel (key '" + storedKey +
                                  "', expected '" + reference.key + "')");
  const KernelSignature &sig = artifact.signature;
  bool gpu = artifact.onDevice;
  llvm::Expected<std::unique_ptr<SharedObjectKernel>> k =
      SharedObjectKernel::load(artifact.path, sig, /*onDevice=*/gpu);
  if (!k)
    return runError(k.takeError());
  std::vector<HostBuffer> args = makeInputs(sig, /*seed=*/1);
  std::vector<HostBuffer> results;
  if (runOptions.beforeFirstCall)
    runOptions.beforeFirstCall();
  // CPU: host buffers, wall-clock time of each call. GPU: arguments
  // uploaded once and left on the device; the first call's outputs are
  // copied back for the check, later calls are timed with CUDA events
  // around the launches only.
  std::unique_ptr<DeviceArguments> device;
  auto packedCall = [&](PackedDescriptors &desc, int64_t *resultWords) {
    (*k)->callPacked(desc, resultWords);
  };
  // Caches flushed before each timed call, untimed (the GPU's L2 by
  // DeviceArguments, on the timing stream).
  std::optional<CacheFlusher> hostFlusher;
  if (runOptions.flushCaches && !gpu)
    hostFlusher.emplace(CacheFlusher::getDefaultBytes());
  auto timedCall = [&]() -> llvm::Expected<double> {
    if (device)
      return device->timedCall(packedCall);
    if (hostFlusher)
      hostFlusher->flush();
    auto s = std::chrono::steady_clock::now();
    if (llvm::Error e = (*k)->run(args))
      return std::move(e);
    return millisecondsSince(s);
  };
  double firstMs = 0;
  if (gpu) {
    llvm::Expected<std::unique_ptr<DeviceArguments>> d = DeviceArguments::upload(sig, args);
    if (!d)
      return runError(d.takeError());
    device = std::move(*d);
    if (runOptions.flushCaches)
      device->setCacheFlushBytes(DeviceArguments::getDefaultFlushBytes());
    llvm::Expected<double> ms = device->timedCall(packedCall);
    if (!ms)
      return runError(ms.takeError());
    firstMs = *ms;
    if (llvm::Error e = device->download(args, &results))
      return runError(std::move(e));
  } else {
    auto firstStart = std::chrono::steady_clock::now();
    if (llvm::Error e = (*k)->run(args, &results))
      return runError(std::move(e));
    firstMs = millisecondsSince(firstStart);
  }
  if (runOptions.onFirstOutputs)
    runOptions.onFirstOutputs(args, results);
  // Compare every buffer with the reference before the time counts.
  RunResult result;
  if (llvm::Error e =
          checkOutputs(sig, args, results, reference, runOptions, result.maxRelativeError))
    return e;

  // Far slower than the best so far: one warm call tells enough, and
  // timing it properly would cost most of the tuning budget. (The first call
  // pays for page faults and thread start-up, so it cannot be the probe.)
  double cutoffMs = runOptions.cutoffMs;
  if (cutoffMs > 0 && firstMs > cutoffMs) {
    llvm::Expected<double> ms = timedCall();
    if (!ms)
      return runError(ms.takeError());
    if (*ms > cutoffMs) {
      result.timing.medianMs = result.timing.minMs = result.timing.maxMs = *ms;
      result.timing.meanMs = *ms;
      result.timing.repeats = 1;
      result.cutOff = true;
      return result;
    }
  }
  EnergyMeter meter(gpu ? EnergyMeter::Source::Gpu : EnergyMeter::Source::Cpu);
  if (!runOptions.anchorPath.empty() && !gpu) {
    llvm::Expected<std::optional<AnchoredTiming>> a =
        timeBetweenAnchors(runOptions, sig, timedCall, meter);
    if (!a)
      return runError(a.takeError());
    result.anchored = std::move(*a);
  }
  if (result.anchored) {
    result.timing = result.anchored->chosen.candidate;
    result.joules = result.anchored->chosen.joules;
  } else {
    llvm::Expected<TimingStats> plain = timeKernel(runOptions, timedCall, runOptions.minTimeMs);
    if (!plain)
      return runError(plain.takeError());
    result.timing = *plain;
    result.joules = getJoulesPerCall(meter.readJoulesSinceLast(), result.timing);
  }
  result.cudaEvents = gpu;
  return result;
}

std::unique_ptr<CandidateRunner> mlir::dltune::createLocalCandidateRunner() {
  return std::make_unique<LocalCandidateRunner>();
}
