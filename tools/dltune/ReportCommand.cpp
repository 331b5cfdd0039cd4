//===- ReportCommand.cpp - dltune report ----------------------------------===//
//
//   dltune report --db PATH [-o OUT.html] [--compare OTHER.db]
//                 [--model FILE.mlir [--threads N] [--target cpu|gpu] [--winograd=false]]
//                 [--cold-factor F] [--watts-per-core W]
//
// Renders a tuning database as one self-contained HTML page of charts and
// tables (lib/Tuning/Report). With --model, only the model's tasks are
// shown and its latency weighs each task by its occurrences; the model is
// annotated as `dltune tune` annotates it, so give the same --threads,
// --target and --winograd.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Transforms/TuningTasks.h"
#include "dltune/Tuning/Database/PostgresDatabase.h"
#include "dltune/Tuning/Report/HtmlReport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand reportCmd("report", "Render a tuning database as an HTML page of charts");
static cl::opt<std::string> reportDb("db", cl::desc("Database file"), cl::init("dltune.db"),
                                     cl::sub(reportCmd));
static cl::opt<std::string> reportOut("o", cl::desc("Output HTML file ('-': stdout)"),
                                      cl::init("-"), cl::sub(reportCmd));
static cl::opt<std::string> reportCompare("compare",
                                          cl::desc("A second database to show beside the first "
                                                   "on the tasks both hold"),
                                          cl::sub(reportCmd));
static cl::opt<std::string> reportModel("model",
                                        cl::desc("Only the tasks of this MLIR model, weighted by "
                                                 "their occurrences"),
                                        cl::sub(reportCmd));
static cl::opt<int> reportThreads("threads",
                                  cl::desc("--model: the threads it was tuned for (0: all cores)"),
                                  cl::init(0), cl::sub(reportCmd));
static cl::opt<std::string> reportTarget("target", cl::desc("--model: cpu or gpu"),
                                         cl::init("cpu"), cl::sub(reportCmd));
static cl::opt<bool> reportWinograd("winograd", cl::desc(kWinogradHelp), cl::init(true),
                                    cl::sub(reportCmd));
static cl::opt<double> reportColdFactor(
    "cold-factor",
    cl::desc("A candidate slower than this factor times the best before it is cold"),
    cl::init(TuningCostOptions().coldFactor), cl::sub(reportCmd));
static cl::opt<double>
    reportWatts("watts-per-core",
                cl::desc("The power model's watts per busy core (modelled energy)"),
                cl::init(PowerModel().busyWattsPerCore), cl::sub(reportCmd));

/// Task hash -> occurrences of the model's annotated tasks.
static llvm::Expected<std::map<std::string, int64_t>> getModelTasks(const std::string &file) {
  MLIRContext ctx;
  setUpContext(ctx);
  OwningOpRef<ModuleOp> module = parseFile(file, ctx);
  if (!module)
    return llvm::createStringError("cannot read the model '" + file + "'");
  llvm::Expected<std::vector<std::pair<std::string, int64_t>>> tasks = annotateAndCollectTasks(
      *module, reportThreads, reportTarget.getValue(), reportWinograd, file);
  if (!tasks)
    return tasks.takeError();
  if (tasks->empty())
    return llvm::createStringError("'" + file + "' has no op with a dltune search space");
  return std::map<std::string, int64_t>(tasks->begin(), tasks->end());
}

static llvm::Expected<TuningReport> readReport(const std::string &path,
                                               const TuningReportOptions &options) {
  llvm::Expected<std::unique_ptr<Database>> db = Database::open(path, /*create=*/false);
  if (!db)
    return db.takeError();
  return collectTuningReport(**db, redactDatabaseUrl(path), options);
}

int reportCommand() {
  if (reportTarget != "cpu" && reportTarget != "gpu")
    return fail("--target must be cpu or gpu, not '" + reportTarget + "'");
  if (int rc = checkThreadsOption(reportThreads))
    return rc;
  if (!(reportColdFactor > 1))
    return fail("--cold-factor must be above 1");
  if (!(reportWatts >= 0))
    return fail("--watts-per-core must not be negative");
  TuningReportOptions options;
  options.cost.coldFactor = reportColdFactor;
  options.cost.power.busyWattsPerCore = reportWatts;
  if (!reportModel.empty()) {
    llvm::Expected<std::map<std::string, int64_t>> tasks = getModelTasks(reportModel);
    if (!tasks)
      return fail(llvm::toString(tasks.takeError()));
    options.modelTaskWeights = std::move(*tasks);
    options.modelName = reportModel;
  }
  llvm::Expected<TuningReport> report = readReport(reportDb, options);
  if (!report)
    return fail(llvm::toString(report.takeError()));
  std::optional<TuningReport> compare;
  if (!reportCompare.empty()) {
    llvm::Expected<TuningReport> other = readReport(reportCompare, options);
    if (!other)
      return fail(llvm::toString(other.takeError()));
    compare = std::move(*other);
  }
  std::string err;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(reportOut, &err);
  if (!out)
    return fail(err);
  writeHtmlReport(*report, compare ? &*compare : nullptr, out->os());
  out->keep();
  if (reportOut != "-")
    llvm::errs() << "wrote " << reportOut << " (" << report->tasks.size() << " tasks, "
                 << report->recordCount << " records)\n";
  return 0;
}

} // namespace dltune_tool
