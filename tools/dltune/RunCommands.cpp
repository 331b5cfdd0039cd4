//===- RunCommands.cpp - dltune run / dltune compare ----------------------===//
//
//   dltune run FILE.mlir --entry NAME [--target cpu|gpu] [--repeat N]
//                        [--warmup N] [--check] [--json] [--default-config]
//                        [--input IN.npy]... [--save-output OUT.npy]...
//                        [--breakdown] [--cold] [--emulate-gpu]
//                        [--gpu-lowering-options "name=value ..."]
//   dltune compare FILE.mlir... [--repeat N] [--threads N]
//
//===----------------------------------------------------------------------===//

#include "dltune/Dialect/DLTuneDialect.h"
#include "Common.h"

#include "dltune/Execution/CacheFlusher.h"
#include "dltune/Execution/CudaDriver.h"
#include "dltune/Execution/KernelRunner.h"
#include "dltune/Execution/ModelBreakdown.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

// From libomp (linked by DLTuneExecution); declared here to avoid clang headers.
extern "C" int omp_get_max_threads();

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand runCmd("run", "JIT-run one kernel: time it, optionally check it");
cl::SubCommand compareCmd(
    "compare", "Untuned lowering vs dltune's default configuration, per kernel");

static cl::opt<std::string> runFile(cl::Positional, cl::desc("<file.mlir>"),
                                    cl::Required, cl::sub(runCmd));
static cl::opt<std::string> entry("entry", cl::desc("Function to run"),
                                  cl::Required, cl::sub(runCmd));
static cl::opt<std::string> target("target", cl::desc("cpu or gpu"),
                                   cl::init("cpu"), cl::sub(runCmd));
static cl::opt<bool> check("check", cl::desc("Verify against the untuned reference"),
                           cl::sub(runCmd));
static cl::opt<bool> emulateGpu(
    "emulate-gpu",
    cl::desc("With --target gpu: run the GPU kernels on the CPU (blocks in turn, each an "
             "OpenMP team of its threads) to check them without a GPU; SIMT kernels only, "
             "and the time means nothing"),
    cl::sub(runCmd));
static cl::opt<bool> json("json", cl::desc("Print one JSON object"), cl::sub(runCmd));
static cl::opt<std::string> gpuLoweringOptions(
    "gpu-lowering-options",
    cl::desc("More --dltune-lower-gpu options for the run (not the reference), e.g. "
             "\"implicit-gemm=false fuse-epilogues=false\" to compare a lowering step off"),
    cl::init(""), cl::sub(runCmd));
static cl::opt<bool> tf32("tf32",
                          cl::desc("Let f32 matmuls use TF32 tensor cores on the GPU (sets "
                                   "dltune.allow_tf32 on the module; --check then allows "
                                   "TF32's error)"),
                          cl::sub(runCmd));
static cl::opt<bool> defaultConfig(
    "default-config",
    cl::desc("Annotate with dltune's default space and config first"),
    cl::sub(runCmd));
static cl::list<std::string>
    inputFiles("input",
               cl::desc("A .npy file for the next argument, in argument order (repeatable; "
                        "arguments without one get deterministic pseudo-random contents)"),
               cl::sub(runCmd));
static cl::list<std::string>
    saveOutputs("save-output", cl::desc("Write the next result to this .npy file (repeatable)"),
                cl::sub(runCmd));
static cl::list<std::string> compareFiles(cl::Positional, cl::desc("<file.mlir>..."),
                                          cl::OneOrMore, cl::sub(compareCmd));
static cl::opt<int> repeat("repeat", cl::desc("Timed repetitions"), cl::init(10),
                           cl::sub(runCmd), cl::sub(compareCmd));
static cl::opt<int> warmup("warmup", cl::desc("Untimed runs before timing"),
                           cl::init(2), cl::sub(runCmd));
static cl::opt<bool> breakdown(
    "breakdown",
    cl::desc("Also time each tuning task's kernel alone (with its config) and print its "
             "share of the model's latency (GPU: each kernel lowered and timed with CUDA "
             "events as the model is)"),
    cl::sub(runCmd));
static cl::opt<bool> scheduledReference(
    "scheduled-reference",
    cl::desc("With --check: compare with the model built with the CPU's default "
             "configuration on all cores (the untuned lowering where that fails to build) "
             "instead of the untuned lowering on one thread, which takes minutes on large "
             "models"),
    cl::sub(runCmd));
static cl::opt<bool> cold(
    "cold",
    cl::desc("Flush the caches before each timed call, untimed, as a model's kernels find "
             "their data (CPU: twice the last-level cache written, --breakdown's tasks too; "
             "GPU: twice L2 written on the timing stream before the first event)"),
    cl::sub(runCmd));
static cl::opt<int> threads("threads",
                            cl::desc("Threads for default configs (0: all cores)"),
                            cl::init(0), cl::sub(runCmd), cl::sub(compareCmd));




static cl::opt<bool> winograd("winograd", cl::desc(kWinogradHelp), cl::init(true),
                              cl::sub(runCmd), cl::sub(compareCmd));

static std::string annotatePipeline() { return getDefaultConfigPipeline(threads, winograd); }

/// The per-task table of `dltune run --breakdown`; on the GPU each task's
/// kernel is lowered with `run`'s chip and lowering options and timed with
/// CUDA events, `run`'s warm-up and repeats.
static int printBreakdown(ModuleOp module, double modelMs, const RunOptions &run) {
  bool gpu = target == "gpu";
  OwningOpRef<ModuleOp> annotated = module.clone();
  if (defaultConfig) {
    llvm::Expected<OwningOpRef<ModuleOp>> a =
        runPipelineOnClone(module, getDefaultConfigPipeline(target, threads, winograd));
    if (!a)
      return fail("--breakdown: " + llvm::toString(a.takeError()));
    annotated = std::move(*a);
  }
  // Only the entry's tasks (functions it calls are not followed).
  for (func::FuncOp f : llvm::make_early_inc_range(annotated->getOps<func::FuncOp>()))
    if (f.getName() != entry.getValue())
      f.erase();
  llvm::Expected<std::vector<TaskTiming>> tasks =
      gpu ? timeModelTasksOnGpu(*annotated, run)
          : timeModelTasks(*annotated, /*warmup=*/1, /*repeat=*/std::max(3, repeat.getValue()),
                           cold ? CacheFlusher::getDefaultBytes() : 0);
  if (!tasks)
    return fail("--breakdown: " + llvm::toString(tasks.takeError()));
  std::sort(tasks->begin(), tasks->end(), [](const TaskTiming &a, const TaskTiming &b) {
    return a.getTotalMs() > b.getTotalMs();
  });
  llvm::outs() << llvm::formatv("{0,-72} {1,4} {2,10} {3,10} {4,6}\n", "task", "ops",
                                "ms/call", "total ms", "share");
  double sum = 0;
  for (const TaskTiming &t : *tasks) {
    sum += t.getTotalMs();
    std::string name = t.name.size() > 70 ? t.name.substr(0, 67) + "..." : t.name;
    if (!t.configured)
      name = "(untuned) " + name;
    llvm::outs() << llvm::formatv("{0,-72} {1,4} {2,10:f3} {3,10:f3} {4,5:f1}%\n", name,
                                  t.occurrences, t.timing.medianMs, t.getTotalMs(),
                                  100.0 * t.getTotalMs() / modelMs);
  }
  llvm::outs() << llvm::formatv("{0,-72} {1,4} {2,10} {3,10:f3} {4,5:f1}%\n",
                                "ops without a task (pads, transposes, reductions, ...)", "",
                                "", modelMs - sum, 100.0 * (modelMs - sum) / modelMs);
  llvm::outs() << "(each task's kernel timed alone, median of its calls, times its "
                  "occurrences; share of the model's median; the rest is the model's time "
                  "not spent in tasks, negative when kernels run faster inside the model)\n";
  return 0;
}

int runCommand() {
  if (checkThreadsOption(threads))
    return 1;
  MLIRContext ctx;
  setUpContext(ctx);
  OwningOpRef<ModuleOp> module = parseFile(runFile, ctx);
  if (!module)
    return 1;
  if (tf32)
    (*module)->setAttr(DLTuneDialect::kAllowTf32AttrName, UnitAttr::get(&ctx));
  if (target != "cpu" && target != "gpu")
    return fail("--target must be cpu or gpu, got '" + target + "'");
  if (repeat < 1)
    return fail("--repeat must be at least 1");
  if (warmup < 0)
    return fail("--warmup must not be negative");
  RunOptions options;
  options.repeat = repeat;
  options.warmup = warmup;
  if (cold) // emulated GPU kernels run on the CPU
    options.flushCacheBytes = getDefaultFlushBytes(emulateGpu ? "cpu" : target.getValue());
  options.check = check;
  if (scheduledReference && !check)
    return fail("--scheduled-reference needs --check");
  options.scheduledReference = scheduledReference;
  options.inputFiles.assign(inputFiles.begin(), inputFiles.end());
  options.outputFiles.assign(saveOutputs.begin(), saveOutputs.end());
  if (defaultConfig)
    options.schedulePipeline =
        getDefaultConfigPipeline(target, threads, winograd) + "," + options.schedulePipeline;
  if (emulateGpu && target != "gpu")
    return fail("--emulate-gpu needs --target gpu");
  // The emulation's failed checks (a misaligned vector access, a short
  // OpenMP team) print with puts and abort: line-buffered, the message
  // reaches a pipe before the abort.
  if (emulateGpu)
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (emulateGpu && breakdown)
    return fail("--emulate-gpu cannot be combined with --breakdown");
  if (!gpuLoweringOptions.empty() && target != "gpu")
    return fail("--gpu-lowering-options needs --target gpu");
  // Options of the one pass, not more pipeline.
  if (StringRef(gpuLoweringOptions).find_first_of("{},") != StringRef::npos)
    return fail("--gpu-lowering-options takes name=value options of --dltune-lower-gpu "
                "separated by spaces, without '{', '}' or ','");
  options.gpuLoweringOptions = gpuLoweringOptions;
  if (emulateGpu)
    options.cpuLowering = "dltune-lower-gpu{emulate=true " + gpuLoweringOptions + "}";
  if (target == "gpu" && !emulateGpu) {
    // Fail early and clearly where there is no GPU.
    llvm::Expected<CudaDriver &> driver = CudaDriver::get();
    if (!driver)
      return fail("--target gpu: " + llvm::toString(driver.takeError()));
  }
  llvm::Expected<RunReport> report = target == "gpu" && !emulateGpu
                                         ? runGpuKernel(*module, entry, options)
                                         : runCpuKernel(*module, entry, options);
  if (!report)
    return fail(llvm::toString(report.takeError()));
  const TimingStats &t = report->timing;
  std::string checkText = !report->checked            ? "skipped"
                          : report->comparison.ok      ? "ok"
                                                       : "failed";
  if (json) {
    llvm::json::Object obj{{"entry", entry.getValue()},
                           {"target", target.getValue()},
                           {"median_ms", t.medianMs},
                           {"min_ms", t.minMs},
                           {"max_ms", t.maxMs},
                           {"stddev_ms", t.stddevMs},
                           {"repeats", t.repeats},
                           {"flops", report->flops},
                           {"gflops", report->getGflops()},
                           {"check", checkText}};
    // JSON has no inf or NaN (a result that overflowed, or one nothing wrote).
    if (report->checked) {
      obj["max_rel_error"] = std::isfinite(report->comparison.maxRelativeError)
                                 ? llvm::json::Value(report->comparison.maxRelativeError)
                                 : llvm::json::Value(nullptr);
      obj["reference"] = report->reference;
    }
    llvm::outs() << llvm::json::Value(std::move(obj)) << "\n";
  } else {
    llvm::outs() << llvm::formatv(
        "{0} ({1}): median {2:f3} ms  min {3:f3} ms  max {4:f3} ms  ({5} "
        "repeats)  {6:f2} GFLOP/s\n",
        entry.getValue(), target.getValue(), t.medianMs, t.minMs, t.maxMs,
        t.repeats, report->getGflops());
    if (report->checked) {
      llvm::outs() << "check: " << checkText
                   << llvm::formatv(" (max relative error {0:e2} vs the {1} reference)",
                                    report->comparison.maxRelativeError, report->reference);
      if (!report->comparison.ok)
        llvm::outs() << ": " << report->comparison.message;
      llvm::outs() << "\n";
    }
  }
  if (breakdown) {
    if (int rc = printBreakdown(*module, t.medianMs, options))
      return rc;
  }
  return report->checked && !report->comparison.ok ? 2 : 0;
}

int compareCommand() {
  if (checkThreadsOption(threads))
    return 1;
  MLIRContext ctx;
  setUpContext(ctx);
  llvm::outs() << llvm::formatv("{0,-28} {1,12} {2,12} {3,10} {4,10} {5,9} {6}\n",
                                "kernel", "untuned ms", "default ms",
                                "untuned GF", "default GF", "speed-up", "check");
  bool allOk = true;
  for (const std::string &file : compareFiles) {
    OwningOpRef<ModuleOp> module = parseFile(file, ctx);
    if (!module)
      return 1;
    for (func::FuncOp func : module->getOps<func::FuncOp>()) {
      if (func.isExternal() || func.isPrivate())
        continue;
      std::string name = func.getName().str();
      RunOptions base;
      base.repeat = std::max(1, std::min<int>(repeat, 3));
      base.warmup = 1;
      base.schedulePipeline = "dltune-strip";
      RunOptions tuned;
      tuned.repeat = repeat;
      tuned.check = true;
      tuned.schedulePipeline = annotatePipeline() + ",dltune-apply,dltune-strip";
      llvm::Expected<RunReport> b = runCpuKernel(*module, name, base);
      if (!b)
        return fail(name + " (untuned): " + llvm::toString(b.takeError()));
      llvm::Expected<RunReport> d = runCpuKernel(*module, name, tuned);
      if (!d)
        return fail(name + " (default config): " + llvm::toString(d.takeError()));
      allOk &= d->comparison.ok;
      llvm::outs() << llvm::formatv(
          "{0,-28} {1,12:f3} {2,12:f3} {3,10:f2} {4,10:f2} {5,8:f1}x {6}\n", name,
          b->timing.medianMs, d->timing.medianMs, b->getGflops(), d->getGflops(),
          b->timing.medianMs / d->timing.medianMs,
          d->comparison.ok ? "ok" : "FAILED: " + d->comparison.message);
    }
  }
  llvm::outs() << llvm::formatv(
      "(median of timed runs, JIT-compiled at -O3, {0} OpenMP threads available; "
      "untuned = the same module lowered without a schedule)\n",
      omp_get_max_threads());
  return allOk ? 0 : 2;
}

} // namespace dltune_tool
