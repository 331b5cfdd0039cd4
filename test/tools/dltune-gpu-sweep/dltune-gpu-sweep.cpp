//===- dltune-gpu-sweep.cpp - Compile a sample of every GPU space ---------===//
//
// Test tool: for every op of the input that --dltune-annotate="target=gpu"
// gives a space, takes a deterministic sample of its valid configurations
// (stratified over `stages` where the space has it: half with one shared
// buffer, half with two) and builds each one as the tuner's build worker
// would: apply, lower with --dltune-lower-gpu (format=bin: PTX assembled by
// ptxas). Prints one line per configuration and a summary per op; exits
// non-zero when any configuration fails to compile, or a matmul's does not
// become ONE kernel (its fill absorbed) with the block size its tiles imply,
// shared memory, barriers and at most a few spilled bytes in ptxas's report.
//
// With --emulate, each sampled SIMT configuration (tensor-core ones are
// skipped: they cannot run on the CPU) is instead run by the CPU emulation
// of its kernels (--dltune-lower-gpu{emulate=true}) on pseudo-random inputs
// and checked against the untuned CPU lowering; exits non-zero when any
// result differs.
//
//   dltune-gpu-sweep input.mlir [--count N] [--seed S] [--chip sm_90] [--emulate]
//
//===----------------------------------------------------------------------===//

#include "dltune/Execution/CpuKernel.h"
#include "dltune/Execution/KernelRunner.h"
#include "dltune/InitAllDialects.h"
#include "dltune/InitAllPasses.h"
#include "dltune/Transforms/GpuMatmulKernel.h"
#include "dltune/Transforms/GpuWindowKernel.h"
#include "dltune/Transforms/LowerGpu.h"
#include "dltune/Transforms/TuningTasks.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <random>

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input.mlir>"), cl::Required);
static cl::opt<unsigned> count("count", cl::desc("Configurations per space"), cl::init(16));
static cl::opt<uint64_t> seed("seed", cl::desc("Sampling seed"), cl::init(1));
/// Spill stores a kernel may have and still count as intended (bytes).
static constexpr int64_t kSpillAllowance = 32;

static cl::opt<std::string> chip("chip", cl::desc("Target chip"), cl::init("sm_90"));
static cl::opt<bool> emulate("emulate",
                             cl::desc("Run SIMT configurations by the CPU emulation of their "
                                      "kernels and check their results, instead of ptxas"));

/// Runs `kernel` (a task kernel with its configuration set) by the CPU
/// emulation of its GPU kernels and checks it against the untuned CPU
/// lowering; prints the outcome. True when the results match.
static bool checkEmulated(ModuleOp kernel) {
  RunOptions options;
  options.check = true;
  options.warmup = 0;
  options.repeat = 1;
  options.cpuLowering = "dltune-lower-gpu{emulate=true}";
  llvm::Expected<RunReport> report = runCpuKernel(kernel, "dltune_task", options);
  if (!report) {
    llvm::outs() << "FAILED " << llvm::toString(report.takeError()) << "\n";
    return false;
  }
  bool ok = report->checked && report->comparison.ok;
  llvm::outs() << (ok ? "ok" : "WRONG") << " (max relative error "
               << report->comparison.maxRelativeError << ")\n";
  return ok;
}

/// Up to `n` valid configurations, deterministic for a seed, spread evenly
/// over the combinations of `stages`, `mma` and `wgmma` where the space has
/// them (SIMT, mma.sync and warpgroup MMA at each stage count).
static std::vector<Config> sampleConfigs(const SearchSpace &space, unsigned n,
                                         uint64_t seed) {
  std::vector<Config> all;
  space.enumerate([&](const Config &c) {
    all.push_back(c);
    return all.size() < 1'000'000;
  });
  std::mt19937_64 rng(seed);
  std::shuffle(all.begin(), all.end(), rng);
  std::vector<size_t> strata;
  for (const char *name : {"stages", "mma", "wgmma"})
    if (std::optional<size_t> i = space.getKnobIndex(name))
      strata.push_back(*i);
  auto key = [&](const Config &c) {
    std::vector<int64_t> k;
    for (size_t i : strata)
      k.push_back(c[i]);
    return k;
  };
  std::map<std::vector<int64_t>, std::vector<Config>> groups;
  for (const Config &c : all)
    groups[key(c)].push_back(c);
  // Round-robin over the groups in key order until n are taken.
  std::vector<Config> out;
  for (size_t round = 0; out.size() < n; ++round) {
    bool any = false;
    for (auto &[k, group] : groups)
      if (round < group.size() && out.size() < n) {
        out.push_back(group[round]);
        any = true;
      }
    if (!any)
      break;
  }
  return out;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  registerAllDLTunePassesAndPipelines();
  cl::ParseCommandLineOptions(argc, argv, "Compile a sample of every GPU space\n");

  DialectRegistry registry;
  registerAllDLTuneDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  std::string error;
  auto buffer = openInputFile(inputPath, &error);
  if (!buffer) {
    llvm::errs() << "dltune-gpu-sweep: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
  if (!module)
    return 1;
  llvm::Expected<OwningOpRef<ModuleOp>> annotated =
      runPipelineOnClone(*module, "dltune-annotate{target=gpu}");
  if (!annotated) {
    llvm::errs() << llvm::toString(annotated.takeError()) << "\n";
    return 1;
  }
  std::string lowering = "dltune-apply,dltune-strip,dltune-lower-gpu{chip=" + chip +
                         " features=" + getPtxFeaturesForChip(chip) + " format=bin}";
  bool allOk = true;
  std::vector<TuningTask> tasks = collectTuningTasks(**annotated);
  for (TuningTask &task : tasks) {
    std::string name = task.descriptor.opKind;
    uint64_t valid = task.space.countValid();
    std::vector<Config> sample = sampleConfigs(task.space, count, seed);
    unsigned compiled = 0, asIntended = 0, overLimit = 0, windowKernels = 0, rowKernels = 0;
    auto knob = [&](const Config &c, const char *name) -> int64_t {
      std::optional<size_t> i = task.space.getKnobIndex(name);
      return i ? c[*i] : 0;
    };
    if (emulate) {
      unsigned tried = 0, correct = 0;
      for (const Config &c : sample) {
        if (knob(c, "mma"))
          continue;
        std::string text = task.space.formatConfig(c);
        OwningOpRef<ModuleOp> kernel(cast<ModuleOp>(task.kernel->clone()));
        llvm::outs() << "  " << name << " " << text << ": ";
        ++tried;
        if (llvm::Error e = setKernelConfig(*kernel, text)) {
          llvm::outs() << "INVALID " << llvm::toString(std::move(e)) << "\n";
          allOk = false;
          continue;
        }
        if (checkEmulated(*kernel))
          ++correct;
        else
          allOk = false;
      }
      llvm::outs() << "summary " << name << ": " << valid << " valid configs, " << correct << "/"
                   << tried << " SIMT configurations correct in the CPU emulation\n";
      continue;
    }
    for (const Config &c : sample) {
      std::string text = task.space.formatConfig(c);
      OwningOpRef<ModuleOp> kernel(cast<ModuleOp>(task.kernel->clone()));
      llvm::outs() << "  " << name << " " << text << ": ";
      if (llvm::Error e = setKernelConfig(*kernel, text)) {
        llvm::outs() << "INVALID " << llvm::toString(std::move(e)) << "\n";
        allOk = false;
        continue;
      }
      llvm::Expected<OwningOpRef<ModuleOp>> lowered = runPipelineOnClone(*kernel, lowering);
      if (!lowered) {
        llvm::outs() << "FAILED " << llvm::toString(lowered.takeError()) << "\n";
        allOk = false;
        continue;
      }
      llvm::Expected<std::vector<GpuKernelResources>> resources =
          getGpuKernelResources(**lowered);
      if (!resources || resources->empty()) {
        llvm::outs() << "FAILED no ptxas report"
                     << (resources ? "" : ": " + llvm::toString(resources.takeError())) << "\n";
        allOk = false;
        continue;
      }
      ++compiled;
      llvm::outs() << "ok";
      for (const GpuKernelResources &k : *resources) {
        llvm::outs() << " [" << k.kernel << ": " << k.registers << " regs, " << k.sharedBytes
                     << " B smem, " << k.barriers << " barriers, " << k.spillStoreBytes
                     << " B spilled, " << k.threadsPerBlock << " threads]";
      }
      if (llvm::Error e = checkGpuLimits(*resources, GpuLimits())) {
        llvm::outs() << " OVER-LIMIT " << llvm::toString(std::move(e));
        ++overLimit;
      }
      // A matmul: one kernel of the block size its tiles imply, staging
      // through shared memory, its accumulators in registers. ptxas may
      // still spill a few loop-invariant addresses (seen: 8-32 bytes when
      // it caps a kernel that loads C first at 64 registers).
      std::map<std::string, int64_t> values;
      for (auto [i, k] : llvm::enumerate(task.space.getKnobs()))
        values[k.name] = c[i];
      // A window kernel (a depthwise convolution, a pooling op): one kernel
      // of block_threads threads, its tile in registers without spills, no
      // shared memory or barriers.
      bool window = knob(c, "block_threads") != 0;
      // A row kernel (softmax, a layer norm): one kernel of lanes x rows
      // threads without shared memory or spills (barriers between its
      // steps).
      bool row = knob(c, "lanes") != 0;
      int64_t threads = window ? GpuWindowTiles::fromValues(values).blockThreads
                        : row  ? knob(c, "lanes") * knob(c, "rows")
                        : knob(c, "thread_m") && knob(c, "thread_n")
                            ? GpuMatmulTiles::fromValues(values).threads()
                            : 0;
      // With split_k > 1 a matmul is two kernels: the slices' (as above)
      // and the window kernel summing them (no shared memory, no spills);
      // secondAsIntended says whether that other kernel is as intended.
      int64_t splitK = std::max<int64_t>(1, knob(c, "split_k"));
      const GpuKernelResources *k = &resources->front();
      bool secondAsIntended = true;
      if (splitK > 1 && resources->size() == 2) {
        const GpuKernelResources &first = (*resources)[0], &second = (*resources)[1];
        k = first.sharedBytes > 0 ? &first : &second;
        const GpuKernelResources &sum = k == &first ? second : first;
        secondAsIntended = sum.sharedBytes == 0 && sum.barriers == 0 && sum.spillStoreBytes == 0;
      }
      // TF32 warpgroup MMA reads B transposed: with a B not contiguous
      // along k, a tiled transpose kernel (32 x 8 threads, a 32 x 33 float
      // tile, one barrier, no spills) copies it first.
      bool transposesB = knob(c, "wgmma") == 1 && !task.descriptor.elementTypes.empty() &&
                         task.descriptor.elementTypes.front() == "f32";
      if (transposesB && resources->size() == 2) {
        const GpuKernelResources &first = (*resources)[0], &second = (*resources)[1];
        auto isTranspose = [](const GpuKernelResources &r) {
          return r.threadsPerBlock == 256 && r.sharedBytes == 32 * 33 * 4 && r.barriers == 1 &&
                 r.spillStoreBytes == 0;
        };
        k = isTranspose(first) ? &second : &first;
        secondAsIntended = isTranspose(k == &first ? second : first);
      }
      bool intended =
          resources->size() == static_cast<size_t>(splitK > 1 || transposesB ? 2 : 1) &&
          secondAsIntended &&
          k->threadsPerBlock == threads &&
          (window ? k->sharedBytes == 0 && k->barriers == 0 && k->spillStoreBytes == 0
           : row  ? k->sharedBytes == 0 && k->spillStoreBytes == 0
                  : k->sharedBytes > 0 && k->barriers > 0 && k->spillStoreBytes <= kSpillAllowance);
      if (window)
        ++windowKernels;
      if (row)
        ++rowKernels;
      if (intended)
        ++asIntended;
      else
        allOk = false;
      llvm::outs() << (intended ? "" : " NOT-AS-INTENDED") << "\n";
    }
    llvm::outs() << "summary " << name << ": " << valid << " valid configs, " << compiled << "/"
                 << sample.size() << " compiled, " << asIntended << "/" << sample.size()
                 << (windowKernels ? " one window kernel of block_threads, no shared memory, no "
                                     "barriers, no spills, "
                     : rowKernels ? " one row kernel of lanes x rows threads, no shared memory, no "
                                    "spills, "
                                  : " one kernel with shared memory, barriers, <= " +
                                        std::to_string(kSpillAllowance) + " B spilled, ")
                 << overLimit << " over the device limits\n";
  }
  if (tasks.empty())
    llvm::outs() << "no op has a GPU space\n";
  return allOk ? 0 : 1;
}
