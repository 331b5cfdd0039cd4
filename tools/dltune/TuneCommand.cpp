//===- TuneCommand.cpp - dltune tune --------------------------------------===//
//
//   dltune tune FILE.mlir... [--db dltune.db] [--trials N] [--jobs J]
//               [--threads T] [--seed S] [--strategy random] [-o OUT.mlir]
//
// Annotates every file with dltune's default spaces, autotunes all tasks
// against the database, prints one table for all of them and (with -o)
// writes the tuned IR of the last file.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Execution/ModuleTuner.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand tuneCmd("tune", "Annotate and autotune MLIR files on this CPU");
static cl::list<std::string> files(cl::Positional, cl::desc("<file.mlir>..."), cl::OneOrMore,
                                   cl::sub(tuneCmd));
static cl::opt<std::string> db("db", cl::desc("Tuning database"), cl::init("dltune.db"),
                               cl::sub(tuneCmd));
static cl::opt<int64_t> trials("trials", cl::desc("Measurements per task"), cl::init(64),
                               cl::sub(tuneCmd));
static cl::opt<unsigned> jobs("jobs", cl::desc("Parallel builds"), cl::init(2),
                              cl::sub(tuneCmd));
static cl::opt<std::string> target("target", cl::desc("cpu or gpu"), cl::init("cpu"),
                                   cl::sub(tuneCmd));
static cl::opt<int> threads("threads", cl::desc("CPU threads per kernel (0: all cores)"),
                            cl::init(0), cl::sub(tuneCmd));
static cl::opt<uint64_t> seed("seed", cl::desc("Random seed"), cl::init(0), cl::sub(tuneCmd));
static cl::opt<std::string> strategy("strategy", cl::desc("Search strategy"),
                                     cl::init("random"), cl::sub(tuneCmd));
static cl::opt<std::string> costModel("cost-model", cl::desc("xgb, xgb-reg or rf"),
                                      cl::init("xgb"), cl::sub(tuneCmd));
static cl::opt<double> timeBudget("time-budget", cl::desc("Seconds per task (0: none)"),
                                  cl::init(0), cl::sub(tuneCmd));
static cl::opt<std::string> output("o", cl::desc("Write the tuned IR here"), cl::sub(tuneCmd));
static cl::opt<bool> json("json", cl::desc("One JSON object per task instead of the table"),
                          cl::sub(tuneCmd));
static cl::opt<std::string> chip(
    "chip", cl::desc("GPU tasks: the chip (sm_XY); default: the detected GPU, else sm_90"),
    cl::sub(tuneCmd));

int tuneCommand() {
  if (trials < 1)
    return fail("--trials must be at least 1");
  MLIRContext ctx;
  setUpContext(ctx);
  ModuleTunerOptions options;
  options.dbPath = db;
  options.target = target;
  options.trials = trials;
  options.jobs = jobs;
  options.seed = seed;
  options.strategy = strategy;
  options.costModel = costModel;
  options.timeBudgetSeconds = timeBudget;
  options.gpuChip = chip;
  std::vector<TaskSummary> all;
  OwningOpRef<ModuleOp> last;
  for (const std::string &file : files) {
    OwningOpRef<ModuleOp> module = parseFile(file, ctx);
    if (!module)
      return 1;
    PassManager pm(&ctx, ModuleOp::getOperationName());
    std::string err;
    llvm::raw_string_ostream os(err);
    if (failed(parsePassPipeline("dltune-annotate{threads=" + std::to_string(threads) +
                                     " target=" + target + "}",
                                 pm, os)))
      return fail(err);
    // Remarks about ops left alone are not news here.
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &d) {
      return success(d.getSeverity() == DiagnosticSeverity::Remark);
    });
    if (failed(pm.run(*module)))
      return fail("annotating '" + file + "' failed");
    llvm::errs() << "== " << file << "\n";
    llvm::Expected<std::vector<TaskSummary>> tasks = tuneModule(*module, options, llvm::errs());
    if (!tasks)
      return fail(file + ": " + llvm::toString(tasks.takeError()));
    all.insert(all.end(), tasks->begin(), tasks->end());
    last = std::move(module);
  }
  if (all.empty())
    llvm::errs() << "dltune: note: no op in the given files has a dltune search space "
                    "(supported: matmul, batch_matmul, 2-D convolutions, depthwise "
                    "convolution, NHWC pooling, elementwise generics with static shapes)\n";
  if (!output.empty()) {
    std::string err;
    auto out = openOutputFile(output, &err);
    if (!out)
      return fail(err);
    last->print(out->os());
    out->keep();
  }
  if (json) {
    for (const TaskSummary &t : all)
      llvm::outs() << llvm::json::Value(llvm::json::Object{
                          {"task", t.hash},
                          {"description", t.description},
                          {"ops", t.weight},
                          {"untuned_ms", t.untunedMs},
                          {"best_ms", std::isnan(t.bestMs) ? llvm::json::Value(nullptr)
                                                           : llvm::json::Value(t.bestMs)},
                          {"flops", t.flops},
                          {"best_config", t.bestConfig},
                          {"trials", t.trials},
                          {"new_trials", t.newTrials},
                          {"failures", t.failures},
                          {"tuning_s", t.tuningSeconds}})
                   << "\n";
    return 0;
  }
  llvm::outs() << "\n";
  printTaskTable(all, llvm::outs());
  llvm::outs() << "(best ms: median of timed runs of the best verified candidate; untuned: the "
                  "same op lowered without a schedule; database: "
               << db << ")\n";
  return 0;
}

} // namespace dltune_tool
