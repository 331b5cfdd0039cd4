//===- Common.cpp - Shared pieces of the dltune subcommands ---------------===//

#include "Common.h"
#include "dltune/Execution/CudaDriver.h"

#include "dltune/InitAllDialects.h"
#include "dltune/Transforms/SchedulePlan.h"
#include "dltune/Transforms/TuningTasks.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

using namespace mlir;

namespace dltune_tool {

std::string getGpuDeviceOptions(const std::string &chip) {
  int64_t chipCc = mlir::dltune::GpuPlanTarget::getComputeCapabilityOfChip(chip);
  std::string byChip = chipCc > 0 ? " gpu-cc=" + std::to_string(chipCc) : "";
  llvm::Expected<mlir::dltune::CudaDriver &> driver = mlir::dltune::CudaDriver::get();
  if (!driver) {
    llvm::consumeError(driver.takeError());
    return byChip;
  }
  llvm::Expected<mlir::dltune::GpuDeviceInfo> info = driver->getDeviceInfo(0);
  if (!info) {
    llvm::consumeError(info.takeError());
    return byChip;
  }
  std::string options;
  if (info->multiprocessors > 0)
    options += " gpu-sms=" + std::to_string(info->multiprocessors);
  if (chipCc > 0)
    options += byChip;
  else if (info->computeMajor > 0)
    options += " gpu-cc=" + std::to_string(info->computeMajor * 10 + info->computeMinor);
  return options;
}

std::string getDefaultConfigPipeline(int threads, bool winograd) {
  std::string count = std::to_string(threads);
  return (winograd ? "dltune-winograd{threads=" + count + "}," : std::string()) +
         "dltune-widen-convs,dltune-annotate{default-config=true threads=" + count + "}";
}

std::string getDefaultConfigPipeline(const std::string &target, int threads, bool winograd,
                                     const std::string &chip) {
  if (target != "gpu")
    return getDefaultConfigPipeline(threads, winograd);
  return "dltune-conv-to-matmul,dltune-annotate{target=gpu default-config=true" +
         getGpuDeviceOptions(chip) + "}";
}

std::string getTuningAnnotatePipeline(int threads, const std::string &target, bool winograd,
                                      const std::string &chip) {
  std::string count = std::to_string(threads);
  bool cpu = target != "gpu"; // Winograd and widened convs are CPU vector code
  // The GPU's tuned kernel is the matmul: convolutions become GEMMs first.
  return (winograd && cpu ? "dltune-winograd{threads=" + count + "}," : std::string()) +
         (cpu ? "dltune-widen-convs," : "dltune-conv-to-matmul,") + "dltune-annotate{threads=" + count +
         " target=" + target + (cpu ? "" : getGpuDeviceOptions(chip)) + "}";
}

double secondsNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string formatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

int fail(const llvm::Twine &msg) {
  llvm::errs() << "dltune: error: " << msg << "\n";
  return 1;
}

int checkThreadsOption(int threads) {
  if (threads < 0 || threads > kMaxThreads)
    return fail("--threads must be between 0 (all cores) and " + llvm::Twine(kMaxThreads) +
                ", got " + llvm::Twine(threads));
  return 0;
}

void CliStrategyObserver::onModelError(llvm::Error error) {
  llvm::errs() << "dltune: warning: cost model: " << llvm::toString(std::move(error))
               << " (proposing at random until the next fit)\n";
}

void setUpContext(MLIRContext &ctx) {
  DialectRegistry registry;
  dltune::registerAllDLTuneDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
}

/// The deepest nesting of brackets, braces, parentheses and angle brackets
/// in MLIR text, outside strings and comments. MLIR's parser recurses per
/// level: an attribute nested 200,000 deep overflows its stack.
static size_t getNestingDepth(llvm::StringRef text) {
  size_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      size_t end = text.find('\n', i);
      i = end == llvm::StringRef::npos ? text.size() : end;
    } else if (c == '[' || c == '{' || c == '(' || c == '<') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}' || c == ')' || (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return deepest;
}

OwningOpRef<ModuleOp> parseFile(const std::string &path, MLIRContext &ctx) {
  std::string error;
  auto buffer = openInputFile(path, &error);
  if (!buffer) {
    llvm::errs() << "dltune: error: " << error << "\n";
    return {};
  }
  constexpr size_t kMaxNesting = 1000;
  if (size_t depth = getNestingDepth(buffer->getBuffer()); depth > kMaxNesting) {
    llvm::errs() << "dltune: error: '" << path << "' nests brackets " << depth
                 << " deep (at most " << kMaxNesting << " are read)\n";
    return {};
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? NAN : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

} // namespace dltune_tool

namespace dltune_tool {
llvm::Error annotateForTuning(mlir::ModuleOp module, int threads, const std::string &target,
                              bool winograd, const std::string &what, const std::string &chip) {
  mlir::MLIRContext *ctx = module.getContext();
  mlir::PassManager pm(ctx, mlir::ModuleOp::getOperationName());
  std::string err;
  llvm::raw_string_ostream os(err);
  if (mlir::failed(mlir::parsePassPipeline(getTuningAnnotatePipeline(threads, target, winograd, chip),
                                           pm, os)))
    return llvm::createStringError(err);
  // Remarks about ops left alone are not news here.
  mlir::ScopedDiagnosticHandler quiet(ctx, [](mlir::Diagnostic &d) {
    return mlir::success(d.getSeverity() == mlir::DiagnosticSeverity::Remark);
  });
  if (mlir::failed(pm.run(module)))
    return llvm::createStringError("annotating '" + what + "' failed");
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::pair<std::string, int64_t>>>
annotateAndCollectTasks(mlir::ModuleOp module, int threads, const std::string &target,
                        bool winograd, const std::string &what) {
  if (llvm::Error e = annotateForTuning(module, threads, target, winograd, what))
    return std::move(e);
  std::vector<std::pair<std::string, int64_t>> tasks;
  for (const mlir::dltune::TuningTask &task : mlir::dltune::collectTuningTasks(module)) {
    auto it = llvm::find_if(tasks, [&](const auto &t) { return t.first == task.record.hash; });
    if (it == tasks.end())
      tasks.emplace_back(task.record.hash, task.getWeight());
    else
      it->second += task.getWeight();
  }
  return tasks;
}
} // namespace dltune_tool
