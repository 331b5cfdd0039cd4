//===- WorkerCommand.cpp - dltune worker: one candidate per process -------===//
//
//   dltune worker build --kernel K.mlir --config "k=v,..." --out C.so
//                       [--chip sm_XY] [--gpu-limits threads=N,...]
//   dltune worker reference --kernel K.mlir --out REF.bin
//   dltune worker measure --kernel K.mlir --so C.so --reference REF.bin
//                         [--min-time-ms T] [--max-repeats N]
//                         [--anchor-so A.so [--anchor-ms X] [--phase-tolerance F]
//                          [--max-phase-wait-s S]]
//
// Run by the tuner in child processes under time and memory limits; they
// report through exit codes and one JSON line (WorkerProtocol.h).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Execution/AnchoredTiming.h"
#include "dltune/Execution/CudaDriver.h"
#include "dltune/Execution/DeviceInfo.h"
#include "dltune/Execution/GpuKernel.h"
#include "dltune/Execution/MemRefDescriptors.h"
#include "dltune/Execution/KernelRunner.h"
#include "dltune/Execution/SharedObjectKernel.h"
#include "dltune/Transforms/LowerGpu.h"
#include "dltune/Transforms/TuningTasks.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Tuning/Device/GpuResources.h"
#include "dltune/Tuning/Process/WorkerProtocol.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <cmath>
#include <csignal>
#include <fstream>
#include <new>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand workerCmd("worker", "Internal: build, reference or measure one candidate");
static cl::opt<std::string> action(cl::Positional, cl::desc("build|reference|measure"),
                                   cl::Required, cl::sub(workerCmd));
static cl::opt<std::string> kernelPath("kernel", cl::desc("Task kernel (.mlir)"),
                                       cl::Required, cl::sub(workerCmd));
static cl::opt<std::string> configText("config", cl::desc("knob=value,..."),
                                       cl::sub(workerCmd));
static cl::opt<std::string> outPath("out", cl::desc("Output file"), cl::sub(workerCmd));
static cl::opt<std::string> soPath("so", cl::desc("Built kernel"), cl::sub(workerCmd));
static cl::opt<std::string> referencePath("reference", cl::desc("Reference outputs"),
                                          cl::sub(workerCmd));
static cl::opt<double> minTimeMs("min-time-ms", cl::desc("Time at least this long"),
                                 cl::init(50), cl::sub(workerCmd));
static cl::opt<int> maxRepeats("max-repeats", cl::init(1000), cl::sub(workerCmd));
static cl::opt<double> cutoffMs(
    "cutoff-ms",
    cl::desc("A first call slower than this is reported without further timing"),
    cl::init(0), cl::sub(workerCmd));
static cl::opt<int> minRepeats("min-repeats", cl::init(3), cl::sub(workerCmd));
static cl::opt<std::string> referenceKey(
    "reference-key",
    cl::desc("Key of the kernel the reference comes from: written beside it by "
             "'reference' (<out>.key), required to match by 'measure'"),
    cl::sub(workerCmd));
static cl::opt<double> rtol("rtol",
                            cl::desc("Relative tolerance (of max |reference|); negative: "
                                     "by element type"),
                            cl::init(-1), cl::sub(workerCmd));
static cl::opt<double> atol("atol", cl::desc("Absolute tolerance; negative: by element type"),
                            cl::init(-1), cl::sub(workerCmd));
static cl::opt<std::string> anchorSoPath(
    "anchor-so",
    cl::desc("CPU: a build of the same kernel timed right before and after the candidate; "
             "the candidate's time counts only when the anchor runs at its known speed"),
    cl::sub(workerCmd));
static cl::opt<double> anchorKnownMs(
    "anchor-ms", cl::desc("The anchor's fastest known time (0: unknown, learnt in this run)"),
    cl::init(0), cl::sub(workerCmd));
static cl::opt<double> phaseTolerance(
    "phase-tolerance",
    cl::desc("The anchor may run this fraction slower than its fastest known time"),
    cl::init(0.1), cl::sub(workerCmd));
static cl::opt<double> maxPhaseWaitSeconds(
    "max-phase-wait-s",
    cl::desc("Give up waiting for the machine's fast phase after this long"), cl::init(3),
    cl::sub(workerCmd));
static cl::opt<std::string> chipOption(
    "chip",
    cl::desc("GPU builds: the chip (sm_XY); default: the detected GPU, else sm_90"),
    cl::sub(workerCmd));
static cl::opt<std::string> gpuLimitsOption(
    "gpu-limits",
    cl::desc("GPU builds: the device's limits (threads=N,registers_per_block=N,...); "
             "default: asked from the driver, else compute capability 9.0's"),
    cl::sub(workerCmd));

static int report(int code, llvm::json::Object obj) {
  llvm::outs() << llvm::json::Value(std::move(obj)) << "\n";
  llvm::outs().flush();
  return code;
}

static int reportError(int code, const std::string &msg) {
  llvm::errs() << msg << "\n";
  return report(code, llvm::json::Object{{"error", msg}});
}

[[noreturn]] static void outOfMemory() {
  const char msg[] = "out of memory\n";
  (void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
  _exit(worker::kOutOfMemory);
}

static void hang() {
  while (true)
    std::this_thread::sleep_for(std::chrono::seconds(1));
}

static void exhaustMemory() {
  std::vector<std::unique_ptr<char[]>> hog;
  while (true) {
    hog.emplace_back(new char[64 << 20]);
    std::fill_n(hog.back().get(), 64 << 20, 1);
  }
}

static int build(ModuleOp kernel) {
  if (worker::shouldInjectFault("compile_hang", configText))
    hang();
  if (worker::shouldInjectFault("compile_oom", configText))
    exhaustMemory();
  if (worker::shouldInjectFault("invalid_config", configText))
    return reportError(worker::kInvalidConfig, "injected invalid configuration");
  if (worker::shouldInjectFault("compile_error", configText))
    return reportError(worker::kCompileError, "injected compile error");
  // What a linker says on a full disk: the tuner must not record it as the
  // candidate's compile error.
  if (worker::shouldInjectFault("disk_full", configText))
    return reportError(worker::kCompileError, "linking the kernel failed (cc exit 1) cannot "
                                              "write '" + outPath + "': No space left on "
                                              "device (injected)");
  if (llvm::Error e = setKernelConfig(kernel, configText))
    return reportError(worker::kInvalidConfig, llvm::toString(std::move(e)));
  BuildPhases phases;
  bool gpu = getKernelTarget(kernel) == "gpu";
  std::string lowering = "dltune-lower-cpu";
  GpuTarget target;
  // GPU kernels: a cubin where ptxas is found (its resource report is kept
  // and checked against the device's limits), else PTX for the driver.
  std::vector<GpuKernelResources> resources;
  std::string overLimit;
  auto inspect = [&](ModuleOp lowered) -> llvm::Error {
    if (!gpu)
      return llvm::Error::success();
    llvm::Expected<std::vector<GpuKernelResources>> r = getGpuKernelResources(lowered);
    if (!r)
      return r.takeError();
    resources = std::move(*r);
    if (llvm::Error e = checkGpuLimits(resources, target.limits)) {
      overLimit = llvm::toString(std::move(e));
      return makeError(overLimit);
    }
    return llvm::Error::success();
  };
  if (gpu) {
    // With both given (as the tuner does) the driver is not touched here.
    if (!chipOption.empty() && !gpuLimitsOption.empty()) {
      target.chip = chipOption;
      target.origin = "option";
    } else {
      target = selectGpuTarget(chipOption);
    }
    if (!gpuLimitsOption.empty()) {
      llvm::Expected<GpuLimits> limits = parseGpuLimits(gpuLimitsOption);
      if (!limits)
        return reportError(worker::kUsage, llvm::toString(limits.takeError()));
      target.limits = *limits;
    }
    lowering = "dltune-lower-gpu{chip=" + target.chip +
               " features=" + getPtxFeaturesForChip(target.chip) +
               (findPtxas().empty() ? " format=isa}" : " format=bin}");
  }
  if (llvm::Error e = buildSharedObjectWith(kernel, kTaskEntryName, "dltune-apply,dltune-strip",
                                            lowering, outPath, &phases, inspect)) {
    if (!overLimit.empty()) {
      llvm::consumeError(std::move(e));
      return report(worker::kInvalidConfig,
                    llvm::json::Object{{"error", overLimit}, {"gpu_resources", toJSON(resources)}});
    }
    return reportError(worker::kCompileError, llvm::toString(std::move(e)));
  }
  llvm::json::Object obj{{"built", outPath.getValue()},
                         {"schedule_lower_s", phases.scheduleAndLower},
                         {"codegen_s", phases.codegen},
                         {"link_s", phases.link}};
  if (gpu) {
    obj["chip"] = target.chip;
    if (!resources.empty())
      obj["gpu_resources"] = toJSON(resources);
  }
  return report(worker::kOk, std::move(obj));
}

/// Every argument buffer after the run, then every result, back to back.
static void writeOutputs(std::ofstream &out, const std::vector<HostBuffer> &args,
                         const std::vector<HostBuffer> &results) {
  for (const HostBuffer &b : args)
    out.write(static_cast<const char *>(b.data()), b.getType().getBytes());
  for (const HostBuffer &b : results)
    out.write(static_cast<const char *>(b.data()), b.getType().getBytes());
}

/// A warm-up call, then timed calls until both the minimum count and the
/// minimum total time are reached. `timedCall` runs the kernel once and
/// returns its time in ms.
static llvm::Expected<TimingStats>
timeKernel(llvm::function_ref<llvm::Expected<double>()> timedCall, double minTotalMs) {
  if (llvm::Expected<double> warm = timedCall(); !warm)
    return warm.takeError();
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < maxRepeats &&
         (static_cast<int>(times.size()) < minRepeats || total < minTotalMs)) {
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

/// The candidate's timing between blocks of the anchor (--anchor-so): an
/// anchor block is a warm-up call and at least `minRepeats` calls and 10
/// ms; the anchor has its own arguments, and the candidate's block starts
/// with its own warm-up call, so each times with its data in cache.
/// Nothing (plain timing) for an anchor under 0.1 ms per call: its block
/// medians differ by more than the tolerance from process to process
/// (timer granularity, code and data placement), so the gate would judge
/// noise, not the machine's phase.
static llvm::Expected<std::optional<AnchoredTiming>>
timeBetweenAnchors(const KernelSignature &sig,
                   llvm::function_ref<llvm::Expected<double>()> candidateCall,
                   EnergyMeter &meter) {
  llvm::Expected<std::unique_ptr<SharedObjectKernel>> anchor =
      SharedObjectKernel::load(anchorSoPath, sig);
  if (!anchor)
    return makeError("anchor: " + llvm::toString(anchor.takeError()));
  std::vector<HostBuffer> anchorArgs = makeInputs(sig, /*seed=*/1);
  auto anchorCall = [&]() -> llvm::Expected<double> {
    auto s = std::chrono::steady_clock::now();
    if (llvm::Error e = (*anchor)->run(anchorArgs))
      return makeError("anchor: " + llvm::toString(std::move(e)));
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s)
        .count();
  };
  constexpr double kAnchorBlockMs = 10, kShortestAnchoredMs = 0.1;
  llvm::Expected<TimingStats> probe = timeKernel(anchorCall, kAnchorBlockMs);
  if (!probe)
    return probe.takeError();
  if (probe->medianMs < kShortestAnchoredMs)
    return std::nullopt;
  // The probe was timed right before the first candidate block: it is that
  // attempt's first anchor block.
  std::optional<TimingStats> unusedProbe = *probe;
  auto attempt = [&]() -> llvm::Expected<AnchoredAttempt> {
    AnchoredAttempt a;
    llvm::Expected<TimingStats> before = unusedProbe ? llvm::Expected<TimingStats>(*unusedProbe)
                                                     : timeKernel(anchorCall, kAnchorBlockMs);
    unusedProbe.reset();
    if (!before)
      return before.takeError();
    (void)meter.readJoulesSinceLast();
    llvm::Expected<TimingStats> c = timeKernel(candidateCall, minTimeMs);
    if (!c)
      return c.takeError();
    a.joules = getJoulesPerCall(meter.readJoulesSinceLast(), *c);
    llvm::Expected<TimingStats> after = timeKernel(anchorCall, kAnchorBlockMs);
    if (!after)
      return after.takeError();
    a.anchorBeforeMs = before->medianMs;
    a.anchorAfterMs = after->medianMs;
    a.candidate = *c;
    return a;
  };
  AnchoredTimingOptions options;
  options.knownAnchorMs = anchorKnownMs;
  options.tolerance = phaseTolerance;
  options.maxWaitSeconds = maxPhaseWaitSeconds;
  llvm::Expected<AnchoredTiming> timing = timeAgainstAnchor(attempt, options);
  if (!timing)
    return timing.takeError();
  return std::optional<AnchoredTiming>(std::move(*timing));
}

static int reference(ModuleOp kernel, const KernelSignature &sig) {
  // Per process: two tuners may build one task's reference at once.
  std::string so = outPath + "." + std::to_string(::getpid()) + ".untuned.so";
  if (llvm::Error e =
          buildSharedObjectWith(kernel, kTaskEntryName, "dltune-strip", kReferenceLowering, so))
    return reportError(worker::kCompileError, llvm::toString(std::move(e)));
  llvm::Expected<std::unique_ptr<SharedObjectKernel>> k = SharedObjectKernel::load(so, sig);
  llvm::sys::fs::remove(so);
  if (!k)
    return reportError(worker::kRunError, llvm::toString(k.takeError()));
  std::vector<HostBuffer> args = makeInputs(sig, /*seed=*/1);
  std::vector<HostBuffer> results;
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error e = (*k)->run(args, &results))
    return reportError(worker::kRunError, llvm::toString(std::move(e)));
  double firstMs = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start).count();
  // Each file is written aside and renamed into place: processes sharing
  // the work directory never read a half-written reference. The key last:
  // a reference without it (a killed worker) is never used.
  std::string tmpSuffix = ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(outPath + tmpSuffix, std::ios::binary);
    writeOutputs(out, args, results);
    out.close();
    if (!out || llvm::sys::fs::rename(outPath + tmpSuffix, outPath)) {
      llvm::sys::fs::remove(outPath + tmpSuffix);
      return reportError(worker::kRunError, "cannot write '" + outPath + "': " +
                                                std::strerror(errno));
    }
  }
  {
    std::ofstream key(outPath + ".key" + tmpSuffix);
    key << referenceKey.getValue() << "\n";
    key.close();
    if (!key || llvm::sys::fs::rename(outPath + ".key" + tmpSuffix, outPath + ".key")) {
      llvm::sys::fs::remove(outPath + ".key" + tmpSuffix);
      return reportError(worker::kRunError, "cannot write '" + outPath + ".key': " +
                                                std::strerror(errno));
    }
  }
  // The untuned time for reports: a few more calls unless they are slow.
  std::vector<double> times = {firstMs};
  std::vector<HostBuffer> again = makeInputs(sig, 1);
  while (times.size() < 3 && firstMs < 2000) {
    auto s = std::chrono::steady_clock::now();
    if (llvm::Error e = (*k)->run(again))
      return reportError(worker::kRunError, llvm::toString(std::move(e)));
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - s).count());
  }
  return report(worker::kOk, llvm::json::Object{{"untuned_ms", summarizeTimes(times).medianMs}});
}

static int measure(ModuleOp kernel, const KernelSignature &sig) {
  // Only a reference made from this very kernel can check it.
  std::string storedKey;
  std::ifstream(referencePath + ".key") >> storedKey;
  if (storedKey != referenceKey.getValue())
    return reportError(worker::kRunError,
                       "reference '" + referencePath + "' was made from another kernel (key '" +
                           storedKey + "', expected '" + referenceKey.getValue() + "')");
  bool gpu = getKernelTarget(kernel) == "gpu";
  llvm::Expected<std::unique_ptr<SharedObjectKernel>> k =
      SharedObjectKernel::load(soPath, sig, /*onDevice=*/gpu);
  if (!k)
    return reportError(worker::kRunError, llvm::toString(k.takeError()));
  std::vector<HostBuffer> args = makeInputs(sig, /*seed=*/1);
  std::vector<HostBuffer> results;
  if (worker::shouldInjectFault("crash", configText))
    std::raise(SIGSEGV);
  if (worker::shouldInjectFault("hang", configText))
    hang();
  if (worker::shouldInjectFault("oom", configText))
    exhaustMemory();
  // CPU: host buffers, wall-clock time of each call. GPU: arguments
  // uploaded once and left on the device; the first call's outputs are
  // copied back for the check, later calls are timed with CUDA events
  // around the launches only.
  std::unique_ptr<DeviceArguments> device;
  auto packedCall = [&](PackedDescriptors &desc, int64_t *resultWords) {
    (*k)->callPacked(desc, resultWords);
  };
  auto timedCall = [&]() -> llvm::Expected<double> {
    if (device)
      return device->timedCall(packedCall);
    auto s = std::chrono::steady_clock::now();
    if (llvm::Error e = (*k)->run(args))
      return std::move(e);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s)
        .count();
  };
  double firstMs = 0;
  if (gpu) {
    llvm::Expected<std::unique_ptr<DeviceArguments>> d = DeviceArguments::upload(sig, args);
    if (!d)
      return reportError(worker::kRunError, llvm::toString(d.takeError()));
    device = std::move(*d);
    llvm::Expected<double> ms = device->timedCall(packedCall);
    if (!ms)
      return reportError(worker::kRunError, llvm::toString(ms.takeError()));
    firstMs = *ms;
    if (llvm::Error e = device->download(args, &results))
      return reportError(worker::kRunError, llvm::toString(std::move(e)));
  } else {
    auto firstStart = std::chrono::steady_clock::now();
    if (llvm::Error e = (*k)->run(args, &results))
      return reportError(worker::kRunError, llvm::toString(std::move(e)));
    firstMs = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - firstStart).count();
  }
  if (worker::shouldInjectFault("wrong", configText) && !args.empty()) {
    // Flip the sign and top exponent bits of the first output element.
    HostBuffer &victim = results.empty() ? args.back() : results.front();
    static_cast<char *>(victim.data())[victim.getType().getElementBytes() - 1] ^= 0xc0;
  }
  // Compare every buffer with the reference before the time counts.
  std::ifstream ref(referencePath, std::ios::binary);
  if (!ref)
    return reportError(worker::kRunError, "cannot read reference '" + referencePath + "'");
  double maxError = 0;
  auto compare = [&](const HostBuffer &got, const std::string &what) -> std::string {
    HostBuffer expected(got.getType());
    ref.read(static_cast<char *>(expected.data()), got.getType().getBytes());
    if (!ref)
      return "reference file is too short";
    Comparison c = compareBuffers(got, expected, getTolerance(got.getType().element, rtol, atol));
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
  if (!mismatch.empty())
    return report(worker::kWrongResult,
                  llvm::json::Object{{"error", "wrong result: " + mismatch},
                                     {"max_rel_error", std::isfinite(maxError) ? maxError : -1.0}});

  // Far slower than the best so far: one warm call tells enough, and
  // timing it properly would cost most of the tuning budget. (The first call
  // pays for page faults and thread start-up, so it cannot be the probe.)
  double probeMs = 0;
  if (cutoffMs > 0 && firstMs > cutoffMs) {
    llvm::Expected<double> ms = timedCall();
    if (!ms)
      return reportError(worker::kRunError, llvm::toString(ms.takeError()));
    probeMs = *ms;
  }
  if (probeMs > cutoffMs && cutoffMs > 0)
    return report(worker::kOk, llvm::json::Object{{"median_ms", probeMs},
                                                  {"min_ms", probeMs},
                                                  {"max_ms", probeMs},
                                                  {"stddev_ms", 0.0},
                                                  {"repeats", 1},
                                                  {"cut_off", true},
                                                  {"max_rel_error", maxError}});
  EnergyMeter meter(gpu ? EnergyMeter::Source::Gpu : EnergyMeter::Source::Cpu);
  std::optional<AnchoredTiming> anchored;
  if (!anchorSoPath.empty() && !gpu) {
    llvm::Expected<std::optional<AnchoredTiming>> a = timeBetweenAnchors(sig, timedCall, meter);
    if (!a)
      return reportError(worker::kRunError, llvm::toString(a.takeError()));
    anchored = std::move(*a);
  }
  TimingStats t;
  std::optional<double> joules;
  if (anchored) {
    t = anchored->chosen.candidate;
    joules = anchored->chosen.joules;
  } else {
    llvm::Expected<TimingStats> plain = timeKernel(timedCall, minTimeMs);
    if (!plain)
      return reportError(worker::kRunError, llvm::toString(plain.takeError()));
    t = *plain;
    joules = getJoulesPerCall(meter.readJoulesSinceLast(), t);
  }
  llvm::json::Object obj{{"median_ms", t.medianMs}, {"min_ms", t.minMs},
                         {"max_ms", t.maxMs},       {"stddev_ms", t.stddevMs},
                         {"repeats", t.repeats},    {"max_rel_error", maxError}};
  if (anchored) {
    obj["anchor_ms"] = anchored->anchorMs;
    obj["anchor_slowdown"] = anchored->slowdown;
    obj["phase_attempts"] = anchored->attempts;
    obj["slow_phase"] = anchored->slowPhase;
    obj["settled"] = anchored->settled;
  }
  if (joules)
    obj["energy_j"] = *joules;
  if (gpu)
    obj["timing"] = "cuda_events";
  return report(worker::kOk, std::move(obj));
}

int workerCommand() {
  std::set_new_handler([] { outOfMemory(); });
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *, bool) { outOfMemory(); });
  MLIRContext ctx;
  setUpContext(ctx);
  OwningOpRef<ModuleOp> kernel = parseFile(kernelPath, ctx);
  if (!kernel)
    return worker::kUsage;
  llvm::Expected<KernelSignature> sig = getKernelSignature(*kernel, kTaskEntryName);
  if (!sig)
    return reportError(worker::kUsage, llvm::toString(sig.takeError()));
  if (action == "build")
    return build(*kernel);
  if (action == "reference")
    return reference(*kernel, *sig);
  if (action == "measure")
    return measure(*kernel, *sig);
  return reportError(worker::kUsage, "unknown worker action '" + action + "'");
}

} // namespace dltune_tool
