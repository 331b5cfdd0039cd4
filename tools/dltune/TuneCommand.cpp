//===- TuneCommand.cpp - dltune tune --------------------------------------===//
//
//   dltune tune FILE.mlir... [--threads T] [-o OUT] [--json] [--entry F]
//               [tuner options]
//
// Annotates every file with dltune's default spaces, autotunes all tasks
// against the database and prints one table for all of them. The tuner
// options are those of --dltune-autotune (`--db`, `--trials`, `--jobs`,
// `--strategy`, `--plan-size`, ...: see forEachTunerOption), as flags.
//
// --entry F: after tuning, F is timed end to end with the default configs
// and with the tuned ones (and the tuned one checked).
//
// -o: with one input, the tuned IR goes to that file (`-` for stdout), or
// into it when it is an existing directory; with several inputs, -o must
// name a directory (existing, or ending in `/`), which gets one tuned file
// per input under the input's file name. Anything else is refused before
// tuning starts.
//
//===----------------------------------------------------------------------===//

#include "dltune/Dialect/DLTuneDialect.h"
#include "Common.h"

#include "dltune/Execution/DeviceInfo.h"
#include "dltune/Tuning/Database/PostgresDatabase.h"
#include "dltune/Execution/KernelRunner.h"
#include "dltune/Execution/ModuleTuner.h"
#include "dltune/Execution/ProgressPrinter.h"
#include "dltune/Execution/StudySettings.h"
#include "dltune/Tuning/TaskScheduler/StudySuspension.h"

#include "mlir/Parser/Parser.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand tuneCmd("tune", "Annotate and autotune MLIR files");
static cl::list<std::string> files(cl::Positional, cl::desc("<file.mlir>..."), cl::ZeroOrMore,
                                   cl::sub(tuneCmd));
static cl::opt<std::string>
    studyName("study",
              cl::desc("Work on this study of the database with any number of other workers "
                       "(docs/distributed.md): registered by `dltune study create`, or by the "
                       "first worker given model files"),
              cl::sub(tuneCmd));
static cl::opt<int> threads("threads", cl::desc("CPU threads per kernel (0: all cores)"),
                            cl::init(0), cl::sub(tuneCmd));
static cl::opt<std::string>
    output("o",
           cl::desc("Tuned IR: a file for one input; a directory (one file per input) for "
                    "several"),
           cl::sub(tuneCmd));
static cl::opt<bool> winograd("winograd", cl::desc(kWinogradHelp), cl::init(true),
                              cl::sub(tuneCmd));
static cl::opt<bool> json("json", cl::desc("One JSON object per task instead of the table"),
                          cl::sub(tuneCmd));
static cl::opt<bool> tf32("tf32",
                          cl::desc("Let f32 matmuls use TF32 tensor cores on the GPU (sets "
                                   "dltune.allow_tf32 on each module, kept in the tuned file)"),
                          cl::sub(tuneCmd));
static StudySuspensionFlags tuneSuspension(tuneCmd);
/// Every --dltune-autotune option, as a flag of `dltune tune`.
static TunerOptionSet tunerFlags([](llvm::StringRef name, llvm::StringRef help, const auto &init) {
  using T = std::decay_t<decltype(init)>;
  return std::unique_ptr<cl::Option>(
      new cl::opt<T>(name, cl::desc(help), cl::init(init), cl::sub(tuneCmd)));
});

/// Where each input's tuned IR goes (empty without -o), or an error.
static llvm::Expected<std::vector<std::string>> outputPaths() {
  std::vector<std::string> paths(files.size());
  if (output.empty())
    return paths;
  bool isDir = llvm::sys::fs::is_directory(output) || llvm::StringRef(output).ends_with("/");
  if (!isDir) {
    if (files.size() > 1)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "-o '%s' names one file for %zu inputs: give a directory (existing, or ending in "
          "'/') to get one tuned file per input",
          output.c_str(), files.size());
    paths[0] = output;
    return paths;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(output))
    return llvm::createStringError(ec, "cannot create directory '%s': %s", output.c_str(),
                                   ec.message().c_str());
  llvm::StringSet<> seen;
  for (size_t i = 0; i < files.size(); ++i) {
    llvm::SmallString<256> p(output);
    llvm::sys::path::append(p, llvm::sys::path::filename(files[i]));
    if (!seen.insert(p).second)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "two inputs would both be written to '%s'", p.c_str());
    paths[i] = std::string(p);
  }
  return paths;
}

/// The model's end-to-end timing: rounds, and the calls a round makes on
/// the GPU (those of `dltune run`: --warmup, --repeat) and on the CPU.
static constexpr int kModelRounds = 3;
static constexpr int kModelGpuWarmups = 2, kModelGpuRepeats = 10;
static constexpr int kModelCpuWarmups = 1, kModelCpuRepeats = 3;

/// The model's latency, not the sum of its tasks': `entry` of `file` run
/// with the default configs and of `tuned` with the tuned ones, in rounds
/// that alternate the two so drift hits both alike. On `target`: the CPU
/// JIT-runs it, the GPU times its launches with CUDA events; the tuned run
/// is checked against the untuned CPU lowering either way.
static int measureModelLatency(const std::string &file, const std::string &modelEntry,
                               ModuleOp tuned, MLIRContext &ctx, const std::string &dbPathOfRun,
                               const std::string &target, const std::string &gpuChip,
                               bool flushCaches, bool scheduledReference,
                               std::string &report) {
  llvm::raw_string_ostream os(report);
  OwningOpRef<ModuleOp> original = parseFile(file, ctx);
  if (!original)
    return 1;
  // Both at the same precision: --tf32 was set on the tuned module only.
  if (Attribute tf32Attr = tuned->getAttr(DLTuneDialect::kAllowTf32AttrName))
    (*original)->setAttr(DLTuneDialect::kAllowTf32AttrName, tf32Attr);
  bool gpu = target == "gpu";
  RunOptions byDefault, byTuned;
  byDefault.schedulePipeline =
      getDefaultConfigPipeline(target, threads, winograd, gpuChip) + ",dltune-apply,dltune-strip";
  // On the GPU as `dltune run` times it (2 warm-up calls, then 10): the
  // calls take milliseconds, and with one warm-up and three calls the
  // tuned encoder at batch 1 timed 11% slower than `dltune run` of the
  // tuned file on an H200 (docs/gpu.md). On the CPU a call can take
  // seconds: one warm-up and three.
  int warmups = gpu ? kModelGpuWarmups : kModelCpuWarmups;
  int repeats = gpu ? kModelGpuRepeats : kModelCpuRepeats;
  byDefault.repeat = byTuned.repeat = repeats;
  byDefault.warmup = byTuned.warmup = warmups;
  byDefault.gpuChip = byTuned.gpuChip = gpuChip; // as the tasks were built
  if (flushCaches) // as the tasks were measured
    byDefault.flushCacheBytes = byTuned.flushCacheBytes = getDefaultFlushBytes(target);
  byTuned.check = true;
  byTuned.scheduledReference = scheduledReference;
  // The tuned module may be rewritten (Winograd): check it against the
  // model as given.
  byTuned.referenceModule = *original;
  std::vector<double> defaultMs, tunedMs;
  bool checkedOk = true;
  std::string checkMessage, comparedWith;
  auto runModel = [gpu, &modelEntry](ModuleOp m, const RunOptions &o) {
    return gpu ? runGpuKernel(m, modelEntry, o) : runCpuKernel(m, modelEntry, o);
  };
  for (int round = 0; round < kModelRounds; ++round) {
    llvm::Expected<RunReport> d = runModel(*original, byDefault);
    if (!d)
      return fail("--entry " + modelEntry + " (default configs): " + llvm::toString(d.takeError()));
    llvm::Expected<RunReport> t = runModel(tuned, byTuned);
    if (!t)
      return fail("--entry " + modelEntry + " (tuned): " + llvm::toString(t.takeError()));
    defaultMs.push_back(d->timing.medianMs);
    tunedMs.push_back(t->timing.medianMs);
    if (round == 0) {
      checkedOk = t->comparison.ok;
      checkMessage = t->comparison.message;
      comparedWith = t->reference;
    }
    byTuned.check = false; // once is enough
  }
  double d = median(defaultMs), t = median(tunedMs);
  // Kept in the database beside the tasks' records, for `dltune report`; a
  // database that cannot take it loses only this line of the report.
  if (llvm::Expected<std::unique_ptr<Database>> db = Database::open(dbPathOfRun)) {
    DeviceInfo device = DeviceInfo::detect(target);
    device.cachesFlushed = flushCaches;
    llvm::Expected<int64_t> deviceId = (*db)->getOrCreateDevice(
        {0, device.getFingerprint(), device.getName(), device.toJson()});
    llvm::Error kept = deviceId ? (*db)->addModelLatency(
                                      *deviceId, {file, modelEntry, d, t, checkedOk, 0})
                                : deviceId.takeError();
    if (kept)
      llvm::errs() << "dltune: warning: the end-to-end timing was not kept in the database: "
                   << llvm::toString(std::move(kept)) << "\n";
  } else {
    llvm::errs() << "dltune: warning: the end-to-end timing was not kept in the database: "
                 << llvm::toString(db.takeError()) << "\n";
  }
  os << llvm::formatv("model @{0} end to end{1}: default configs {2:f3} ms, tuned {3:f3} "
                      "ms ({4:f2}x); tuned check against {5}: {6}\n",
                      modelEntry, gpu ? " on the GPU" : "", d, t, d / t,
                      comparedWith == "scheduled"
                          ? std::string("the CPU's default configuration")
                          // "untuned", or "untuned (the scheduled build failed: ...)"
                          : std::string(gpu ? "the untuned CPU lowering" : "the untuned lowering") +
                                (comparedWith.size() > 7 ? comparedWith.substr(7) : ""),
                      checkedOk ? "ok" : "FAILED: " + checkMessage);
  os << llvm::formatv("({0}, {1} alternating rounds of {2} timed calls after {3}; medians",
                      gpu ? "launches timed with CUDA events" : "JIT", kModelRounds, repeats,
                      warmups == 1 ? std::string("a warm-up")
                                   : std::to_string(warmups) + " warm-up calls")
     << (flushCaches ? "; caches flushed before each call)\n" : ")\n");
  return checkedOk ? 0 : 2;
}

/// 1 when a task could not be tuned (after saying how many), else 2 when
/// the tuned model failed its check, else 0: the exit status says whether
/// the work was done.
static int untunedTasksExitCode(llvm::ArrayRef<TaskSummary> tasks, bool modelCheckFailed) {
  int64_t untuned =
      llvm::count_if(tasks, [](const TaskSummary &t) { return !t.error.empty(); });
  if (untuned)
    return fail(llvm::Twine(untuned) + " of " + llvm::Twine(tasks.size()) +
                " tasks could not be tuned (see the table); the others are in the database");
  return modelCheckFailed ? 2 : 0;
}

/// A worker of a study writes its row at least this often while tuning.
static constexpr double kWorkerHeartbeatSeconds = 30;


/// `--study`: the study to work on (registered from `files` when it does not
/// exist yet and files are given) and its settings over this worker's own.
static llvm::Expected<std::pair<Study, StudySettings>> joinStudy(Database &db,
                                                                 StudySettings mine) {
  if (files.empty()) {
    // Joining: what the study fixes comes from the database only.
    std::vector<std::string> given;
    for (const std::string &name : tunerFlags.getGivenNames())
      if (!isWorkerOption(name))
        given.push_back("--" + name);
    for (const cl::Option *o : {static_cast<const cl::Option *>(&threads),
                                static_cast<const cl::Option *>(&winograd),
                                static_cast<const cl::Option *>(&tf32)})
      if (o->getNumOccurrences())
        given.push_back("--" + o->ArgStr.str());
    for (std::string &name : tuneSuspension.getGivenNames())
      given.push_back(std::move(name));
    if (!given.empty())
      return llvm::createStringError(
          "the study '" + studyName + "' fixes " + llvm::join(given, ", ") +
          " for all its workers: leave them out (a worker sets only --db, --jobs, the "
          "timeouts, --mem-limit-mb, --work-dir, --worker, --chip and --quiet)");
  }
  llvm::Expected<std::optional<Study>> found = db.findStudy(studyName);
  if (!found)
    return found.takeError();
  if (!*found) {
    if (files.empty())
      return llvm::createStringError("no study named '" + studyName +
                                     "' in the database: create it with `dltune study create " +
                                     studyName + " MODEL.mlir... --db DB`, or give the model "
                                     "files to this worker");
    llvm::Expected<Study> study =
        makeStudy(studyName, std::vector<std::string>(files.begin(), files.end()), mine);
    if (!study)
      return study.takeError();
    llvm::Expected<int64_t> id = db.createStudy(*study);
    if (id) {
      study->id = *id;
      return std::make_pair(std::move(*study), mine);
    }
    // Another worker started with the same command registered it first;
    // any other error is the user's to see.
    std::string why = llvm::toString(id.takeError());
    if (why.find("exists already") == std::string::npos)
      return llvm::createStringError(why);
    found = db.findStudy(studyName);
    if (!found)
      return found.takeError();
    if (!*found)
      return llvm::createStringError("the study '" + studyName + "' could not be registered");
  }
  Study study = std::move(**found);
  if (!files.empty()) {
    // Workers launched with one command line all give the files: the same
    // models and options join, anything else is refused.
    llvm::Expected<Study> given =
        makeStudy(studyName, std::vector<std::string>(files.begin(), files.end()), mine);
    if (!given)
      return given.takeError();
    bool same = given->options == study.options && given->models.size() == study.models.size();
    for (size_t i = 0; same && i < study.models.size(); ++i)
      same = given->models[i].name == study.models[i].name &&
             given->models[i].module == study.models[i].module;
    if (!same)
      return llvm::createStringError(
          "the study '" + studyName + "' exists with other models or options than these: "
          "join it without model files and study options, or name a new study");
  }
  llvm::Expected<StudySettings> settings = decodeStudySettings(study.options, mine);
  if (!settings)
    return settings.takeError();
  return std::make_pair(std::move(study), std::move(*settings));
}

/// What a worker of a suspending study needs from `tuneCommand`.
struct SuspendingWorker {
  Database &db;
  const Study &study;
  const StudySuspensionSettings &suspension;
  const ModuleTunerOptions &options;
  int64_t deviceId;
  std::string owner;
  MLIRContext &ctx;
  /// Writes the worker's row (state, model, message).
  std::function<void(const std::string &, const std::string &, const std::string &)> report;
  CostModelUse &modelUse;
};

/// `--suspend` (docs/distributed.md, "Suspension"): the worker tunes the
/// study's models an interval at a time - the model furthest behind first,
/// so that they reach each synchronisation together - and after each
/// interval keeps the model's latency; at each synchronisation Trimmer's
/// rule may suspend the model that improved least once it has plateaued.
/// Each interval resumes the model from the database (`trials` up to the
/// interval's end, no confirmation); a model is confirmed once, when it
/// stops, by the worker that stopped it. Fills `all` with the last summary
/// of each model this worker tuned; returns tuneCommand's exit code.
static int runSuspendingStudy(SuspendingWorker &w, std::vector<TaskSummary> &all) {
  const Study &study = w.study;
  const ModuleTunerOptions &options = w.options;
  ModelSuspensionOptions rule;
  rule.plateauIntervals = w.suspension.plateauIntervals;
  rule.minImprovement = w.suspension.minImprovement;
  size_t modelCount = study.models.size();
  std::vector<OwningOpRef<ModuleOp>> annotated(modelCount);
  std::vector<std::vector<TaskSummary>> summaries(modelCount);
  std::vector<double> secondsSpent(modelCount, 0);
  auto say = [&](const llvm::Twine &line) {
    if (options.progress)
      llvm::errs() << line << "\n";
  };

  // The model as the workers tune it, annotated once, cloned per call.
  auto moduleOf = [&](size_t m) -> llvm::Expected<OwningOpRef<ModuleOp>> {
    const std::string &name = study.models[m].name;
    if (!annotated[m]) {
      annotated[m] = parseSourceString<ModuleOp>(study.models[m].module, &w.ctx, name);
      if (!annotated[m])
        return llvm::createStringError("the study's model '" + name + "' does not parse");
      if (tf32)
        (*annotated[m])->setAttr(DLTuneDialect::kAllowTf32AttrName, UnitAttr::get(&w.ctx));
      if (llvm::Error e = annotateForTuning(*annotated[m], threads, options.target, winograd,
                                            name, options.gpuChip))
        return std::move(e);
    }
    return OwningOpRef<ModuleOp>(annotated[m]->clone());
  };
  auto runTuner = [&](size_t m, const ModuleTunerOptions &o)
      -> llvm::Expected<std::vector<TaskSummary>> {
    const std::string &name = study.models[m].name;
    llvm::Expected<OwningOpRef<ModuleOp>> module = moduleOf(m);
    if (!module)
      return module.takeError();
    ScopedDiagnosticHandler quiet(&w.ctx, [](Diagnostic &d) {
      return success(d.getSeverity() == DiagnosticSeverity::Remark);
    });
    ProgressPrinter printer(llvm::errs(), o.progress);
    TuningEventCallback show = printer.asCallback();
    double lastHeartbeat = secondsNow();
    auto start = std::chrono::steady_clock::now();
    llvm::Expected<std::vector<TaskSummary>> tasks =
        tuneModule(**module, o, [&](const TuningEvent &e) {
          w.modelUse.count(e);
          show(e);
          if (secondsNow() - lastHeartbeat >= kWorkerHeartbeatSeconds) {
            lastHeartbeat = secondsNow();
            w.report("tuning", name, "");
          }
        });
    secondsSpent[m] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return tasks;
  };
  // A model's summaries: the latest call's, with this worker's new
  // measurements and seconds over all its calls.
  auto keepSummaries = [&](size_t m, std::vector<TaskSummary> latest) {
    for (TaskSummary &t : latest)
      for (const TaskSummary &earlier : summaries[m])
        if (earlier.hash == t.hash) {
          t.newTrials += earlier.newTrials;
          t.tuningSeconds += earlier.tuningSeconds;
        }
    summaries[m] = std::move(latest);
  };
  // The best candidates of a stopped model, re-measured in fresh processes
  // (nothing new is measured: the budget is what it holds).
  auto confirm = [&](size_t m) -> llvm::Error {
    llvm::Expected<StudyModelLatency> now =
        readStudyModelLatency(w.db, study.models[m], w.deviceId);
    if (!now)
      return now.takeError();
    ModuleTunerOptions o = options;
    o.trials = std::max<int64_t>(1, now->measured);
    o.timeBudgetSeconds = 0;
    say("== " + study.models[m].name + ": confirming its best candidates");
    llvm::Expected<std::vector<TaskSummary>> tasks = runTuner(m, o);
    if (!tasks)
      return tasks.takeError();
    keepSummaries(m, std::move(*tasks));
    return llvm::Error::success();
  };
  auto readRows = [&]() -> llvm::Expected<std::vector<StudyModelIntervals>> {
    llvm::Expected<std::vector<StudyInterval>> intervals =
        w.db.listStudyIntervals(study.id, w.deviceId);
    if (!intervals)
      return intervals.takeError();
    llvm::Expected<std::vector<StudyModelStop>> stops =
        w.db.listStudyModelStops(study.id, w.deviceId);
    if (!stops)
      return stops.takeError();
    return collectStudyIntervals(*intervals, *stops, modelCount);
  };
  auto failWith = [&](const std::string &model, llvm::Error e) {
    std::string why = llvm::toString(std::move(e));
    w.report("failed", model, why);
    return fail(model.empty() ? why : model + ": " + why);
  };

  for (;;) {
    llvm::Expected<std::vector<StudyModelIntervals>> rows = readRows();
    if (!rows)
      return failWith("", rows.takeError());
    // Whatever the rows call for, any worker writes, the first decision
    // first; the worker whose write stood confirms the suspended model. Then
    // the rows are read again (another worker may have written meanwhile,
    // and later decisions assumed this one): a model is picked only from
    // rows that call for nothing more.
    std::vector<StudyModelStop> decided = decideStudySuspensions(*rows, rule);
    if (!decided.empty()) {
      const StudyModelStop &stop = decided.front();
      llvm::Expected<bool> stored = w.db.stopStudyModel(study.id, w.deviceId, stop);
      if (!stored)
        return failWith("", stored.takeError());
      if (*stored) {
        const std::string &name = study.models[stop.position].name;
        say("== " + name + ": suspended after interval " + llvm::Twine(stop.interval) + " (" +
            stop.reason + ")");
        if (llvm::Error e = confirm(stop.position))
          return failWith(name, std::move(e));
      }
      continue;
    }
    llvm::Expected<std::vector<StudyWorker>> workers = w.db.listStudyWorkers(study.id);
    if (!workers)
      return failWith("", workers.takeError());
    std::vector<int> busy(modelCount, 0);
    double now = secondsNow();
    for (const StudyWorker &other : *workers)
      if (other.owner != w.owner && other.deviceId == w.deviceId && other.state == "tuning" &&
          now - other.updatedAt < kWorkerSilentSeconds)
        for (size_t m = 0; m < modelCount; ++m)
          if (study.models[m].name == other.model)
            ++busy[m];
    std::optional<size_t> next = pickNextStudyModel(*rows, busy);
    if (!next)
      break;
    size_t m = *next;
    const StudyModel &model = study.models[m];
    const StudyModelIntervals &done = (*rows)[m];
    int64_t k = done.getCompletedIntervals() + 1;
    llvm::Expected<StudyModelLatency> before = readStudyModelLatency(w.db, model, w.deviceId);
    if (!before)
      return failWith(model.name, before.takeError());
    int64_t startMeasured = done.measured.empty() ? before->measured : done.measured.back();
    int64_t length = w.suspension.intervalTrials > 0
                         ? w.suspension.intervalTrials
                         : options.slotTrials * static_cast<int64_t>(model.tasks.size());
    int64_t target = std::min(startMeasured + length, options.trials);
    ModuleTunerOptions o = options;
    o.trials = std::max<int64_t>(1, target);
    o.confirmTop = 0;
    if (options.timeBudgetSeconds > 0)
      o.timeBudgetSeconds = std::max(1e-3, options.timeBudgetSeconds - secondsSpent[m]);
    w.report("tuning", model.name, "");
    say("== " + model.name + ": interval " + llvm::Twine(k) + ", measurements " +
        llvm::Twine(startMeasured) + " to " + llvm::Twine(target) + " of " +
        llvm::Twine(options.trials));
    llvm::Expected<std::vector<TaskSummary>> tasks = runTuner(m, o);
    if (!tasks)
      return failWith(model.name, tasks.takeError());
    int64_t newTrials = 0;
    for (const TaskSummary &t : *tasks)
      newTrials += t.newTrials;
    keepSummaries(m, std::move(*tasks));
    llvm::Expected<StudyModelLatency> after = readStudyModelLatency(w.db, model, w.deviceId);
    if (!after)
      return failWith(model.name, after.takeError());
    // Why the model is done, if it is. The budget is a count anyone can
    // check; the rest are this worker's view, kept only when its figure for
    // the interval stands (below). With --suspend the time budget is the
    // model's: the first worker to spend it on the model ends it.
    std::string doneReason;
    bool anyoneMayTell = false;
    if (after->measured >= options.trials) {
      doneReason = "its measurement budget is spent";
      anyoneMayTell = true;
    } else if (options.latencyGoalMs > 0 && after->latencyMs <= options.latencyGoalMs) {
      doneReason = "its latency goal is reached";
    } else if (newTrials == 0 && after->measured == before->measured && busy[m] == 0 &&
               !(options.timeBudgetSeconds > 0 &&
                 secondsSpent[m] >= options.timeBudgetSeconds)) {
      // Nobody measured anything, no other worker is on it, and time was
      // left: its scheduler finished every task (or the space is spent).
      doneReason = "nothing left to measure (its scheduler finished it)";
    } else if (options.timeBudgetSeconds > 0 && secondsSpent[m] >= options.timeBudgetSeconds) {
      doneReason = "its time budget is spent";
    }
    bool stoppedHere = false;
    int64_t position = static_cast<int64_t>(m);
    llvm::Error e = w.db.transaction([&]() -> llvm::Error {
      if (done.latencies.empty()) {
        llvm::Expected<bool> first =
            w.db.addStudyInterval(study.id, w.deviceId, {position, 0, after->untunedMs,
                                                         startMeasured, 0});
        if (!first)
          return first.takeError();
      }
      llvm::Expected<bool> added = w.db.addStudyInterval(
          study.id, w.deviceId, {position, k, after->latencyMs, after->measured, 0});
      if (!added)
        return added.takeError();
      if (doneReason.empty() || (!*added && !anyoneMayTell))
        return llvm::Error::success();
      llvm::Expected<bool> stopped =
          w.db.stopStudyModel(study.id, w.deviceId, {position, "done", k, doneReason, 0});
      if (!stopped)
        return stopped.takeError();
      stoppedHere = *stopped;
      return llvm::Error::success();
    });
    if (e)
      return failWith(model.name, std::move(e));
    say("== " + model.name + ": interval " + llvm::Twine(k) + " ended at " +
        (std::isnan(after->latencyMs) ? std::string("(a task without a best yet)")
                                      : llvm::formatv("{0:f4} ms", after->latencyMs).str()) +
        " after " + llvm::Twine(after->measured) + " measurements" +
        (stoppedHere ? "; done: " + doneReason : std::string()));
    if (stoppedHere)
      if (llvm::Error e = confirm(m))
        return failWith(model.name, std::move(e));
  }
  for (std::vector<TaskSummary> &s : summaries)
    all.insert(all.end(), s.begin(), s.end());
  if (all.empty())
    llvm::errs() << "dltune: note: every model of the study '" << study.name
                 << "' had stopped before this worker took one: it measured nothing\n";
  return 0;
}

int tuneCommand() {
  if (checkThreadsOption(threads))
    return 1;
  ModuleTunerOptions options = tunerFlags.getValues();
  if (llvm::Error e = validateTunerOptions(options))
    return fail(llvm::toString(std::move(e)));
  if (files.empty() && studyName.empty())
    return fail("no model file given (dltune tune FILE.mlir..., or --study NAME to work on a "
                "study)");
  // --study: the models and what shapes their tuning come from the study.
  std::optional<Study> study;
  std::unique_ptr<Database> studyDb;
  std::string workerOwner;
  int64_t workerDeviceId = 0;
  StudySuspensionSettings suspension;
  if (studyName.empty() && !tuneSuspension.getGivenNames().empty())
    return fail(llvm::join(tuneSuspension.getGivenNames(), ", ") +
                ": options of a study (--study NAME), whose workers suspend its models");
  if (!studyName.empty()) {
    if (!output.empty() || !options.modelEntry.empty())
      return fail("-o and --entry are not options of a study's worker (the tuned files: "
                  "`dltune compile --dltune-apply-best`; end-to-end timings: `dltune tune "
                  "--entry` after the study)");
    if (options.remeasure)
      return fail("--remeasure is not an option of a study's worker: it would move other "
                  "workers' records aside");
    llvm::Expected<std::unique_ptr<Database>> db = Database::open(options.dbPath);
    if (!db)
      return fail(llvm::toString(db.takeError()));
    studyDb = std::move(*db);
    StudySettings mine{options, threads, winograd, tf32, tuneSuspension.getValues()};
    // Only a worker that registers the study (it gives the files) has
    // suspension settings of its own; a joining one is refused any.
    if (!files.empty())
      if (llvm::Error e = validateStudySuspension(mine))
        return fail(llvm::toString(std::move(e)));
    auto joined = joinStudy(*studyDb, mine);
    if (!joined)
      return fail(llvm::toString(joined.takeError()));
    study = std::move(joined->first);
    options = joined->second.tuner;
    threads = joined->second.threads;
    winograd = joined->second.winograd;
    tf32 = joined->second.tf32;
    suspension = joined->second.suspension;
    if (llvm::Error e = validateTunerOptions(options))
      return fail("the study's options: " + llvm::toString(std::move(e)));
    DeviceInfo device = DeviceInfo::detect(options.target);
    device.cachesFlushed = options.flushCaches; // the device its records are kept under
    llvm::Expected<int64_t> deviceId = studyDb->getOrCreateDevice(
        {0, device.getFingerprint(), device.getName(), device.toJson()});
    if (!deviceId)
      return fail(llvm::toString(deviceId.takeError()));
    workerDeviceId = *deviceId;
    if (study->models.empty())
      return fail("the study '" + studyName + "' has no model (a damaged database?)");
    if (checkThreadsOption(threads))
      return 1;
    workerOwner = makeOwnerName();
    // Workers with one seed would propose in lockstep and skip each other's
    // claims round after round: each searches from its own.
    options.seed ^= llvm::xxh3_64bits(workerOwner);
  }
  // What this worker says about itself in the study (none without one).
  auto report = [&](const std::string &state, const std::string &model,
                    const std::string &message = "") {
    if (!study)
      return;
    StudyWorker w;
    w.owner = workerOwner;
    w.deviceId = workerDeviceId;
    w.state = state;
    w.model = model;
    w.message = message;
    if (llvm::Error e = studyDb->updateStudyWorker(study->id, w))
      llvm::errs() << "dltune: warning: the study's worker row was not updated: "
                   << llvm::toString(std::move(e)) << "\n";
  };
  llvm::Expected<std::vector<std::string>> outputs = outputPaths();
  if (!outputs)
    return fail(llvm::toString(outputs.takeError()));
  CostModelUse modelUse;
  MLIRContext ctx;
  setUpContext(ctx);
  std::vector<TaskSummary> all;
  std::string modelReport; // --entry: end-to-end latencies, after the table
  bool modelCheckFailed = false;
  size_t modelCount = study ? study->models.size() : files.size();
  if (study && suspension.enabled) {
    SuspendingWorker worker{*studyDb, *study,      suspension, options, workerDeviceId,
                            workerOwner, ctx,       report,     modelUse};
    if (int rc = runSuspendingStudy(worker, all))
      return rc;
    modelCount = 0; // tuned: the loop below has nothing left to do
  }
  for (size_t fi = 0; fi < modelCount; ++fi) {
    std::string file = study ? study->models[fi].name : files[fi];
    OwningOpRef<ModuleOp> module;
    if (study) {
      report("tuning", file);
      module = parseSourceString<ModuleOp>(study->models[fi].module, &ctx, file);
      if (!module) {
        report("failed", file, "the model's text does not parse");
        return fail("the study's model '" + file + "' does not parse");
      }
    } else {
      module = parseFile(file, ctx);
    }
    if (!module)
      return 1;
    if (tf32)
      (*module)->setAttr(DLTuneDialect::kAllowTf32AttrName, UnitAttr::get(&ctx));
    if (llvm::Error e = annotateForTuning(*module, threads, options.target, winograd, file,
                                          options.gpuChip)) {
      std::string why = llvm::toString(std::move(e));
      report("failed", file, why);
      return fail(why);
    }
    // Remarks about ops left alone are not news while tuning either.
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &d) {
      return success(d.getSeverity() == DiagnosticSeverity::Remark);
    });
    std::string err;
    if (options.progress)
      llvm::errs() << "== " << file << "\n";
    ProgressPrinter printer(llvm::errs(), options.progress);
    TuningEventCallback show = printer.asCallback();
    double lastHeartbeat = secondsNow();
    llvm::Expected<std::vector<TaskSummary>> tasks =
        tuneModule(*module, options, [&](const TuningEvent &e) {
          modelUse.count(e);
          show(e);
          if (study && secondsNow() - lastHeartbeat >= kWorkerHeartbeatSeconds) {
            lastHeartbeat = secondsNow();
            report("tuning", file);
          }
        });
    if (!tasks) {
      std::string why = llvm::toString(tasks.takeError());
      report("failed", file, why);
      return fail(file + ": " + why);
    }
    all.insert(all.end(), tasks->begin(), tasks->end());
    // Written as soon as it is tuned: a later file's failure keeps it.
    if (fi < outputs->size() && !(*outputs)[fi].empty()) {
      auto out = openOutputFile((*outputs)[fi], &err);
      if (!out)
        return fail(err);
      module->print(out->os());
      out->keep();
    }
    if (!options.modelEntry.empty() && module->lookupSymbol(options.modelEntry)) {
      int rc = measureModelLatency(file, options.modelEntry, *module, ctx, options.dbPath,
                                   options.target, options.gpuChip, options.flushCaches,
                                   options.target == "gpu" && options.gpuReference == "scheduled",
                                   modelReport);
      if (rc == 1)
        return rc;
      modelCheckFailed |= rc == 2;
    }
  }
  if (study)
    report("finished", study->models.back().name);
  if (all.empty() && !(study && suspension.enabled))
    llvm::errs() << "dltune: note: no op in the given files has a dltune search space "
                    "(supported: matmul, batch_matmul, 2-D convolutions, depthwise "
                    "convolution, NHWC pooling, elementwise generics with static shapes)\n";
  if (json) {
    auto number = [](double v) {
      return std::isnan(v) ? llvm::json::Value(nullptr) : llvm::json::Value(v);
    };
    for (const TaskSummary &t : all) {
      llvm::json::Object o{{"task", t.hash},
                           {"description", t.description},
                           {"ops", t.weight},
                           {"untuned_ms", number(t.untunedMs)},
                           {"best_ms", number(t.bestMs)},
                           // The spread of the confirmed best over fresh processes;
                           // rounds 0: not confirmed.
                           {"best_min_ms", number(t.bestMinMs)},
                           {"best_max_ms", number(t.bestMaxMs)},
                           {"confirm_rounds", t.confirmRounds},
                           {"flops", t.flops},
                           {"best_config", t.bestConfig},
                           {"trials", t.trials},
                           {"new_trials", t.newTrials},
                           {"failures", t.failures},
                           {"tuning_s", t.tuningSeconds},
                           // Of tuning_s, transfer's: history, pretraining, the
                           // guard's refits; null without transfer.
                           {"transfer_s", number(t.transferSeconds)}};
      if (!t.error.empty())
        o["error"] = t.error;
      llvm::outs() << llvm::json::Value(std::move(o)) << "\n";
    }
    return untunedTasksExitCode(all, modelCheckFailed);
  }
  llvm::outs() << "\n";
  printTaskTable(all, llvm::outs());
  printModelSummary(all, llvm::outs());
  llvm::outs() << "(best ms: the best verified candidate's median over fresh processes when "
                  "confirmed, spread (max - min) / median across them; untuned: the same op "
                  "lowered without a schedule"
               << (llvm::any_of(all, [](const TaskSummary &t) { return t.referenceOnOtherDevice; })
                       ? " (cpu: a GPU task's reference on the CPU, by default the CPU's "
                         "default configuration)"
                       : "")
               << "; default: dltune's default configuration, what "
                  "the op compiles to untuned, confirmed like the best when it was measured; "
                  "database: "
               << redactDatabaseUrl(options.dbPath) << ")\n";
  if (modelUse.fits)
    printModelUse(modelUse.fits, modelUse.proposals, llvm::outs());
  llvm::outs() << modelReport;
  return untunedTasksExitCode(all, modelCheckFailed);
}

} // namespace dltune_tool
