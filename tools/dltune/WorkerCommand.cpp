//===- WorkerCommand.cpp - dltune worker: one candidate per process -------===//
//
//   dltune worker build --kernel K.mlir --config "k=v,..." --out C.so
//                       [--chip sm_XY] [--gpu-limits threads=N,...]
//   dltune worker reference --kernel K.mlir --out REF.bin [--scheduled-reference]
//   dltune worker measure --kernel K.mlir --so C.so --reference REF.bin
//                         [--min-time-ms T] [--max-repeats N]
//                         [--anchor-so A.so [--anchor-ms X] [--phase-tolerance F]
//                          [--max-phase-wait-s S]]
//
// Run by the tuner in child processes under time and memory limits; they
// report through exit codes and one JSON line (WorkerProtocol.h). The work
// is the Execution library's CandidateBuilder, createReference and CandidateRunner; this
// command parses options, injects faults and reports.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Execution/CandidateBuilder.h"
#include "dltune/Execution/CandidateRunner.h"
#include "dltune/Transforms/TuningTasks.h"
#include "dltune/Tuning/Process/WorkerProtocol.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <csignal>
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
static cl::opt<bool> scheduledReference(
    "scheduled-reference",
    cl::desc("reference: build the kernel with the CPU's default configuration on all "
             "cores (untuned where that fails), not as untuned loops on one thread"),
    cl::sub(workerCmd));
static cl::opt<bool> flushCaches(
    "flush-caches",
    cl::desc("Evict the caches before each timed call, untimed (CPU: a buffer twice the "
             "last-level cache; GPU: twice L2, on the timing stream)"),
    cl::sub(workerCmd));
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

/// The worker's report of a failure: exit code and JSON from a
/// CandidateError (any other error is a run error). A verdict about the
/// candidate (a wrong result, a GPU build over the device's limits) goes to
/// stdout only; other failures are also said on stderr.
static int reportFailure(llvm::Error error) {
  int code = worker::kRunError;
  std::string message;
  llvm::json::Object obj;
  bool verdict = false;
  llvm::handleAllErrors(
      std::move(error),
      [&](const CandidateError &e) {
        code = e.getCategory();
        message = e.getMessage();
        if (e.maxRelativeError) {
          obj["max_rel_error"] = std::isfinite(*e.maxRelativeError) ? *e.maxRelativeError : -1.0;
          verdict = true;
        }
        if (!e.gpuResources.empty()) {
          obj["gpu_resources"] = toJSON(e.gpuResources);
          verdict = true;
        }
      },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  if (!verdict)
    return reportError(code, message);
  obj["error"] = message;
  return report(code, std::move(obj));
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
  BuildOptions options;
  options.config = configText;
  options.outPath = outPath;
  options.chip = chipOption;
  options.gpuLimits = gpuLimitsOption;
  llvm::Expected<BuildResult> built = createLocalCandidateBuilder()->build(kernel, options);
  if (!built)
    return reportFailure(built.takeError());
  llvm::json::Object obj{{"built", built->artifact.path},
                         {"schedule_lower_s", built->phases.scheduleAndLower},
                         {"codegen_s", built->phases.codegen},
                         {"link_s", built->phases.link}};
  if (built->artifact.onDevice) {
    obj["chip"] = built->chip;
    if (!built->gpuResources.empty())
      obj["gpu_resources"] = toJSON(built->gpuResources);
  }
  return report(worker::kOk, std::move(obj));
}

static int reference(ModuleOp kernel) {
  std::string fallback;
  llvm::Expected<double> untunedMs =
      createReference(kernel, {outPath, referenceKey}, scheduledReference, &fallback);
  if (!untunedMs)
    return reportFailure(untunedMs.takeError());
  llvm::json::Object o{{"untuned_ms", *untunedMs}};
  if (scheduledReference)
    o["reference"] = fallback.empty() ? "scheduled" : "untuned: " + fallback;
  return report(worker::kOk, std::move(o));
}

static int measure(ModuleOp kernel, const KernelSignature &sig) {
  RunnerOptions options;
  options.minTimeMs = minTimeMs;
  options.flushCaches = flushCaches;
  options.minRepeats = minRepeats;
  options.maxRepeats = maxRepeats;
  options.cutoffMs = cutoffMs;
  options.rtol = rtol;
  options.atol = atol;
  options.anchorPath = anchorSoPath;
  options.anchor.knownAnchorMs = anchorKnownMs;
  options.anchor.tolerance = phaseTolerance;
  options.anchor.maxWaitSeconds = maxPhaseWaitSeconds;
  options.beforeFirstCall = [] {
    if (worker::shouldInjectFault("crash", configText))
      std::raise(SIGSEGV);
    if (worker::shouldInjectFault("hang", configText))
      hang();
    if (worker::shouldInjectFault("oom", configText))
      exhaustMemory();
  };
  options.onFirstOutputs = [](std::vector<HostBuffer> &args, std::vector<HostBuffer> &results) {
    if (!worker::shouldInjectFault("wrong", configText) || args.empty())
      return;
    // Flip the sign and top exponent bits of the first output element.
    HostBuffer &victim = results.empty() ? args.back() : results.front();
    static_cast<char *>(victim.data())[victim.getType().getElementBytes() - 1] ^= 0xc0;
  };
  Artifact artifact{soPath, sig, getKernelTarget(kernel) == "gpu"};
  llvm::Expected<RunResult> run =
      createLocalCandidateRunner()->run(artifact, {referencePath, referenceKey}, options);
  if (!run)
    return reportFailure(run.takeError());
  const TimingStats &t = run->timing;
  if (run->cutOff)
    return report(worker::kOk, llvm::json::Object{{"median_ms", t.medianMs},
                                                  {"min_ms", t.minMs},
                                                  {"max_ms", t.maxMs},
                                                  {"stddev_ms", 0.0},
                                                  {"repeats", 1},
                                                  {"cut_off", true},
                                                  {"max_rel_error", run->maxRelativeError}});
  llvm::json::Object obj{{"median_ms", t.medianMs}, {"min_ms", t.minMs},
                         {"max_ms", t.maxMs},       {"stddev_ms", t.stddevMs},
                         {"repeats", t.repeats},    {"max_rel_error", run->maxRelativeError}};
  if (const std::optional<AnchoredTiming> &anchored = run->anchored) {
    obj["anchor_ms"] = anchored->anchorMs;
    obj["anchor_slowdown"] = anchored->slowdown;
    obj["phase_attempts"] = anchored->attempts;
    obj["slow_phase"] = anchored->slowPhase;
    obj["settled"] = anchored->settled;
  }
  if (run->joules)
    obj["energy_j"] = *run->joules;
  if (run->cudaEvents)
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
    return reference(*kernel);
  if (action == "measure")
    return measure(*kernel, *sig);
  return reportError(worker::kUsage, "unknown worker action '" + action + "'");
}

} // namespace dltune_tool
