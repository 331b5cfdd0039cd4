//===- StudyCommand.cpp - dltune study ------------------------------------===//
//
//   dltune study create NAME MODEL.mlir... --db DB [--threads T] [--winograd]
//                       [--tf32] [tuner options]
//   dltune study status NAME --db DB [--json]
//   dltune study list --db DB
//
// A study registers models and the tuner options that shape their tuning
// (budget, strategy, scheduler, annotation) once in a shared database;
// `dltune tune --study NAME --db DB` on any number of machines then tunes
// them together (TuneCommand.cpp; docs/distributed.md). `status` says per
// model and device how far the workers got, from the database alone.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Execution/StudySettings.h"
#include "dltune/Execution/TunerOptions.h"
#include "dltune/Tuning/Cost/TuningCost.h"
#include "dltune/Tuning/Database/PostgresDatabase.h"
#include "dltune/Tuning/TaskScheduler/StudySuspension.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand studyCmd("study", "Register models for workers on many machines, and follow them");
static cl::list<std::string> studyArgs(cl::Positional,
                                       cl::desc("create NAME MODEL.mlir... | status NAME | list"),
                                       cl::OneOrMore, cl::sub(studyCmd));
static cl::opt<int> studyThreads("threads", cl::desc("CPU threads per kernel (0: all cores)"),
                                 cl::init(0), cl::sub(studyCmd));
static cl::opt<bool> studyWinograd("winograd", cl::desc(kWinogradHelp), cl::init(true),
                                   cl::sub(studyCmd));
static cl::opt<bool> studyTf32("tf32",
                               cl::desc("Let f32 matmuls use TF32 tensor cores on the GPU"),
                               cl::sub(studyCmd));
static cl::opt<bool> studyJson("json", cl::desc("status: one JSON object"), cl::sub(studyCmd));
static TunerOptionSet studyFlags([](llvm::StringRef name, llvm::StringRef help,
                                    const auto &init) {
  using T = std::decay_t<decltype(init)>;
  return std::unique_ptr<cl::Option>(
      new cl::opt<T>(name, cl::desc(help), cl::init(init), cl::sub(studyCmd)));
});

StudySuspensionFlags::StudySuspensionFlags(cl::SubCommand &sub)
    : suspend("suspend",
              cl::desc("Tune the study's models an interval at a time and suspend, at each "
                       "synchronisation, the model that improved least once it has plateaued "
                       "(Trimmer; needs --scheduler)"),
              cl::sub(sub)),
      plateau("plateau",
              cl::desc("--suspend: intervals that must each improve by less than "
                       "--min-improvement"),
              cl::init(StudySuspensionSettings().plateauIntervals), cl::sub(sub)),
      minImprovement("min-improvement",
                     cl::desc("--suspend: relative model latency reduction of an interval "
                              "below which it is a plateau"),
                     cl::init(StudySuspensionSettings().minImprovement), cl::sub(sub)),
      intervalTrials("suspend-interval",
                     cl::desc("--suspend: measurements per model per interval (0: one epoch, "
                              "--slot-trials times the model's tasks)"),
                     cl::init(0), cl::sub(sub)) {}

StudySuspensionSettings StudySuspensionFlags::getValues() const {
  StudySuspensionSettings s;
  s.enabled = suspend;
  s.plateauIntervals = plateau;
  s.minImprovement = minImprovement;
  s.intervalTrials = intervalTrials;
  return s;
}

std::vector<std::string> StudySuspensionFlags::getGivenNames() const {
  std::vector<std::string> given;
  for (const cl::Option *o : {static_cast<const cl::Option *>(&suspend),
                              static_cast<const cl::Option *>(&plateau),
                              static_cast<const cl::Option *>(&minImprovement),
                              static_cast<const cl::Option *>(&intervalTrials)})
    if (o->getNumOccurrences())
      given.push_back("--" + o->ArgStr.str());
  return given;
}

static StudySuspensionFlags studySuspension(studyCmd);


llvm::Expected<Study> makeStudy(const std::string &name, const std::vector<std::string> &files,
                                const StudySettings &settings) {
  if (name.empty() || name.size() > 200 ||
      llvm::StringRef(name).find_first_of(" \t\n\r'\"") != llvm::StringRef::npos)
    return llvm::createStringError("a study name is 1-200 characters without spaces or quotes, "
                                   "not '" + name + "'");
  if (files.empty())
    return llvm::createStringError("the study '" + name + "' needs at least one model file");
  // The options are stored and shown as they are: a password in a history
  // URL would be.
  llvm::SmallVector<llvm::StringRef> sources;
  llvm::StringRef(settings.tuner.history).split(sources, ',');
  for (llvm::StringRef source : sources)
    if (redactDatabaseUrl(source.str()) != source.str())
      return llvm::createStringError(
          "a study keeps its options readable to every worker: give the history database's "
          "password in ~/.pgpass or PGPASSWORD, not in the URL");
  Study study;
  study.name = name;
  study.options = encodeStudySettings(settings);
  std::set<std::string> seen;
  for (const std::string &file : files) {
    if (!seen.insert(file).second)
      return llvm::createStringError("the model '" + file + "' is given twice");
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text = llvm::MemoryBuffer::getFile(file);
    if (!text)
      return llvm::createStringError("cannot read '" + file + "': " + text.getError().message());
    MLIRContext ctx;
    setUpContext(ctx);
    OwningOpRef<ModuleOp> module = parseFile(file, ctx);
    if (!module)
      return llvm::createStringError("'" + file + "' is not a valid MLIR module");
    // As the workers annotate it: TF32 is part of a task's identity.
    if (settings.tf32)
      (*module)->setAttr(DLTuneDialect::kAllowTf32AttrName, UnitAttr::get(&ctx));
    llvm::Expected<std::vector<std::pair<std::string, int64_t>>> tasks =
        annotateAndCollectTasks(*module, settings.threads, settings.tuner.target,
                                settings.winograd, file);
    if (!tasks)
      return tasks.takeError();
    if (tasks->empty())
      return llvm::createStringError("'" + file + "' has no op with a dltune search space");
    study.models.push_back({file, (*text)->getBuffer().str(), std::move(*tasks)});
  }
  return study;
}

static std::string formatTime(double secondsSinceEpoch) {
  std::time_t t = static_cast<std::time_t>(secondsSinceEpoch);
  char buffer[32];
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buffer;
}


namespace {
/// One model on one device: how far the workers got.
struct ModelProgress {
  std::string model, device, state;
  int64_t tasks = 0, tasksWithBest = 0, measured = 0, failed = 0;
  double bestMs = NAN; // sum of occurrences x best, when every task has one
  /// Build and measurement seconds of its records, and their modelled
  /// energy (dltune db cost's power model).
  double costSeconds = 0, costJoules = 0;
  /// Seconds until its measurement budget is spent at its own rate so far
  /// (first to last record); NaN when done or not started.
  double etaSeconds = NAN;
  /// With suspension: intervals completed, and why it stopped.
  int64_t intervals = 0;
  std::string stopReason;
};
} // namespace

static int createStudy(Database &db) {
  if (studyArgs.size() < 3)
    return fail("usage: dltune study create NAME MODEL.mlir... --db DB [options]");
  StudySettings settings;
  settings.tuner = studyFlags.getValues();
  settings.threads = studyThreads;
  settings.winograd = studyWinograd;
  settings.tf32 = studyTf32;
  settings.suspension = studySuspension.getValues();
  if (llvm::Error e = validateStudySuspension(settings))
    return fail(llvm::toString(std::move(e)));
  if (settings.tuner.remeasure)
    return fail("--remeasure is not a study option: it would move other workers' records aside");
  if (!settings.tuner.modelEntry.empty())
    return fail("--entry is not a study option (each worker's survey would time the model on "
                "its own): time the tuned model with `dltune tune --entry` after the study");
  llvm::Expected<Study> study = makeStudy(
      studyArgs[1], std::vector<std::string>(studyArgs.begin() + 2, studyArgs.end()), settings);
  if (!study)
    return fail(llvm::toString(study.takeError()));
  llvm::Expected<int64_t> id = db.createStudy(*study);
  if (!id)
    return fail(llvm::toString(id.takeError()));
  int64_t tasks = 0;
  for (const StudyModel &m : study->models)
    tasks += static_cast<int64_t>(m.tasks.size());
  llvm::outs() << "created study '" << study->name << "': " << study->models.size()
               << " models, " << tasks << " tasks; start workers with\n  dltune tune --study "
               << study->name << " --db " << redactDatabaseUrl(studyFlags.getValues().dbPath)
               << "\n";
  return 0;
}

static int listStudies(Database &db) {
  llvm::Expected<std::vector<Study>> studies = db.listStudies();
  if (!studies)
    return fail(llvm::toString(studies.takeError()));
  if (studies->empty())
    llvm::outs() << "no study in this database\n";
  for (const Study &s : *studies)
    llvm::outs() << s.name << ": " << s.models.size() << " models, created "
                 << formatTime(s.createdAt) << "\n";
  return 0;
}

static int studyStatus(Database &db) {
  if (studyArgs.size() != 2)
    return fail("usage: dltune study status NAME --db DB [--json]");
  llvm::Expected<std::optional<Study>> found = db.findStudy(studyArgs[1]);
  if (!found)
    return fail(llvm::toString(found.takeError()));
  if (!*found)
    return fail("no study named '" + studyArgs[1] + "' in this database");
  const Study &study = **found;
  llvm::Expected<StudySettings> settings = decodeStudySettings(study.options, StudySettings());
  if (!settings)
    return fail(llvm::toString(settings.takeError()));
  llvm::Expected<std::vector<StudyWorker>> workers = db.listStudyWorkers(study.id);
  if (!workers)
    return fail(llvm::toString(workers.takeError()));
  llvm::Expected<std::vector<DeviceRecord>> devices = db.listDevices();
  if (!devices)
    return fail(llvm::toString(devices.takeError()));
  auto deviceName = [&](int64_t id) -> std::string {
    for (const DeviceRecord &d : *devices)
      if (d.id == id)
        return d.name;
    return "device " + std::to_string(id);
  };
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < study.models.size(); ++i)
    position[study.models[i].name] = i;
  // Workers take the models in order: one at model k (or finished) is done
  // with every model before k.
  std::vector<int64_t> deviceIds;
  for (const StudyWorker &w : *workers)
    if (!llvm::is_contained(deviceIds, w.deviceId))
      deviceIds.push_back(w.deviceId);
  double now = secondsNow();
  std::vector<ModelProgress> rows;
  const StudySuspensionSettings &suspension = settings->suspension;
  // And the devices with intervals kept but no worker row: a study
  // imported from an export (workers' rows are not exported).
  if (suspension.enabled)
    for (const DeviceRecord &d : *devices) {
      if (llvm::is_contained(deviceIds, d.id))
        continue;
      llvm::Expected<std::vector<StudyInterval>> kept = db.listStudyIntervals(study.id, d.id);
      if (!kept)
        return fail(llvm::toString(kept.takeError()));
      if (!kept->empty())
        deviceIds.push_back(d.id);
    }
  for (int64_t deviceId : deviceIds) {
    std::vector<StudyModelIntervals> intervals;
    if (suspension.enabled) {
      llvm::Expected<std::vector<StudyInterval>> kept = db.listStudyIntervals(study.id, deviceId);
      if (!kept)
        return fail(llvm::toString(kept.takeError()));
      llvm::Expected<std::vector<StudyModelStop>> stops =
          db.listStudyModelStops(study.id, deviceId);
      if (!stops)
        return fail(llvm::toString(stops.takeError()));
      intervals = collectStudyIntervals(*kept, *stops, study.models.size());
    }
    for (size_t i = 0; i < study.models.size(); ++i) {
      const StudyModel &m = study.models[i];
      ModelProgress p;
      p.model = m.name;
      p.device = deviceName(deviceId);
      p.tasks = static_cast<int64_t>(m.tasks.size());
      double sum = 0;
      std::vector<double> createdAt;
      for (const auto &[hash, occurrences] : m.tasks) {
        llvm::Expected<std::optional<TaskRecord>> task = db.findTask(hash);
        if (!task)
          return fail(llvm::toString(task.takeError()));
        if (!*task)
          continue;
        llvm::Expected<std::vector<MeasureRecord>> records = db.getRecords((*task)->id, deviceId);
        if (!records)
          return fail(llvm::toString(records.takeError()));
        p.measured += static_cast<int64_t>(records->size());
        TaskCost cost = summarizeTaskCost(*records, std::nullopt);
        p.costSeconds += cost.getSeconds();
        p.costJoules += cost.modelledJoules; // studies compare runs by the power model
        // The rate is this study's: records imported from elsewhere are old.
        for (const MeasureRecord &r : *records)
          if (r.source == "measured")
            createdAt.push_back(r.createdAt);
        p.failed += llvm::count_if(*records, [](const MeasureRecord &r) { return !r.isOk(); });
        llvm::Expected<std::optional<MeasureRecord>> best = db.getBest((*task)->id, deviceId);
        if (!best)
          return fail(llvm::toString(best.takeError()));
        if (*best) {
          ++p.tasksWithBest;
          sum += occurrences * (*best)->timeMs;
        }
      }
      if (p.tasksWithBest == p.tasks)
        p.bestMs = sum;
      bool done = false, tuning = false;
      for (const StudyWorker &w : *workers) {
        if (w.deviceId != deviceId)
          continue;
        auto at = position.find(w.model);
        size_t k = at == position.end() ? 0 : at->second;
        // Without suspension workers take the models in order; with it, a
        // model is done when the database says it stopped.
        if (!suspension.enabled && (w.state == "finished" || k > i))
          done = true;
        else if (w.state == "tuning" && k == i && now - w.updatedAt < kWorkerSilentSeconds)
          tuning = true;
      }
      p.state = done ? "done" : tuning ? "tuning" : "waiting";
      if (suspension.enabled) {
        p.intervals = intervals[i].getCompletedIntervals();
        if (const std::optional<StudyModelStop> &stop = intervals[i].stop) {
          done = true;
          p.state = stop->state;
          p.stopReason = "after interval " + std::to_string(stop->interval) + ": " + stop->reason;
        }
      }
      // The model's measurement budget: trials per model with a
      // scheduler, else per task.
      const ModuleTunerOptions &t = settings->tuner;
      int64_t budget = t.scheduler.empty() ? t.trials * p.tasks : t.trials;
      if (!done)
        p.etaSeconds = estimateSecondsLeft(
            createdAt, budget - (p.measured - static_cast<int64_t>(createdAt.size())));
      rows.push_back(std::move(p));
    }
  }
  auto workerState = [&](const StudyWorker &w) {
    if (w.state == "tuning" && now - w.updatedAt >= kWorkerSilentSeconds)
      return std::string("silent");
    return w.state;
  };
  if (studyJson) {
    auto number = [](double v) {
      return std::isnan(v) ? llvm::json::Value(nullptr) : llvm::json::Value(v);
    };
    llvm::json::Array models, workerRows;
    for (const ModelProgress &p : rows)
      models.push_back(llvm::json::Object{{"model", p.model},
                                          {"device", p.device},
                                          {"tasks", p.tasks},
                                          {"tasks_with_best", p.tasksWithBest},
                                          {"measured", p.measured},
                                          {"failed", p.failed},
                                          {"best_ms", number(p.bestMs)},
                                          {"cost_s", p.costSeconds},
                                          {"energy_j_modelled", p.costJoules},
                                          {"eta_s", number(p.etaSeconds)},
                                          {"state", p.state}});
    if (suspension.enabled)
      for (size_t i = 0; i < rows.size(); ++i) {
        llvm::json::Object &o = *models[i].getAsObject();
        o["intervals"] = rows[i].intervals;
        o["stop_reason"] = rows[i].stopReason;
      }
    for (const StudyWorker &w : *workers)
      workerRows.push_back(llvm::json::Object{{"owner", w.owner},
                                              {"device", deviceName(w.deviceId)},
                                              {"state", workerState(w)},
                                              {"model", w.model},
                                              {"started_at", w.startedAt},
                                              {"updated_at", w.updatedAt},
                                              {"message", w.message}});
    llvm::json::Value options = nullptr;
    if (llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(study.options))
      options = std::move(*parsed);
    else
      llvm::consumeError(parsed.takeError());
    llvm::outs() << llvm::json::Value(llvm::json::Object{{"study", study.name},
                                                         {"created_at", study.createdAt},
                                                         {"options", std::move(options)},
                                                         {"models", std::move(models)},
                                                         {"workers", std::move(workerRows)}})
                 << "\n";
    return 0;
  }
  const ModuleTunerOptions &t = settings->tuner;
  llvm::outs() << "study '" << study.name << "': " << study.models.size() << " models, created "
               << formatTime(study.createdAt) << "\n";
  llvm::outs() << "options: trials " << t.trials
               << (t.scheduler.empty() ? " per task" : " per model, scheduler " + t.scheduler)
               << ", strategy " << t.strategy << ", threads " << settings->threads
               << ", time budget "
               << (t.timeBudgetSeconds > 0 ? formatNumber(t.timeBudgetSeconds) + " s" : "none")
               << "\n";
  if (suspension.enabled)
    llvm::outs() << "suspension: at each synchronisation, of the models whose last "
                 << suspension.plateauIntervals << " interval(s) each improved by less than "
                 << formatNumber(suspension.minImprovement * 100)
                 << "%, the one that improved least; intervals of "
                 << (suspension.intervalTrials > 0
                         ? std::to_string(suspension.intervalTrials) + " measurements"
                         : std::to_string(t.slotTrials) + " measurements per task")
                 << "\n";
  llvm::outs() << "\n";
  if (rows.empty()) {
    llvm::outs() << "no worker has joined yet\n";
    return 0;
  }
  llvm::outs() << llvm::formatv("{0,-28} {1,-24} {2,7} {3,9} {4,7} {5,12} {6,9} {7,10} {8,8} "
                                "{9}\n",
                                "model", "device", "tasks", "measured", "failed", "best ms",
                                "cost s", "energy J", "ETA", "state");
  for (const ModelProgress &p : rows) {
    std::string best = std::isnan(p.bestMs)
                           ? llvm::formatv("({0}/{1} tasks)", p.tasksWithBest, p.tasks).str()
                           : llvm::formatv("{0:f4}", p.bestMs).str();
    std::string eta = std::isnan(p.etaSeconds)
                          ? std::string("-")
                          : llvm::formatv("{0} s", static_cast<int64_t>(p.etaSeconds)).str();
    llvm::outs() << llvm::formatv("{0,-28} {1,-24} {2,7} {3,9} {4,7} {5,12} {6,9:f1} {7,10:f0} "
                                  "{8,8} {9}\n",
                                  p.model, p.device.substr(0, 24), p.tasks, p.measured, p.failed,
                                  best, p.costSeconds, p.costJoules, eta, p.state);
  }
  for (const ModelProgress &p : rows)
    if (!p.stopReason.empty())
      llvm::outs() << p.model << " (" << p.device << "): " << p.state << " " << p.stopReason
                   << "\n";
  llvm::outs() << "\n"
               << llvm::formatv("{0,-36} {1,-10} {2,-28} {3,-24} {4}\n", "worker", "state",
                                "model", "started", "last heard");
  for (const StudyWorker &w : *workers)
    llvm::outs() << llvm::formatv("{0,-36} {1,-10} {2,-28} {3,-24} {4} s ago{5}\n", w.owner,
                                  workerState(w), w.model, formatTime(w.startedAt),
                                  static_cast<int64_t>(std::max(0.0, now - w.updatedAt)),
                                  w.message.empty() ? "" : " (" + w.message + ")");
  llvm::outs() << "(best ms: sum over the model's tasks of occurrences x the best so far on that "
                  "device; cost: its candidates' build and measurement seconds, energy modelled "
                  "at "
               << formatNumber(PowerModel().busyWattsPerCore)
               << " W per busy core; ETA: its measurement budget left at its rate so far; a "
                  "worker silent for "
               << static_cast<int>(kWorkerSilentSeconds)
               << " s was killed or cut off: its claims expire and others take its work)\n";
  return 0;
}

int studyCommand() {
  const std::string &action = studyArgs[0];
  ModuleTunerOptions options = studyFlags.getValues();
  if (action != "create" && action != "status" && action != "list")
    return fail("unknown study action '" + action + "' (create, status or list)");
  if (action == "create") {
    if (llvm::Error e = validateTunerOptions(options))
      return fail(llvm::toString(std::move(e)));
    if (checkThreadsOption(studyThreads))
      return 1;
  }
  if (action == "list" && studyArgs.size() != 1)
    return fail("usage: dltune study list --db DB");
  llvm::Expected<std::unique_ptr<Database>> db =
      Database::open(options.dbPath, /*create=*/action == "create");
  if (!db)
    return fail(llvm::toString(db.takeError()));
  if (action == "create")
    return createStudy(**db);
  if (action == "list")
    return listStudies(**db);
  return studyStatus(**db);
}

} // namespace dltune_tool
