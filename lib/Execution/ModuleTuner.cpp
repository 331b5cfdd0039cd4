//===- ModuleTuner.cpp - Tuning every task of a module --------------------===//

#include "dltune/Execution/ModuleTuner.h"
#include "dltune/Execution/EndToEndModelTimer.h"
#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"
#include "dltune/Tuning/Transfer/DatabaseHistory.h"
#include "dltune/Tuning/Transfer/KnobMatching.h"
#include "dltune/Tuning/Transfer/GuidedSampling.h"
#include "dltune/Tuning/Transfer/PretrainedModel.h"
#include "dltune/Tuning/SearchStrategy/ColdCandidateFilter.h"
#include "dltune/Tuning/SearchStrategy/DeferredSearch.h"
#include "dltune/Tuning/SearchStrategy/SeededSearch.h"
#include "dltune/Tuning/Transfer/TransferSearch.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Execution/CpuKernel.h"
#include "dltune/Execution/DeviceInfo.h"
#include "dltune/Execution/TaskFeatures.h"
#include "dltune/Tuning/MeasureCallback/DatabaseCommitter.h"
#include "dltune/Transforms/GpuMatmulKernel.h"
#include "dltune/Transforms/SchedulePlan.h"
#include "dltune/Transforms/TuningTasks.h"
#include "dltune/Tuning/FeatureExtractor/FeatureExtractor.h"
#include "dltune/Tuning/FeatureExtractor/GpuResourceFeatures.h"
#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Database/PostgresDatabase.h"
#include "dltune/Tuning/TaskScheduler/MultiTaskTuner.h"
#include "dltune/Tuning/TaskScheduler/TaskScheduler.h"
#include "dltune/Version.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/Program.h"

#include <cerrno>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <random>
#include <unistd.h>

using namespace mlir;
using namespace mlir::dltune;

std::string mlir::dltune::findWorkerExecutable() {
  // Tools other than dltune (a downstream compiler's opt tool) point at
  // an installed dltune this way.
  if (const char *env = std::getenv("DLTUNE_WORKER"); env && *env)
    return llvm::sys::fs::can_execute(env) ? std::string(env) : std::string();
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n > 0) {
    buf[n] = 0;
    llvm::SmallString<256> p(llvm::sys::path::parent_path(buf));
    llvm::sys::path::append(p, "dltune");
    if (llvm::sys::fs::can_execute(p))
      return std::string(p);
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("dltune"))
    return *found;
  return "";
}

namespace {
std::string describe(const TuningTask &t) {
  std::string shapes;
  for (size_t i = 0; i < t.descriptor.shapes.size(); ++i) {
    shapes += i ? "," : "";
    for (size_t j = 0; j < t.descriptor.shapes[i].size(); ++j)
      shapes += (j ? "x" : "") + std::to_string(t.descriptor.shapes[i][j]);
  }
  return t.descriptor.opKind + " " + shapes;
}

/// The events of one task: fills in what every event of the task says.
class TaskEvents {
public:
  TaskEvents(const TuningEventCallback &callback, size_t index, size_t count, std::string name,
             double flops)
      : callback(callback) {
    base.kind = TuningEvent::Kind::TaskStarted;
    base.taskIndex = index;
    base.taskCount = count;
    base.taskName = std::move(name);
    base.taskFlops = flops;
  }
  void emit(TuningEvent::Kind kind, std::string message = "",
            const TaskSummary *summary = nullptr) const {
    if (keep && !message.empty()) {
      if (kind == TuningEvent::Kind::Note)
        keep("note", message);
      else if (kind == TuningEvent::Kind::Warning)
        keep("warning", message);
      else if (kind == TuningEvent::Kind::TaskFailed)
        keep("failed", message);
    }
    if (!callback)
      return;
    TuningEvent e = base;
    e.kind = kind;
    e.message = std::move(message);
    e.summary = summary;
    callback(e);
  }
  TaskEvents(const TaskEvents &) = delete;
  TaskEvents &operator=(const TaskEvents &) = delete;
  void note(std::string message) const { emit(TuningEvent::Kind::Note, std::move(message)); }
  void warn(std::string message) const { emit(TuningEvent::Kind::Warning, std::move(message)); }
  void setPreviousTrials(int64_t n) { base.previousTrials = n; }
  /// Where notes, warnings and failures are kept besides being emitted (the
  /// database's task notes, which reports show).
  void setKeeper(std::function<void(const std::string &kind, const std::string &message)> k) {
    keep = std::move(k);
  }
  /// With a task scheduler: the model's state, reported with each result.
  void setModelProgress(double latencyMs, double untunedMs, int64_t done, int64_t budget,
                        double seconds) {
    base.modelLatencyMs = latencyMs;
    base.untunedModelLatencyMs = untunedMs;
    base.modelTrialsDone = done;
    base.modelTrialsBudget = budget;
    base.modelSeconds = seconds;
  }
  /// Each committed result as a Measured event.
  MeasureCallback &getMeasureCallback() { return forwarder; }
  /// What the task's model-based strategy does with its model, as events.
  StrategyObserver &getStrategyObserver() { return modelEvents; }

private:
  std::function<void(const std::string &, const std::string &)> keep;
  struct Forwarder : MeasureCallback {
    explicit Forwarder(TaskEvents &events) : events(events) {}
    void onResult(const Config &config, const MeasureRecord &record,
                  const TuningProgress &progress) override {
      if (!events.callback)
        return;
      TuningEvent e = events.base;
      e.kind = TuningEvent::Kind::Measured;
      e.config = &config;
      e.record = &record;
      e.progress = &progress;
      events.callback(e);
    }
    TaskEvents &events;
  };
  struct ModelEvents : StrategyObserver {
    explicit ModelEvents(TaskEvents &events) : events(events) {}
    void onModelFit(size_t rows) override {
      events.emitCount(TuningEvent::Kind::CostModelFitted, rows);
    }
    void onModelProposals(size_t count) override {
      events.emitCount(TuningEvent::Kind::CostModelProposed, count);
    }
    void onModelError(llvm::Error error) override {
      events.emit(TuningEvent::Kind::CostModelFailed, llvm::toString(std::move(error)));
    }
    TaskEvents &events;
  };
  void emitCount(TuningEvent::Kind kind, size_t count) const {
    if (!callback)
      return;
    TuningEvent e = base;
    e.kind = kind;
    e.count = static_cast<int64_t>(count);
    callback(e);
  }

  const TuningEventCallback &callback;
  TuningEvent base;
  Forwarder forwarder{*this};
  ModelEvents modelEvents{*this};
};

} // namespace

std::vector<size_t> mlir::dltune::getConfirmationCandidates(const TuningHistory &history,
                                                           size_t top,
                                                           const std::optional<Config> &reference) {
  std::vector<size_t> order;
  for (size_t i = 0; i < history.records.size(); ++i)
    if (history.records[i].isOk() && !history.records[i].cutOff &&
        std::isfinite(history.records[i].timeMs))
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return history.records[a].timeMs < history.records[b].timeMs;
  });
  std::vector<size_t> chosen(order.begin(), order.begin() + std::min(top, order.size()));
  if (reference)
    for (size_t i : order)
      if (history.configs[i] == *reference) {
        if (!llvm::is_contained(chosen, i))
          chosen.push_back(i);
        break;
      }
  return chosen;
}

namespace {

/// Re-measures the task's best candidates in fresh processes so that the
/// reported best is a confirmed median, not the luckiest of many samples.
/// Cut-off records are slow by definition and never candidates; noisy ones
/// are, and are settled here. `reference` (dltune's default config), when
/// it was measured, is confirmed with them: one unlucky sample of it (a
/// measurement beside a compiling worker) must not let a worse candidate
/// win, so tuning never ends on a config slower than the default in the
/// same confirmation. Skipped when nothing new was measured and the
/// latest confirmation is newer than every record.
llvm::Error confirmBest(const TuningTask &task, const TuningHistory &history,
                        ProcessMeasurer &measurer, Database &db, int64_t taskId,
                        int64_t deviceId, bool measuredNew, const ModuleTunerOptions &options,
                        const TaskEvents &events, const std::optional<Config> &reference,
                        llvm::function_ref<bool()> outOfTime) {
  if (options.confirmTop == 0 || options.confirmRepeats == 0)
    return llvm::Error::success();
  std::vector<size_t> order =
      getConfirmationCandidates(history, options.confirmTop, reference);
  if (order.empty())
    return llvm::Error::success();
  if (!measuredNew) {
    llvm::Expected<std::vector<Confirmation>> earlier =
        db.getLatestConfirmations(taskId, deviceId);
    if (!earlier)
      return earlier.takeError();
    // Records newer than the confirmation (other workers', or this study
    // worker's earlier intervals, measured without confirming) may hold a
    // faster candidate: confirm again.
    double newest = 0;
    for (const MeasureRecord &r : history.records)
      newest = std::max(newest, r.createdAt);
    if (!earlier->empty() && earlier->front().generator == getGeneratorString() &&
        earlier->front().createdAt >= newest)
      return llvm::Error::success();
  }
  std::vector<Config> configs;
  for (size_t i : order)
    configs.push_back(history.configs[i]);
  events.note("confirming the best " + std::to_string(configs.size()) +
              " in fresh processes");
  std::vector<std::string> notes;
  std::vector<Confirmation> confirmed =
      measurer.confirm(configs, options.confirmRepeats, notes, outOfTime);
  for (std::string &n : notes)
    events.warn(std::move(n));
  for (Confirmation &c : confirmed)
    c.generator = getGeneratorString();
  return db.commitConfirmations(taskId, deviceId, confirmed);
}

/// Fails (and attaches nothing) when the config does not fit the task's
/// space, e.g. a record from before a knob was added.
llvm::Error attachConfig(TuningTask &task, const std::string &configText) {
  llvm::Expected<Config> c = task.space.parseConfig(configText);
  if (!c)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the recorded configuration '%s' does not fit this "
                                   "task's space (%s)",
                                   configText.c_str(), llvm::toString(c.takeError()).c_str());
  // Parsed, but outside today's ranges or constraints (recorded by another
  // dltune or edited): the apply pass would fail on it.
  if (llvm::Error e = task.space.checkValid(*c))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the recorded configuration '%s' is not valid in this "
                                   "task's space (%s)",
                                   configText.c_str(), llvm::toString(std::move(e)).c_str());
  for (Operation *op : task.ops)
    op->setAttr(DLTuneDialect::kConfigAttrName,
                ConfigAttr::get(op->getContext(), task.space, *c));
  return llvm::Error::success();
}
} // namespace

/// The default configuration --dltune-annotate would attach to the task's
/// op on this machine, if its space is the generated one (a hand-written
/// space may not hold it). Deliberately this host's, even when the space
/// was annotated for another (cpu-lanes=...): it seeds the search and is
/// the timing anchor, and both run here.
static std::optional<Config> getGeneratedDefaultConfig(const TuningTask &task) {
  auto op = dyn_cast<linalg::LinalgOp>(task.ops.front());
  if (!op)
    return std::nullopt;
  int64_t maxThreads = 1;
  for (const Knob &k : task.space.getKnobs())
    if (k.name == "threads")
      maxThreads = *std::max_element(k.values.begin(), k.values.end());
  std::string whyNot;
  FailureOr<SchedulePlan> plan =
      buildSchedulePlan(op, task.descriptor.target == "gpu" ? ScheduleTarget::GPU
                                                            : ScheduleTarget::CPU,
                        maxThreads, whyNot, GpuPlanTarget::fromSpace(task.space));
  if (failed(plan))
    return std::nullopt;
  std::optional<Config> config = plan->getDefaultConfig();
  if (!config)
    return std::nullopt;
  llvm::Expected<Config> mine = task.space.parseConfig(plan->space.formatConfig(*config));
  if (!mine) {
    llvm::consumeError(mine.takeError()); // another space: no seed, not an error
    return std::nullopt;
  }
  if (llvm::Error e = task.space.checkValid(*mine)) {
    llvm::consumeError(std::move(e));
    return std::nullopt;
  }
  return *mine;
}

/// Whether a `history` entry names a dltune database (not a Kernel Tuner
/// cache).
static bool isDatabasePath(llvm::StringRef path) {
  return path.ends_with(".db") || path.ends_with(".sqlite") || path.ends_with(".sqlite3") ||
         isPostgresUrl(path);
}

/// Where candidates are built without a work-dir option: beside a database
/// file; for a server's database, a folder of this machine's temporary
/// directory named after the (password-free) URL.
static std::string getDefaultWorkDir(const std::string &dbPath) {
  if (!isPostgresUrl(dbPath))
    return dbPath + ".work";
  llvm::SmallString<256> dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
  llvm::sys::path::append(dir, "dltune-" + llvm::utohexstr(llvm::xxh3_64bits(
                                               redactDatabaseUrl(dbPath))) + ".work");
  return std::string(dir);
}

/// The entries of the `history` option: "db" and paths, trimmed.
static llvm::SmallVector<llvm::StringRef> getHistoryEntries(const ModuleTunerOptions &options) {
  llvm::SmallVector<llvm::StringRef> entries;
  llvm::StringRef(options.history).split(entries, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef &entry : entries)
    entry = entry.trim();
  return entries;
}

/// Usable rows of the run's own database that transfer learns from (0
/// when `history` does not name "db"): what decides whether a task's
/// transfer is built again (history-refresh).
static llvm::Expected<size_t> countDatabaseHistoryRows(const ModuleTunerOptions &options,
                                                       Database &db, const TaskRecord &task,
                                                       int64_t ownDeviceId) {
  if (!llvm::is_contained(getHistoryEntries(options), "db"))
    return 0;
  llvm::Expected<std::vector<TaskHistorySource>> loaded =
      loadTaskHistory(db, task, ownDeviceId, /*minOkRecords=*/8);
  if (!loaded)
    return loaded.takeError();
  size_t rows = 0;
  for (const TaskHistorySource &source : *loaded)
    for (const RecordedMeasurement &m : source.records.entries)
      rows += std::isfinite(m.timeMs);
  return rows;
}

namespace {
/// When what a task built from the database's history (its transfer, its
/// cold filter's prior) is built again (history-refresh): once the usable
/// rows have grown `factor` times over since the last build, or from none
/// to some. Each build pretrains anew, so it waits for a factor, not a row.
class HistoryGrowth {
public:
  HistoryGrowth(const ModuleTunerOptions &options, Database &db, const TaskRecord &task,
                int64_t deviceId, TaskEvents *notes)
      : options(options), db(db), task(task), deviceId(deviceId), notes(notes) {}

  /// Remembers the rows at a build (those hasGrown just read, if it said
  /// yes).
  void markBuilt() {
    std::optional<size_t> rows = grownTo ? grownTo : read();
    grownTo.reset();
    if (rows)
      rowsAtBuild = *rows;
  }
  /// Whether to build again now; says so in a note for `what`.
  bool hasGrown(llvm::StringRef what) {
    std::optional<size_t> rows = read();
    if (!rows || *rows <= rowsAtBuild ||
        double(*rows) < options.historyRefresh * double(rowsAtBuild))
      return false;
    grownTo = rows;
    notes->note(llvm::formatv("{0}: the database's history grew from {1} to {2} rows since the "
                              "last build; building it again",
                              what, rowsAtBuild, *rows)
                    .str());
    return true;
  }

private:
  std::optional<size_t> read() {
    llvm::Expected<size_t> rows = countDatabaseHistoryRows(options, db, task, deviceId);
    if (rows)
      return *rows;
    std::string message = llvm::toString(rows.takeError());
    if (!warned) // once: it is asked at every batch
      notes->warn("could not read the history again: " + message);
    warned = true;
    return std::nullopt;
  }

  const ModuleTunerOptions &options;
  Database &db;
  const TaskRecord &task;
  int64_t deviceId;
  TaskEvents *notes;
  size_t rowsAtBuild = 0;
  std::optional<size_t> grownTo;
  bool warned = false;
};

/// Transfer sources with the features their rows are seen through.
struct TransferHistory {
  std::vector<KernelTunerCache> sources;
  std::vector<std::string> names;
  std::vector<std::shared_ptr<const FeatureExtractor>> features;
  // Sources from other tasks, from this task (other devices, other
  // databases), and those seen through the target's features.
  int64_t otherTasks = 0, otherDevices = 0, targetFeatured = 0;
};
} // namespace

/// One source `options.history` names: a (task, device) pair of a
/// database, or a Kernel Tuner file (`label` empty; its `task` and `device`
/// too, and `name` its path).
struct NamedHistorySource {
  TaskHistorySource source;
  std::string label; // "this database" or the database's path
  std::string getName() const {
    return label.empty() ? source.name : source.name + " (" + label + ")";
  }
};

/// The sources `options.history` names, in its order: "db" (the run's
/// database: other tasks of the op on any device, this task on devices but
/// `deviceId`), dltune databases by path (*.db, *.sqlite: this task on any
/// device too, since their device ids are their own), Kernel Tuner cache
/// files. Read by transfer and by the cold filter.
static llvm::Expected<std::vector<NamedHistorySource>>
readHistorySources(const ModuleTunerOptions &options, Database &db, const TaskRecord &task,
                   int64_t deviceId) {
  std::vector<NamedHistorySource> sources;
  auto fromDatabase = [&](Database &from, const std::string &label,
                          int64_t ownDeviceId) -> llvm::Error {
    llvm::Expected<std::vector<TaskHistorySource>> loaded =
        loadTaskHistory(from, task, ownDeviceId, /*minOkRecords=*/8);
    if (!loaded)
      return makeError(label + ": " + llvm::toString(loaded.takeError()));
    for (TaskHistorySource &source : *loaded)
      sources.push_back({std::move(source), label});
    return llvm::Error::success();
  };
  // tuneModule has checked that every path exists.
  for (llvm::StringRef entry : getHistoryEntries(options)) {
    if (entry == "db") {
      if (llvm::Error e = fromDatabase(db, "this database", deviceId))
        return std::move(e);
    } else if (isDatabasePath(entry)) {
      llvm::Expected<std::unique_ptr<Database>> other = Database::openReadOnly(entry.str());
      if (!other)
        return makeError("history database '" + entry +
                         "': " + llvm::toString(other.takeError()));
      if (llvm::Error e = fromDatabase(**other, entry.str(), /*ownDeviceId=*/0))
        return std::move(e);
    } else {
      llvm::Expected<KernelTunerCache> cache = KernelTunerCache::load(entry.str());
      if (!cache)
        return cache.takeError();
      NamedHistorySource file;
      file.source.records = std::move(*cache);
      file.source.name = entry.str();
      sources.push_back(std::move(file));
    }
  }
  return sources;
}

/// Transfer's view of the history: database rows featurised with their own
/// task and device where the op can be rebuilt, else (and Kernel Tuner
/// files) with the target's features.
static llvm::Expected<TransferHistory>
loadTransferHistory(const ModuleTunerOptions &options, Database &db, const TaskRecord &task,
                    int64_t deviceId, const SearchSpace &space,
                    const std::shared_ptr<const FeatureExtractor> &features, MLIRContext &context,
                    const std::function<void(std::string)> &note) {
  llvm::Expected<std::vector<NamedHistorySource>> read =
      readHistorySources(options, db, task, deviceId);
  if (!read)
    return read.takeError();
  TransferHistory history;
  for (NamedHistorySource &named : *read) {
    TaskHistorySource &source = named.source;
    if (named.label.empty()) {
      history.features.push_back(features);
    } else {
      llvm::Expected<std::shared_ptr<const FeatureExtractor>> own =
          makeHistorySourceFeatures(context, source, space, *features);
      if (own) {
        history.features.push_back(std::move(*own));
      } else {
        note("transfer: '" + source.name + "' (" + named.label +
             ") is featurised as the target task: " + llvm::toString(own.takeError()));
        history.features.push_back(features);
        ++history.targetFeatured;
      }
      if (source.task.hash == task.hash)
        ++history.otherDevices;
      else
        ++history.otherTasks;
    }
    history.names.push_back(named.getName());
    history.sources.push_back(std::move(source.records));
  }
  return history;
}

/// The reference's time as written beside it (`<reference>.ms`), if any.
static std::optional<double> readReferenceMs(const std::string &referencePath) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(referencePath + ".ms");
  double ms = 0;
  if (!text || (*text)->getBuffer().trim().getAsDouble(ms) || !std::isfinite(ms))
    return std::nullopt;
  return ms;
}

/// Writes `ms` beside the reference (a failure only costs a rebuild later).
static void writeReferenceMs(const std::string &referencePath, double ms) {
  std::error_code ec;
  llvm::raw_fd_ostream os(referencePath + ".ms", ec);
  if (!ec)
    os << llvm::format("%.17g", ms) << "\n"; // exact on reading back
}

/// What the cold-candidate filter learns from before the task's first
/// measurement (ColdFilterPrior.h): the records `options.history` names, as
/// for transfer but without features (each row is its time over its
/// source's best). Null, with a note, when there is none.
static llvm::Expected<std::shared_ptr<const std::vector<ColdFilterPrior>>>
loadColdFilterPrior(const ModuleTunerOptions &options, Database &db, const TaskRecord &task,
                    int64_t deviceId, const SearchSpace &space,
                    const std::function<void(std::string)> &note) {
  llvm::Expected<std::vector<NamedHistorySource>> read =
      readHistorySources(options, db, task, deviceId);
  if (!read)
    return read.takeError();
  std::vector<ColdFilterPrior> prior;
  size_t used = 0;
  for (const NamedHistorySource &named : *read) {
    // A source without one of the task's knobs cannot say anything about it.
    std::vector<std::string> notes;
    llvm::Expected<std::vector<ColdFilterPrior>> rows =
        buildColdFilterPrior(named.source.records, named.getName(), space.getKnobs(), notes);
    for (const std::string &n : notes)
      note("cold filter: " + n);
    if (!rows) {
      note("cold filter: " + llvm::toString(rows.takeError()) + "; not used");
      continue;
    }
    if (rows->empty())
      continue; // nothing ran there (a note says so)
    prior.insert(prior.end(), rows->begin(), rows->end());
    ++used;
  }
  if (!used) {
    note("cold filter: no history for this task; it learns from its own measurements only");
    return std::shared_ptr<const std::vector<ColdFilterPrior>>();
  }
  note(llvm::formatv("cold filter: history of {0} records of {1} source(s)", prior.size(), used)
           .str());
  return std::make_shared<const std::vector<ColdFilterPrior>>(std::move(prior));
}

/// The transfer strategy of a task (stages 1-3 of docs/cost-models.md) from
/// `options.history`; null, with a note, when there is nothing to learn
/// from.
static llvm::Expected<std::unique_ptr<SearchStrategy>>
createTransferStrategy(const ModuleTunerOptions &options, Database &db, const TaskRecord &task,
                       int64_t deviceId, const SearchSpace &space, const StrategyOptions &so,
                       MLIRContext &context, int64_t taskBudget, const std::string &workDir,
                       const std::function<void(std::string)> &note,
                       const std::shared_ptr<TransferLog> &log) {
  std::optional<TransferMode> mode = parseTransferMode(options.transfer);
  auto started = std::chrono::steady_clock::now();
  llvm::Expected<TransferHistory> history =
      loadTransferHistory(options, db, task, deviceId, space, so.features, context, note);
  if (!history)
    return history.takeError();
  std::vector<KernelTunerCache> &sources = history->sources;
  std::vector<std::string> &names = history->names;
  if (sources.empty()) {
    note("transfer: no history for this task (no other " + getTaskOpName(task.opKind) +
         " task, and not this task on another device, with 8 ok records); starting cold");
    return std::unique_ptr<SearchStrategy>();
  }
  if (history->otherTasks + history->otherDevices > 0)
    note(llvm::formatv("transfer: history of {0} other task(s) and of this task from {1} "
                       "other device(s) or database(s){2}",
                       history->otherTasks, history->otherDevices,
                       history->targetFeatured
                           ? llvm::formatv(" ({0} featurised as this task)",
                                           history->targetFeatured)
                                 .str()
                           : std::string())
             .str());
  TransferSearchOptions to;
  to.innerStrategy = options.strategy;
  to.inner = so;
  to.transfer.mode = *mode;
  to.tuningSetSize = static_cast<size_t>(std::clamp<int64_t>(taskBudget / 4, 1, 300));
  to.exploreShare = options.tuningSetExplore;
  to.reRankEvery = static_cast<size_t>(options.tuningSetReRank);
  std::vector<std::string> notes;
  if (*mode == TransferMode::GuidedSampling) {
    llvm::Expected<StepwiseRegression> regression =
        fitGuidedSamplingRegression(sources, names, space.getKnobs(), notes);
    if (!regression)
      return regression.takeError();
    for (const std::string &n : notes)
      note("transfer: " + n);
    note(llvm::formatv("transfer (gs): stepwise regression on {0} configurations of {1} "
                       "source(s), R^2 {2:f3}, terms: {3}",
                       regression->rows, sources.size(), regression->rSquared,
                       regression->formatTerms(space.getKnobs()))
             .str());
    to.guidedSampling = std::make_shared<const StepwiseRegression>(std::move(*regression));
    return createTransferSearch(nullptr, to, log);
  }
  std::vector<const FeatureExtractor *> rowFeatures;
  for (const std::shared_ptr<const FeatureExtractor> &f : history->features)
    rowFeatures.push_back(f.get());
  llvm::Expected<PretrainingSet> set =
      buildPretrainingSet(sources, names, space.getKnobs(), rowFeatures, notes);
  if (!set)
    return set.takeError();
  for (const std::string &n : notes)
    note("transfer: " + n);
  std::string modelName = options.costModel.empty() ? std::string("dgp") : options.costModel;
  // A live database's history is small: pretraining it for the steps and
  // with the inducing points a recorded space needs would cost more than
  // the run it speeds up (the adaptations inherit the inducing points).
  DeepGPOptions dgpOptions;
  dgpOptions.iterations = pretrainingIterations(set->labels.size());
  dgpOptions.inducingPoints = pretrainingInducingPoints(set->labels.size());
  llvm::Expected<PretrainedModel> model =
      getPretrainedModel(modelName, *set, /*seed=*/0, workDir + "/pretrained", dgpOptions);
  if (!model)
    return model.takeError();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::string trained = ", reused";
  if (!model->reused) {
    trained = llvm::formatv(" in {0:f1} s", model->trainSeconds).str();
    if (modelName == "dgp") {
      // The deep GP is fitted on the feasible rows only, and k-means keeps
      // every row when there are fewer of them than inducing points.
      size_t feasible = llvm::count_if(set->labels, isFeasibleLabel);
      trained += llvm::formatv(" ({0} Adam steps, {1} inducing points)", dgpOptions.iterations,
                               std::min<size_t>(dgpOptions.inducingPoints, feasible))
                     .str();
    }
  }
  note(llvm::formatv("transfer ({0}): {1} pretrained on {2} configurations of {3} source(s){4}; "
                     "{5:f1} s with loading the history",
                     options.transfer, modelName, set->labels.size(), sources.size(),
                     trained,
                     seconds)
           .str());
  return createTransferSearch(model->model, to, log);
}

namespace {
/// A task between preparation and its summary. `model` is what the task
/// scheduler tunes (space, strategy, measurer, history), kept between slots
/// (a rested arm); the rest routes its results and summarises it.
struct PreparedTask {
  size_t index = 0;
  TaskSummary summary;
  std::unique_ptr<TaskEvents> events;
  int64_t taskId = 0, unusable = 0, newTrials = 0;
  std::optional<Config> defaultConfig; // dltune's default: measured first
  ModelTask model;
  ProcessMeasurer *measurer = nullptr; // owned by model.measurer
  std::unique_ptr<DatabaseCommitter> committer;
  std::shared_ptr<GpuResourceTable> gpuResources;
  /// The negative-transfer guard's decisions, summarised when the task ends.
  std::shared_ptr<TransferLog> transferLog;
  /// Wall seconds spent building the task's transfer (history, pretraining).
  std::shared_ptr<double> transferBuildSeconds;
  std::unique_ptr<GpuResourceRecorder> recorder;
  std::vector<MeasureCallback *> callbacks;
  std::shared_ptr<ColdFilterStats> coldFilter; // with cold-filter on
};

/// The summary's defaultMs: the default configuration's confirmed median
/// when this generator confirmed it, else its measurement.
llvm::Error setDefaultLatency(PreparedTask &pt, const SearchSpace &space, Database &db,
                              int64_t deviceId) {
  if (!pt.defaultConfig)
    return llvm::Error::success();
  if (const MeasureRecord *r = pt.model.history.find(*pt.defaultConfig); r && r->isOk())
    pt.summary.defaultMs = r->timeMs;
  llvm::Expected<std::vector<Confirmation>> confirmed =
      db.getLatestConfirmations(pt.taskId, deviceId);
  if (!confirmed)
    return confirmed.takeError();
  std::string defaultText = space.formatConfig(*pt.defaultConfig);
  for (const Confirmation &c : *confirmed)
    if (c.config == defaultText && std::isfinite(c.medianMs) &&
        c.generator == getGeneratorString())
      pt.summary.defaultMs = c.medianMs;
  return llvm::Error::success();
}

/// Routes each result to its task's callbacks (the database first). With
/// one model budget (`modelBudget`) the progress line shows the task's
/// share and the model's state; a task tuned on its own budget shows its
/// tuning loop's progress as it is.
class TaskResultRouter : public ModelTuningObserver {
public:
  TaskResultRouter(llvm::ArrayRef<PreparedTask *> group, bool modelBudget,
                   const TuningEventCallback &onEvent)
      : group(group), modelBudget(modelBudget), onEvent(onEvent),
        bests(group.size(), {Config(), INFINITY}),
        startTrials(group.size()), failures(group.size()), measured(group.size()) {
    for (size_t i = 0; i < group.size(); ++i)
      startTrials[i] = group[i]->model.history.records.size();
  }
  void onMeasurement(size_t task, const Config &config, const MeasureRecord &record,
                     llvm::ArrayRef<ModelTask> tasks, const ModelProgress &model) override {
    PreparedTask &pt = *group[task];
    ++measured[task];
    if (!modelBudget) {
      for (MeasureCallback *cb : pt.callbacks)
        cb->onResult(config, record, model.slot);
      return;
    }
    const TaskState &state = tasks[task].state;
    TuningProgress p;
    p.trialsDone = int64_t(tasks[task].history.records.size()) - startTrials[task];
    p.trialsBudget = model.model.trialsBudget;
    if (record.isOk() && !(record.timeMs >= bests[task].second))
      bests[task] = {config, record.timeMs};
    if (std::isfinite(bests[task].second)) {
      p.best = bests[task].first;
      p.bestMs = state.bestMs;
    }
    p.failures = failures[task] += !record.isOk();
    p.elapsedSeconds = model.clockSeconds;
    pt.events->setModelProgress(model.model.modelLatencyMs, model.model.untunedModelLatencyMs,
                                model.model.trialsDone, model.model.trialsBudget,
                                model.clockSeconds);
    for (MeasureCallback *cb : pt.callbacks)
      cb->onResult(config, record, p);
  }

  void onModelTimed(llvm::ArrayRef<ModelTask>, const ModelProgress &progress,
                    const std::string &error) override {
    TuningEvent e = makeModelEvent(TuningEvent::Kind::ModelTimed, progress);
    e.timedModelLatencyMs = progress.model.timedModelLatencyMs;
    e.count = progress.model.modelTimings;
    e.message = error;
    if (onEvent)
      onEvent(e);
  }

  void onFinish(llvm::ArrayRef<ModelTask>, const ModelProgress &progress) override {
    if (modelBudget && onEvent)
      onEvent(makeModelEvent(TuningEvent::Kind::ModelFinished, progress, progress.stopReason));
  }

  /// Measurements this process made of `task` (not other workers' results,
  /// which also join its history).
  int64_t getMeasured(size_t task) const { return measured[task]; }

private:
  static TuningEvent makeModelEvent(TuningEvent::Kind kind, const ModelProgress &progress,
                                    std::string message = "") {
    TuningEvent e{kind};
    e.taskName = "model";
    e.message = std::move(message);
    e.modelLatencyMs = progress.model.modelLatencyMs;
    e.untunedModelLatencyMs = progress.model.untunedModelLatencyMs;
    e.modelTrialsDone = progress.model.trialsDone;
    e.modelTrialsBudget = progress.model.trialsBudget;
    e.modelSeconds = progress.clockSeconds;
    return e;
  }

  llvm::ArrayRef<PreparedTask *> group;
  bool modelBudget;
  const TuningEventCallback &onEvent;
  std::vector<std::pair<Config, double>> bests;
  std::vector<int64_t> startTrials;
  std::vector<int64_t> failures;
  std::vector<int64_t> measured;
};

/// The one way tasks are tuned: `scheduler` spends `budget` over `group` a
/// slot at a time, each task keeping its strategy, cost model and measurer
/// between slots. Without a scheduler option each task is a group of its
/// own, given to `sequential` with the task's budget as one slot.
void tuneTasks(llvm::ArrayRef<PreparedTask *> group, TaskScheduler &scheduler,
               const ModelTuningOptions &budget, bool modelBudget,
               const TuningEventCallback &onEvent) {
  // Before the histories move: what each task had before this run.
  TaskResultRouter router(group, modelBudget, onEvent);
  std::vector<ModelTask> modelTasks;
  for (PreparedTask *pt : group)
    modelTasks.push_back(std::move(pt->model));
  runModelTuning(modelTasks, scheduler, budget, &router);
  for (size_t i = 0; i < group.size(); ++i) {
    group[i]->model = std::move(modelTasks[i]);
    // Its strategy was initialised with the address of the space it had in
    // `modelTasks`: another slot must initialise it again.
    group[i]->model.initialized = false;
    group[i]->newTrials = router.getMeasured(i);
  }
}
} // namespace

/// Removes what killed runs left in a task's work directory: built
/// candidates, objects and kernels of processes that are gone (their pid is
/// in the name). Files of live processes (another tuner) stay.
static void removeLeftovers(const std::string &dir) {
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    llvm::StringRef rest = name;
    if (!rest.consume_front("cand-") && !rest.consume_front("kernel-"))
      continue;
    unsigned long pid = 0;
    if (rest.consumeInteger(10, pid) || pid == 0 || (!rest.starts_with("-") && !rest.starts_with(".")))
      continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
      continue; // alive (or not ours to ask): leave it
    llvm::sys::fs::remove(it->path());
  }
}

/// What this machine's meters read since the previous call, for each
/// candidate's energy: the CPU packages (RAPL), and for GPU tasks the board
/// too (NVML, the first GPU: the one dltune runs on). Builds and the host
/// side of every measurement run on the CPU, so without RAPL nothing is
/// metered (an empty function; `dltune db cost` then models the energy),
/// even where NVML alone is readable: the board's reading would leave out
/// most of what a candidate costs.
static std::function<std::optional<double>()> makeCandidateEnergyReader(bool gpu) {
  std::vector<std::shared_ptr<EnergyMeter>> meters;
  meters.push_back(std::make_shared<EnergyMeter>(EnergyMeter::Source::Cpu));
  if (!meters.back()->isAvailable())
    return {};
  if (gpu) {
    meters.push_back(std::make_shared<EnergyMeter>(EnergyMeter::Source::Gpu));
    if (!meters.back()->isAvailable())
      return {};
  }
  return [meters]() -> std::optional<double> {
    // Every meter is read, so that each starts its next interval now.
    std::optional<double> joules = 0.0;
    for (const std::shared_ptr<EnergyMeter> &meter : meters) {
      std::optional<double> j = meter->readJoulesSinceLast();
      if (j && joules)
        *joules += *j;
      else
        joules.reset();
    }
    return joules;
  };
}

std::string mlir::dltune::makeOwnerName() {
  char host[256] = "host";
  (void)gethostname(host, sizeof(host) - 1);
  std::random_device rd;
  return llvm::formatv("{0}:{1}:{2:x}", host, ::getpid(), rd()).str();
}

namespace {
/// One tuneModule call: what every task shares (options, the database,
/// this device, the workers, claims) and the two steps of a task: building
/// what the task scheduler tunes, and finishing it after its search.
class ModuleTuningRun {
public:
  ModuleTuningRun(const ModuleTunerOptions &options, const TuningEventCallback &onEvent,
                  std::vector<TuningTask> &tasks, Database &db, int64_t deviceId,
                  const DeviceInfo &device, std::string worker, std::string workRoot,
                  std::string claimOwner, double claimLease)
      : options(options), onEvent(onEvent), tasks(tasks), db(db), deviceId(deviceId),
        device(device), worker(std::move(worker)), workRoot(std::move(workRoot)),
        claimOwner(std::move(claimOwner)), claimLease(claimLease), results(tasks.size()) {}

  /// Task `ti` with its history, reference, strategy and measurer, ready
  /// for a task scheduler; null when its reference failed (the task is
  /// then summarised as not tuned and the others go on).
  llvm::Expected<std::unique_ptr<PreparedTask>> buildTask(size_t ti);

  /// After its search: counts, confirmation of the best, the best attached.
  llvm::Error finishTask(PreparedTask &pt);

  /// A task whose measurer stopped (a full disk, a result that could not be
  /// recorded) ends the run with an error before any confirmation.
  static llvm::Error checkStopped(PreparedTask &pt);

  /// The summaries, in the module's task order.
  std::vector<TaskSummary> takeSummaries() {
    std::vector<TaskSummary> summaries;
    for (std::optional<TaskSummary> &r : results)
      if (r)
        summaries.push_back(std::move(*r));
    return summaries;
  }

private:
  const ModuleTunerOptions &options;
  const TuningEventCallback &onEvent;
  std::vector<TuningTask> &tasks;
  Database &db;
  int64_t deviceId;
  const DeviceInfo &device;
  std::string worker, workRoot, claimOwner;
  double claimLease;
  std::vector<std::optional<TaskSummary>> results;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};
} // namespace

llvm::Expected<std::unique_ptr<PreparedTask>> ModuleTuningRun::buildTask(size_t ti) {
  TuningTask &task = tasks[ti];
  TaskSummary summary;
  summary.hash = task.record.hash;
  summary.description = describe(task);
  summary.weight = task.getWeight();
  summary.flops = countFlops(*task.kernel, kTaskEntryName);
  summary.referenceOnOtherDevice = task.descriptor.target == "gpu";
  // On the heap: it lives with the task through the search.
  auto eventsOwner =
      std::make_unique<TaskEvents>(onEvent, ti, tasks.size(), summary.description, summary.flops);
  TaskEvents &events = *eventsOwner;
  llvm::Expected<int64_t> taskIdOrError = db.getOrCreateTask(task.record);
  if (!taskIdOrError)
    return taskIdOrError.takeError();
  int64_t taskId = *taskIdOrError;
  // A note that cannot be kept (a full disk) is still shown; tuning goes on.
  events.setKeeper([&db = db, taskId, deviceId = deviceId](const std::string &kind,
                                                           const std::string &message) {
    llvm::consumeError(db.addTaskNote(taskId, deviceId, {kind, message, 0}));
  });
  int64_t movedAside = 0;
  if (options.remeasure) {
    llvm::Expected<int64_t> moved =
        db.forget({task.record.hash, "", 0, deviceId}, "remeasure");
    if (!moved)
      return moved.takeError();
    movedAside = *moved;
  }
  // Failures the machine caused (a full disk) are not the candidates':
  // measured again.
  {
    ForgetFilter environment{task.record.hash, "", 0, deviceId};
    environment.errorContains = getEnvironmentFailureMarkers();
    llvm::Expected<int64_t> moved = db.forget(environment, "environment");
    if (!moved)
      return moved.takeError();
    if (*moved)
      events.note(std::to_string(*moved) +
                  " earlier failures caused by the machine (a full disk, no process to "
                  "start) moved to replaced_records, measuring them again");
  }
  // The history of this task on this device: resumed, never re-measured.
  TuningHistory history;
  llvm::Expected<std::vector<MeasureRecord>> past = db.getRecords(taskId, deviceId);
  if (!past)
    return past.takeError();
  int64_t unusable = 0, olderGenerator = 0, implausible = 0;
  std::string olderName;
  std::string generator = getGeneratorString();
  for (MeasureRecord &r : *past) {
    if (r.generator != generator) {
      ++olderGenerator;
      olderName = r.generator.empty() ? "an unknown generator" : r.generator;
    }
    // An ok record must carry a positive, finite time: one edited or
    // damaged to 0 ms would win every comparison.
    if (r.isOk() && !r.hasUsableTime()) {
      ++implausible;
      ++unusable;
      continue;
    }
    llvm::Expected<Config> c = task.space.parseConfig(r.config);
    if (!c) {
      // Measured in another space (e.g. another machine's thread range):
      // it still counts towards the budget, but cannot guide the search.
      llvm::consumeError(c.takeError());
      ++unusable;
      continue;
    }
    history.add(std::move(*c), std::move(r));
  }
  events.setPreviousTrials(history.records.size() + unusable);
  events.emit(TuningEvent::Kind::TaskStarted);
  if (movedAside)
    events.note(std::to_string(movedAside) +
                " earlier records moved to replaced_records, measuring again");
  if (implausible)
    events.warn(std::to_string(implausible) +
                " earlier ok records have no positive time (damaged or edited); they are "
                "not used");
  if (unusable > implausible)
    events.warn(std::to_string(unusable - implausible) +
                " earlier records do not fit this op's space; they count towards the "
                "trial budget but are not used");
  if (olderGenerator)
    events.warn(std::to_string(olderGenerator) + " earlier records come from " + olderName +
                ", not " + generator +
                "; they are resumed as they are (use remeasure to measure them again)");
  std::string dir = workRoot + "/" + task.record.hash;
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return makeError("cannot create '" + dir + "': " + ec.message());
  removeLeftovers(dir);
  ProcessMeasurerOptions mo;
  mo.workerPath = worker;
  // Per process: two tuners of one task may hold different kernel texts
  // (weights); the reference is written by rename, so it can be shared.
  mo.kernelPath = dir + "/kernel-" + std::to_string(::getpid()) + ".mlir";
  // A GPU task's reference is by default the CPU's default configuration
  // (the untuned loops take minutes on large tasks); a file per kind, so
  // tuners sharing the directory with other gpu-reference settings keep
  // their own.
  bool scheduledReference =
      task.descriptor.target == "gpu" && options.gpuReference == "scheduled";
  mo.scheduledReference = scheduledReference;
  mo.referencePath = dir + (scheduledReference ? "/reference-scheduled.bin" : "/reference.bin");
  // The kernel is printed first: its text (weights included, which the
  // task identity leaves out) is part of the reference key.
  std::string kernelText;
  {
    llvm::raw_string_ostream os(kernelText);
    task.kernel->print(os);
  }
  // The computation, the kernel's weights, the inputs' generator and the
  // reference's lowering.
  mo.referenceKey = llvm::utohexstr(stableHash(task.descriptor.getCanonicalString() + "|" +
                                               kernelText + "|inputs-v1|" + generator +
                                               (scheduledReference ? "|scheduled-reference" : "")));
  mo.workDir = dir;
  mo.jobs = std::max(1u, options.jobs);
  mo.buildLimits = {options.buildTimeoutSeconds, options.memoryLimitMB << 20};
  mo.runLimits = {options.runTimeoutSeconds, options.memoryLimitMB << 20};
  mo.minTimeMs = options.minTimeMs;
  mo.flushCaches = options.flushCaches;
  mo.rtol = options.rtol;
  mo.atol = options.atol;
  // TF32 results differ from the f32 reference as f16 ones would.
  if (mo.rtol < 0 && isTf32AllowedAnywhere(*task.kernel))
    mo.rtol = kTf32RelativeTolerance;
  if (task.descriptor.target == "gpu") {
    // CUDA reserves far more address space than RLIMIT_AS allows: GPU
    // runs go without that limit (their wall-time limit stays).
    mo.runLimits.memoryBytes = 0;
    GpuTarget gpu = selectGpuTarget(options.gpuChip);
    mo.gpuChip = gpu.chip;
    mo.gpuLimits = formatGpuLimits(gpu.limits);
  }
  mo.readEnergyJoules = makeCandidateEnergyReader(task.descriptor.target == "gpu");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(mo.kernelPath, ec);
    if (ec)
      return makeError("cannot write '" + mo.kernelPath + "': " + ec.message());
    os << kernelText;
  }
  llvm::Expected<std::optional<double>> baseline = db.getBaseline(taskId, deviceId);
  if (!baseline)
    return baseline.takeError();
  // The reference's own time, written beside it: the database keeps one
  // baseline per task and device, which a reference of the other kind
  // (gpu-reference) may have overwritten since.
  std::optional<double> referenceMs = readReferenceMs(mo.referencePath);
  if (ProcessMeasurer::hasReference(mo) && referenceMs && *baseline != referenceMs) {
    if (llvm::Error e = db.setBaseline(taskId, deviceId, *referenceMs))
      return std::move(e);
    *baseline = referenceMs;
  }
  if (!ProcessMeasurer::hasReference(mo) || !*baseline || !referenceMs) {
    events.note(scheduledReference
                    ? "running the reference: the CPU's default configuration on all cores"
                    : "running the untuned reference");
    std::string how;
    llvm::Expected<double> untuned = ProcessMeasurer::makeReference(mo, summary.flops, &how);
    if (llvm::StringRef(how).starts_with("untuned: "))
      events.warn("the reference ran as untuned loops: its scheduled build failed (" +
                  llvm::StringRef(how).drop_front(9).trim().str() + ")");
    if (!untuned) {
      // This task cannot be checked, so it is not tuned; the others are.
      summary.error = llvm::toString(untuned.takeError());
      events.emit(TuningEvent::Kind::TaskFailed, summary.error, &summary);
      results[ti] = summary;
      return nullptr;
    }
    if (llvm::Error e = db.setBaseline(taskId, deviceId, *untuned))
      return std::move(e);
    writeReferenceMs(mo.referencePath, *untuned);
    summary.untunedMs = *untuned;
  } else {
    summary.untunedMs = **baseline;
    // Reused: say again when it is the untuned fallback of a scheduled one.
    if (scheduledReference)
      if (std::optional<std::string> kind = ProcessMeasurer::readReferenceKind(mo);
          kind && llvm::StringRef(*kind).starts_with("untuned: "))
        events.warn("the reference (reused) ran as untuned loops: its scheduled build failed (" +
                    llvm::StringRef(*kind).drop_front(9).trim().str() + ")");
  }

  StrategyOptions so;
  so.costModel = options.costModel;
  so.planSize = std::max(1u, options.planSize);
  so.firstFit = so.planSize;
  so.features = makeTaskFeatures(dyn_cast<linalg::LinalgOp>(task.ops.front()), task.space,
                                 task.descriptor.target, device, summary.flops);
  so.observer = &eventsOwner->getStrategyObserver();
  auto prepared = std::make_unique<PreparedTask>();
  PreparedTask &pt = *prepared;
  // GPU tasks: ptxas's resource usage of built candidates is a feature.
  if (task.descriptor.target == "gpu") {
    pt.gpuResources = std::make_shared<GpuResourceTable>();
    for (size_t i = 0; i < history.records.size(); ++i)
      pt.gpuResources->record(history.configs[i], history.records[i].gpuResources);
    so.features = createGpuResourceFeatureExtractor(so.features, pt.gpuResources);
  }
  llvm::Expected<std::unique_ptr<SearchStrategy>> strategy =
      createSearchStrategy(options.strategy, so);
  if (!strategy)
    return strategy.takeError();
  if (options.transfer != "none") {
    int64_t taskBudget = options.scheduler.empty()
                             ? getTrialsPerTaskWithoutScheduler(options)
                             : options.trials / std::max<int64_t>(1, tasks.size());
    TaskEvents *notes = eventsOwner.get();
    // Built when the task is first asked for candidates: with a task
    // scheduler that is its first slot, so it learns from the tasks the run
    // tuned before it (without one, tasks are tuned in turn anyway).
    MLIRContext *context = task.ops.front()->getContext();
    pt.transferLog = std::make_shared<TransferLog>();
    pt.transferBuildSeconds = std::make_shared<double>(0);
    DeferredSearch::Factory build = [this, &task, so, taskBudget, context, notes, log = pt.transferLog,
                  buildSeconds = pt.transferBuildSeconds]()
        -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
      auto started = std::chrono::steady_clock::now();
      llvm::Expected<std::unique_ptr<SearchStrategy>> built = createTransferStrategy(
          options, db, task.record, deviceId, task.space, so, *context, taskBudget, workRoot,
          [notes](std::string m) { notes->note(std::move(m)); }, log);
      *buildSeconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      return built;
    };
    if (options.scheduler.empty()) {
      llvm::Expected<std::unique_ptr<SearchStrategy>> transfer = build();
      if (!transfer)
        return transfer.takeError();
      if (*transfer)
        strategy = std::move(*transfer);
    } else {
      // Built again as the run's other tasks add rows (history-refresh):
      // a task whose first slot came before much history existed learns
      // from what the later slots measured. Each build pretrains anew, so
      // it waits for the history to grow by a factor, not by a row.
      DeferredSearch::Refresh refresh;
      if (options.historyRefresh > 0) {
        auto growth =
            std::make_shared<HistoryGrowth>(options, db, task.record, deviceId, notes);
        refresh = [growth](const TuningHistory &) { return growth->hasGrown("transfer"); };
        build = [build, growth]() {
          growth->markBuilt();
          return build();
        };
      }
      auto builds = std::make_shared<int>(0);
      build = [build, builds]() {
        ++*builds;
        return build();
      };
      std::unique_ptr<SearchStrategy> deferred = std::make_unique<DeferredSearch>(
          build, std::move(*strategy),
          [notes, builds](llvm::Error e) {
            notes->warn((*builds == 1 ? "transfer failed, tuning without it: "
                                      : "transfer could not be built again; the task goes on "
                                        "with the strategy it had: ") +
                        llvm::toString(std::move(e)));
          },
          std::move(refresh));
      strategy = std::move(deferred);
    }
  }
  std::optional<ColdRule> coldRule;
  if (!parseColdFilter(options.coldFilter, coldRule)) // a library caller's typo
    return makeError("cold-filter must be off, nn or trend, got '" + options.coldFilter + "'");
  std::shared_ptr<const std::vector<ColdFilterPrior>> coldPrior;
  ColdFilterOptions::PriorRefresh refreshColdPrior;
  if (coldRule) {
    pt.coldFilter = std::make_shared<ColdFilterStats>();
    TaskEvents *notes = eventsOwner.get();
    // As for transfer: history that cannot be read is a warning, and the
    // filter learns from the task's own records.
    auto loadPrior = [this, &task, notes]() -> std::shared_ptr<const std::vector<ColdFilterPrior>> {
      llvm::Expected<std::shared_ptr<const std::vector<ColdFilterPrior>>> prior =
          loadColdFilterPrior(options, db, task.record, deviceId, task.space,
                              [notes](std::string m) { notes->note(std::move(m)); });
      if (prior)
        return std::move(*prior);
      notes->warn("cold filter: history not used: " + llvm::toString(prior.takeError()));
      return nullptr;
    };
    if (options.scheduler.empty()) {
      coldPrior = loadPrior(); // the task's turn has come: tasks are tuned in turn
    } else {
      // As transfer: read at the task's first slot, and again as the run's
      // other tasks add rows (history-refresh).
      auto growth = std::make_shared<HistoryGrowth>(options, db, task.record, deviceId, notes);
      auto first = std::make_shared<bool>(true);
      refreshColdPrior = [growth, first, loadPrior,
                          refresh = options.historyRefresh > 0](const TuningHistory &)
          -> std::shared_ptr<const std::vector<ColdFilterPrior>> {
        if (!*first && !(refresh && growth->hasGrown("cold filter")))
          return nullptr;
        *first = false;
        growth->markBuilt();
        return loadPrior();
      };
    }
  }
  strategy = applyColdFilter(std::move(*strategy), coldRule, options.coldFactor, pt.coldFilter,
                             coldPrior, std::move(refreshColdPrior));
  double historyBest = INFINITY;
  for (const MeasureRecord &r : history.records)
    if (r.isOk() && r.repeats > 1 && !r.noisy && !r.cutOff)
      historyBest = std::min(historyBest, r.timeMs);
  pt.index = ti;
  pt.taskId = taskId;
  pt.unusable = unusable;
  // dltune's heuristic default is measured first: a short run never ends
  // worse than no tuning.
  std::vector<Config> seeds;
  if (std::optional<Config> d = getGeneratedDefaultConfig(task)) {
    pt.defaultConfig = d;
    seeds.push_back(*d);
    if (task.descriptor.target != "gpu")
      mo.anchorConfig = task.space.formatConfig(*d);
  }
  mo.anchorTolerance = options.anchorTolerance;
  mo.claim = [&db = db, id = taskId, dev = deviceId, &space = task.space,
              &owner = claimOwner, lease = claimLease,
              ev = eventsOwner.get()](const std::vector<Config> &configs) {
    std::vector<std::string> texts;
    for (const Config &c : configs)
      texts.push_back(space.formatConfig(c));
    llvm::Expected<std::vector<ClaimOutcome>> outcomes =
        db.claim(id, dev, texts, owner, lease);
    std::vector<bool> mine(configs.size(), true);
    if (!outcomes) {
      // Measuring twice is better than not at all; the commit says if
      // the database is gone.
      ev->warn("could not claim candidates: " + llvm::toString(outcomes.takeError()));
      return mine;
    }
    for (size_t i = 0; i < configs.size(); ++i)
      mine[i] = (*outcomes)[i] == ClaimOutcome::Claimed;
    return mine;
  };
  // Records other workers committed meanwhile, read before each batch (one
  // query; a batch takes seconds to build and time).
  mo.othersResults = [&db = db, id = taskId, dev = deviceId, &space = task.space,
                      ev = eventsOwner.get()](const TuningHistory &history) {
    std::vector<std::pair<Config, MeasureRecord>> found;
    llvm::Expected<std::vector<MeasureRecord>> records = db.getRecords(id, dev);
    if (!records) {
      ev->warn("could not read other workers' records: " +
               llvm::toString(records.takeError()));
      return found;
    }
    std::set<std::string> known;
    for (const MeasureRecord &r : history.records)
      known.insert(r.config);
    for (MeasureRecord &r : *records) {
      if (known.count(r.config) || (r.isOk() && !r.hasUsableTime()))
        continue;
      llvm::Expected<Config> c = space.parseConfig(r.config);
      if (!c) {
        llvm::consumeError(c.takeError());
        continue;
      }
      found.emplace_back(std::move(*c), std::move(r));
    }
    return found;
  };
  mo.warn = [ev = eventsOwner.get()](std::string message) { ev->warn(std::move(message)); };
  // What the task scheduler tunes.
  ModelTask &model = pt.model;
  model.state.name = summary.description;
  model.state.kind = task.descriptor.opKind;
  model.state.weight = summary.weight;
  model.state.flops = summary.flops;
  model.state.untunedMs = summary.untunedMs;
  model.space = task.space;
  model.strategy = std::make_unique<SeededSearch>(std::move(*strategy), std::move(seeds));
  auto measurerOwner = std::make_unique<ProcessMeasurer>(task.space, mo, historyBest);
  pt.measurer = measurerOwner.get();
  model.measurer = std::move(measurerOwner);
  model.history = std::move(history);
  pt.events = std::move(eventsOwner);
  ProcessMeasurer *measurer = pt.measurer;
  // A result that cannot be recorded stops the run: it is an error, not
  // a warning, and nothing more is measured into the void.
  pt.committer = std::make_unique<DatabaseCommitter>(
      db, taskId, deviceId, [measurer](llvm::Error e) {
        measurer->stop("could not record a measurement: " + llvm::toString(std::move(e)));
      });
  // Committed first: a Measured event is a result that is in the database.
  pt.callbacks = {pt.committer.get(), &pt.events->getMeasureCallback()};
  if (pt.gpuResources) {
    pt.recorder = std::make_unique<GpuResourceRecorder>(pt.gpuResources);
    pt.callbacks.push_back(pt.recorder.get());
  }
  pt.summary = std::move(summary);
  return prepared;
}

llvm::Error ModuleTuningRun::finishTask(PreparedTask &pt) {
  TuningTask &task = tasks[pt.index];
  TaskSummary &summary = pt.summary;
  summary.newTrials = pt.newTrials;
  summary.trials = pt.model.history.records.size() + pt.unusable;
  for (const MeasureRecord &r : pt.model.history.records)
    if (!r.isOk())
      ++summary.failures;
  // The time budget bounds confirmation too (after one full round): per
  // task, the task's own clock; with a scheduler, the run's wall clock
  // against the model's budget.
  auto outOfTime = [&] {
    if (options.timeBudgetSeconds <= 0)
      return false;
    double spent = options.scheduler.empty()
                       ? pt.measurer->getClockSeconds()
                       : std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                             .count();
    return spent >= options.timeBudgetSeconds;
  };
  if (llvm::Error e = confirmBest(task, pt.model.history, *pt.measurer, db, pt.taskId,
                                  deviceId, pt.newTrials > 0, options, *pt.events,
                                  pt.defaultConfig, outOfTime))
    return e;
  summary.tuningSeconds = pt.measurer->getClockSeconds();
  if (llvm::Error e = setDefaultLatency(pt, task.space, db, deviceId))
    return e;
  llvm::Expected<std::optional<MeasureRecord>> best = db.getBest(pt.taskId, deviceId);
  if (!best)
    return best.takeError();
  if (*best) {
    summary.bestMs = (*best)->timeMs;
    summary.bestConfig = (*best)->config;
    if ((*best)->confirmed) {
      summary.confirmRounds = (*best)->repeats;
      summary.bestMinMs = (*best)->minMs;
      summary.bestMaxMs = (*best)->maxMs;
    }
    if (llvm::Error err = attachConfig(task, (*best)->config))
      pt.events->warn("left without a configuration: " +
                      llvm::toString(std::move(err)));
  }
  if (pt.coldFilter)
    pt.events->note(llvm::formatv("cold filter: dropped {0} of {1} proposals before building "
                                  "them ({2} trainings, filter probability now {3:f2})",
                                  pt.coldFilter->dropped, pt.coldFilter->proposed,
                                  pt.coldFilter->trainings, pt.coldFilter->epsilon)
                        .str());
  if (pt.transferLog && !pt.transferLog->empty())
    pt.events->note(summarizeTransferLog(*pt.transferLog));
  if (pt.transferBuildSeconds) {
    summary.transferSeconds = *pt.transferBuildSeconds;
    for (const TransferDecision &d : *pt.transferLog)
      if (std::isfinite(d.seconds))
        summary.transferSeconds += d.seconds;
  }
  pt.events->emit(TuningEvent::Kind::TaskFinished, "", &summary);
  results[pt.index] = summary;
  return llvm::Error::success();
}

llvm::Error ModuleTuningRun::checkStopped(PreparedTask &pt) {
  std::string why = pt.measurer->getStopReason();
  if (why.empty())
    return llvm::Error::success();
  return makeError(pt.summary.description + ": tuning stopped: " + why +
                   " (what was recorded before stays in the database; run again to resume)");
}

llvm::Expected<std::vector<TaskSummary>>
mlir::dltune::tuneModule(ModuleOp module, const ModuleTunerOptions &options,
                         const TuningEventCallback &onEvent) {
  std::vector<TuningTask> tasks = collectTuningTasks(module);
  std::vector<TaskSummary> summaries;
  if (tasks.empty())
    return summaries;
  if (options.target != "cpu" && options.target != "gpu")
    return makeError("target must be cpu or gpu, got '" + options.target + "'");
  bool anyGpu = options.target == "gpu";
  for (const TuningTask &t : tasks)
    anyGpu |= t.descriptor.target == "gpu";
  if (anyGpu) {
    // Every candidate would fail the same way: say it once, up front.
    llvm::Expected<CudaDriver &> driver = CudaDriver::get();
    if (!driver)
      return makeError("autotuning for the GPU needs a CUDA driver: " +
                       llvm::toString(driver.takeError()));
  }
  // History files are read when each task's transfer is built, with a
  // scheduler at the task's first slot: a path that cannot be read is
  // refused before anything is measured.
  if (options.transfer != "none" || options.coldFilter != "off") {
    for (llvm::StringRef entry : getHistoryEntries(options)) {
      if (entry != "db" && !isPostgresUrl(entry) && !llvm::sys::fs::exists(entry))
        return makeError(isDatabasePath(entry)
                             ? "history database '" + entry + "' does not exist"
                             : "cannot open '" + entry + "': no such file");
    }
  }
  std::string worker = options.workerPath.empty() ? findWorkerExecutable() : options.workerPath;
  if (worker.empty())
    return makeError("cannot find the dltune executable that runs the workers (give the worker "
                     "option, or set DLTUNE_WORKER to an executable dltune)");
  llvm::Expected<std::unique_ptr<Database>> db = Database::open(options.dbPath);
  if (!db)
    return db.takeError();
  DeviceInfo device = DeviceInfo::detect(anyGpu ? "gpu" : "cpu");
  device.cachesFlushed = options.flushCaches; // not comparable with hot times
  llvm::Expected<int64_t> deviceId = (*db)->getOrCreateDevice(
      {0, device.getFingerprint(), device.getName(), device.toJson()});
  if (!deviceId)
    return deviceId.takeError();
  // Absolute: paths reach the workers and the linker as arguments, where
  // one starting with '-' would be read as an option.
  llvm::SmallString<256> workRootPath(options.workDir.empty() ? getDefaultWorkDir(options.dbPath)
                                                              : options.workDir);
  if (std::error_code ec = llvm::sys::fs::make_absolute(workRootPath))
    return makeError("cannot resolve the work directory '" + workRootPath.str().str() +
                     "': " + ec.message());
  std::string workRoot(workRootPath.str());
  std::string claimOwner = makeOwnerName();
  // A claim outlives a whole batch: builds in parallel, then each timed.
  double claimLease = 2 * (options.buildTimeoutSeconds +
                           8.0 * std::max(1u, options.jobs) * options.runTimeoutSeconds) +
                      60;
  // Claims of this run are dropped however it ends; expired ones of a
  // killed run are taken over by whoever comes next.
  struct ClaimRelease {
    Database &db;
    const std::string &owner;
    ~ClaimRelease() { llvm::consumeError(db.releaseClaims(owner)); }
  } releaseClaims{**db, claimOwner};

  // With a scheduler option, one scheduler spends the model's budget over
  // every task once all are prepared; without, each task is tuned (and
  // confirmed) as soon as it is prepared, on its own budget.
  std::unique_ptr<TaskScheduler> modelScheduler;
  if (!options.scheduler.empty()) {
    llvm::Expected<std::unique_ptr<TaskScheduler>> scheduler =
        createTaskScheduler(options.scheduler, getSchedulerOptions(options));
    if (!scheduler)
      return scheduler.takeError();
    modelScheduler = std::move(*scheduler);
  }

  ModuleTuningRun run(options, onEvent, tasks, **db, *deviceId, device, worker, workRoot,
                      claimOwner, claimLease);
  std::vector<std::unique_ptr<PreparedTask>> preparedTasks;
  for (size_t ti = 0; ti < tasks.size(); ++ti) {
    llvm::Expected<std::unique_ptr<PreparedTask>> built = run.buildTask(ti);
    if (!built)
      return built.takeError();
    if (!*built)
      continue;
    PreparedTask &pt = **built;
    ModelTask &model = pt.model;
    preparedTasks.push_back(std::move(*built));
    if (modelScheduler) {
      // What the op compiles to untuned (apply-best's fallback): the
      // model's latency before tuning, and the task's weight in the
      // scheduler. Measured before any slot.
      model.untunedConfig = pt.defaultConfig;
      continue;
    }
    // Its own budget, as one slot of `sequential` (no early stop); the
    // default configuration is the strategy's first proposal (SeededSearch).
    SchedulerOptions wholeTask;
    wholeTask.earlyStop = 0;
    llvm::Expected<std::unique_ptr<TaskScheduler>> sequential =
        createTaskScheduler("sequential", wholeTask);
    if (!sequential)
      return sequential.takeError();
    ModelTuningOptions budget;
    budget.trials = getTrialsPerTaskWithoutScheduler(options) - pt.unusable;
    budget.slotTrials = std::max<int64_t>(1, budget.trials);
    budget.timeBudgetSeconds = options.timeBudgetSeconds;
    budget.batchSize = std::max(1u, options.jobs);
    model.seed = options.seed + ti;
    PreparedTask *group[] = {&pt};
    tuneTasks(group, **sequential, budget, /*modelBudget=*/false, onEvent);
    if (llvm::Error e = run.checkStopped(pt))
      return std::move(e);
    if (llvm::Error e = run.finishTask(pt))
      return std::move(e);
  }

  if (modelScheduler) {
    // Slots of one model budget, handed out by the task scheduler.
    std::vector<PreparedTask *> group;
    int64_t unusable = 0;
    for (std::unique_ptr<PreparedTask> &pt : preparedTasks) {
      group.push_back(pt.get());
      unusable += pt->unusable;
    }
    ModelTuningOptions budget;
    budget.trials = options.trials - unusable;
    budget.trialsPerTask = options.trialsPerTask;
    budget.timeBudgetSeconds = options.timeBudgetSeconds;
    budget.latencyGoalMs = options.latencyGoalMs;
    budget.slotTrials = std::max<int64_t>(1, options.slotTrials);
    budget.taskEarlyStop = options.taskEarlyStop;
    budget.seed = options.seed;
    // `entry`: the model timed end to end when the scheduler asks (survey,
    // after each epoch).
    std::unique_ptr<EndToEndModelTimer> timer;
    if (!options.modelEntry.empty() && options.scheduler == "survey") {
      if (module.lookupSymbol(options.modelEntry)) {
        std::vector<llvm::SmallVector<Operation *>> opsOfTask;
        for (PreparedTask *pt : group)
          opsOfTask.push_back(tasks[pt->index].ops);
        ModelTimingOptions timing;
        timing.target = options.target;
        timing.gpuChip = options.gpuChip;
        timing.flushCaches = options.flushCaches;
        timer = std::make_unique<EndToEndModelTimer>(module, options.modelEntry,
                                                     std::move(opsOfTask), timing);
        budget.modelTimer = timer.get();
      } else if (onEvent) {
        TuningEvent e{TuningEvent::Kind::ModelTimed};
        e.taskName = "model";
        e.message = "this module has no function @" + options.modelEntry;
        onEvent(e);
      }
    }
    tuneTasks(group, *modelScheduler, budget, /*modelBudget=*/true, onEvent);
    for (std::unique_ptr<PreparedTask> &pt : preparedTasks)
      if (llvm::Error e = run.checkStopped(*pt))
        return std::move(e);
    for (std::unique_ptr<PreparedTask> &pt : preparedTasks)
      if (llvm::Error e = run.finishTask(*pt))
        return std::move(e);
  }
  return run.takeSummaries();
}

/// For a task apply-best has no usable record of: an op without a
/// configuration would not be scheduled at all (naive loops), so each op
/// keeps the configuration it has or gets the generated default (this
/// host's, as getGeneratedDefaultConfig says): a database tuned before a
/// change of task identity (a new epilogue, a new dltune) must not slow the
/// model down. `why` goes into a remark, or a warning with `warn`.
static void attachFallbackConfig(TuningTask &task, const std::string &why, bool warn) {
  std::optional<Config> fallback = getGeneratedDefaultConfig(task);
  for (Operation *op : task.ops) {
    const char *outcome = "; keeps its configuration";
    if (!op->hasAttr(DLTuneDialect::kConfigAttrName)) {
      if (fallback)
        op->setAttr(DLTuneDialect::kConfigAttrName,
                    ConfigAttr::get(op->getContext(), task.space, *fallback));
      outcome = fallback ? "; the default configuration attached" : "; left without a configuration";
    }
    (warn ? op->emitWarning() : op->emitRemark()) << "dltune-apply-best: " << why << outcome;
  }
}

llvm::Expected<int> mlir::dltune::applyBestFromDatabase(ModuleOp module,
                                                        const std::string &dbPath,
                                                        const std::string &target) {
  llvm::Expected<std::unique_ptr<Database>> db = Database::open(dbPath, /*create=*/false);
  if (!db)
    return db.takeError();
  DeviceInfo device = DeviceInfo::detect(target);
  DeviceInfo flushed = device;
  flushed.cachesFlushed = true;
  // This machine's records timed hot, else its records timed with the
  // caches flushed (flush-caches), else any device's.
  int64_t deviceId = 0, flushedDeviceId = 0;
  llvm::Expected<std::vector<DeviceRecord>> devices = (*db)->listDevices();
  if (!devices)
    return devices.takeError();
  for (const DeviceRecord &d : *devices) {
    if (d.fingerprint == device.getFingerprint())
      deviceId = d.id;
    if (d.fingerprint == flushed.getFingerprint())
      flushedDeviceId = d.id;
  }
  int applied = 0;
  for (TuningTask &task : collectTuningTasks(module)) {
    llvm::Expected<std::optional<TaskRecord>> rec = (*db)->findTask(task.record.hash);
    if (!rec)
      return rec.takeError();
    std::optional<MeasureRecord> best;
    // This machine's best if it has one (hot, else flushed), else the best
    // on any device (getBest's device 0).
    constexpr int64_t kAnyDevice = -1;
    for (int64_t dev : {deviceId, flushedDeviceId, kAnyDevice}) {
      if (!*rec || best || dev == 0) // 0: this machine has no such device
        continue;
      llvm::Expected<std::optional<MeasureRecord>> b =
          (*db)->getBest((*rec)->id, dev == kAnyDevice ? 0 : dev);
      if (!b)
        return b.takeError();
      best = *b;
    }
    if (!best) {
      attachFallbackConfig(task, "no successful measurement of this task in '" + redactDatabaseUrl(dbPath) + "'",
                           /*warn=*/false);
      continue;
    }
    if (best->generator != getGeneratorString())
      for (Operation *op : task.ops)
        op->emitWarning() << "dltune-apply-best: the best configuration in '" << redactDatabaseUrl(dbPath)
                          << "' was measured with "
                          << (best->generator.empty() ? std::string("an unknown generator")
                                                      : best->generator)
                          << ", not " << getGeneratorString()
                          << "; re-measure it (dltune tune --remeasure) to be sure";
    if (llvm::Error err = attachConfig(task, best->config)) {
      attachFallbackConfig(task, llvm::toString(std::move(err)) + "; re-tune it",
                           /*warn=*/true);
      continue;
    }
    ++applied;
  }
  return applied;
}
