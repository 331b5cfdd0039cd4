//===- DbCommand.cpp - dltune db ------------------------------------------===//
//
//   dltune db summary --db PATH
//   dltune db best --db PATH [--task HASH]
//   dltune db records --db PATH [--task HASH]   (task, config, status; no times)
//   dltune db export --db PATH [-o FILE.jsonl]
//   dltune db import FILE.jsonl --db PATH
//   dltune db import-tophub FILE.log --db PATH
//   dltune db import-kt FILE.json[.gz] --db PATH
//   dltune db forget --db PATH [--task HASH] [--status S] [--older-than-days D]
//   dltune db cost --db PATH [--task HASH] [--cold-factor F] [--watts-per-core W]
//                  [--baseline OTHER.db]
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Tuning/Cost/TuningCost.h"
#include "dltune/Tuning/Database/DatabaseIO.h"
#include "dltune/Tuning/Database/PostgresDatabase.h"
#include "dltune/Tuning/Support/OutputFile.h"

#include "llvm/Support/FileSystem.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <iostream>
#include <map>

using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand dbCmd("db", "Inspect, export and import tuning databases");
static cl::list<std::string> dbArgs(cl::Positional, cl::desc("<action> [file]"),
                                    cl::OneOrMore, cl::sub(dbCmd));
static cl::opt<std::string> dbPath("db", cl::desc("Database file"), cl::init("dltune.db"),
                                   cl::sub(dbCmd));
static cl::opt<std::string> outFile("o", cl::desc("Output file (export)"), cl::init("-"),
                                    cl::sub(dbCmd));
static cl::opt<std::string> taskFilter("task",
                                       cl::desc("Only this task hash (best, records, cost, forget)"),
                                       cl::sub(dbCmd));
static cl::opt<std::string> statusFilter(
    "status", cl::desc("forget: only records of this status (e.g. run_timeout)"),
    cl::sub(dbCmd));
static cl::opt<double> olderThanDays("older-than-days",
                                     cl::desc("forget: only records older than this"),
                                     cl::init(0), cl::sub(dbCmd));

static cl::opt<double> coldFactor(
    "cold-factor",
    cl::desc("cost: a candidate slower than this factor times the best before it is cold"),
    cl::init(TuningCostOptions().coldFactor), cl::sub(dbCmd));
static cl::opt<double> wattsPerCore(
    "watts-per-core",
    cl::desc("cost: the power model's watts per busy core (energy is modelled from CPU "
             "seconds where no meter was read)"),
    cl::init(PowerModel().busyWattsPerCore), cl::sub(dbCmd));

static cl::opt<std::string> costBaseline(
    "baseline",
    cl::desc("cost: compare with this database (the same tasks tuned another way): reductions "
             "of time, energy and latency, and the deep-GP paper's hypervolume"),
    cl::sub(dbCmd));

static std::string formatMaybe(double v, const char *format) {
  return std::isfinite(v) ? llvm::formatv(format, v).str() : std::string("-");
}

static int compareCost(Database &db, const TuningCostOptions &options);

/// Time and energy (metered, else modelled) per task and device, and in total: what the
/// candidates cost, what the cold and failed ones cost, and the cost per
/// millisecond of latency saved against the untuned lowering (Trimmer).
static int cost(Database &db) {
  if (!(coldFactor > 1 && coldFactor < 1e6))
    return fail("--cold-factor must be a number above 1, got " + formatNumber(coldFactor));
  if (!(wattsPerCore > 0 && wattsPerCore < 1e4))
    return fail("--watts-per-core must be a positive number of watts, got " +
                formatNumber(wattsPerCore));
  TuningCostOptions options;
  options.coldFactor = coldFactor;
  options.power.busyWattsPerCore = wattsPerCore;
  auto tasks = db.listTasks();
  if (!tasks)
    return fail(llvm::toString(tasks.takeError()));
  auto devices = db.listDevices();
  if (!devices)
    return fail(llvm::toString(devices.takeError()));
  llvm::outs() << llvm::formatv(
      "energy modelled where no meter was read: {0} W per busy core (build: 1 core, "
      "measurement: the config's threads); cold: slower than {1}x the best before it\n",
      formatNumber(wattsPerCore), formatNumber(coldFactor));
  const char *row = "{0,-16} {1,-26} {2,5} {3,6} {4,5} {5,9} {6,9} {7,10} {8,6} {9,6} {10,10} "
                    "{11,10} {12,9} {13,9}\n";
  llvm::outs() << llvm::formatv(row, "task", "device", "cands", "failed", "cold", "build s",
                                "run s", "energy J", "cold%", "fail%", "untuned ms", "best ms",
                                "s/ms", "J/ms");
  TaskCost total;
  bool found = false;
  auto print = [&](const std::string &task, const std::string &device, const TaskCost &c) {
    auto share = [&](double part) {
      return c.getSeconds() > 0 ? llvm::formatv("{0:f1}", 100 * part / c.getSeconds()).str()
                                : std::string("-");
    };
    llvm::outs() << llvm::formatv(
        row, task, device.size() > 26 ? device.substr(0, 23) + "..." : device, c.candidates,
        c.failed, c.cold, llvm::formatv("{0:f1}", c.buildSeconds),
        llvm::formatv("{0:f1}", c.runSeconds), llvm::formatv("{0:f0}", c.joules),
        share(c.coldSeconds), share(c.failedSeconds), formatMaybe(c.untunedMs, "{0:f4}"),
        formatMaybe(c.bestMs, "{0:f4}"), formatMaybe(c.getSecondsPerMsSaved(), "{0:f1}"),
        formatMaybe(c.getJoulesPerMsSaved(), "{0:f0}"));
  };
  for (const TaskRecord &t : *tasks) {
    if (!taskFilter.empty() && t.hash != taskFilter)
      continue;
    found = true;
    for (const DeviceRecord &d : *devices) {
      auto records = db.getRecords(t.id, d.id);
      if (!records)
        return fail(llvm::toString(records.takeError()));
      if (records->empty())
        continue;
      auto untuned = db.getBaseline(t.id, d.id);
      if (!untuned)
        return fail(llvm::toString(untuned.takeError()));
      TaskCost c = summarizeTaskCost(std::move(*records), *untuned, options);
      if (!c.candidates)
        continue; // imported from a recorded dataset: no cost here
      print(t.hash, d.name, c);
      total.add(c);
    }
  }
  if (!taskFilter.empty() && !found)
    return fail("no task '" + taskFilter + "' in " + redactDatabaseUrl(dbPath));
  print("total", "", total);
  // Records made where RAPL or NVML was readable carry their candidate's
  // metered joules; the power model stands in for the others.
  if (total.meteredCandidates > 0)
    llvm::outs() << llvm::formatv(
        "energy metered (RAPL/NVML: each candidate's share of its batch's builds, by build "
        "seconds, and its measurement) for {0} of {1} candidates; modelled for the rest ({2:f0} "
        "J of all candidates by the power model)\n",
        total.meteredCandidates, total.candidates, total.modelledJoules);
  llvm::outs() << llvm::formatv("s/ms, J/ms: seconds and {0} joules per millisecond of "
                                "per-call latency saved against the untuned lowering (each "
                                "task counted once)\n",
                                total.meteredCandidates == 0 ? "modelled"
                                : total.meteredCandidates == total.candidates
                                    ? "metered"
                                    : "metered and modelled");
  if (!costBaseline.empty())
    return compareCost(db, options);
  return 0;
}

/// One task's cost and latency in a database: seconds, both joule figures
/// (metered where recorded, and the power model's) and the best ms.
struct TaskOutcome {
  TuningOutcome outcome;     // joules: metered where recorded, else modelled
  double modelledJoules = 0; // the power model's, every candidate
  int64_t candidates = 0, metered = 0;
};

/// Each task's candidates' seconds and joules (all devices) and its best ms
/// (on its fastest device), by task hash. Tasks without candidates of their
/// own (imported datasets) are left out.
static llvm::Expected<std::map<std::string, TaskOutcome>>
outcomesByTask(Database &db, const TuningCostOptions &options) {
  auto tasks = db.listTasks();
  if (!tasks)
    return tasks.takeError();
  auto devices = db.listDevices();
  if (!devices)
    return devices.takeError();
  std::map<std::string, TaskOutcome> out;
  for (const TaskRecord &t : *tasks) {
    if (!taskFilter.empty() && t.hash != taskFilter)
      continue;
    TaskOutcome o;
    o.outcome.latencyMs = INFINITY;
    for (const DeviceRecord &d : *devices) {
      auto records = db.getRecords(t.id, d.id);
      if (!records)
        return records.takeError();
      TaskCost c = summarizeTaskCost(std::move(*records), std::nullopt, options);
      o.outcome.seconds += c.getSeconds();
      o.outcome.joules += c.joules;
      o.modelledJoules += c.modelledJoules;
      o.candidates += c.candidates;
      o.metered += c.meteredCandidates;
      if (c.bestMs < o.outcome.latencyMs)
        o.outcome.latencyMs = c.bestMs;
    }
    if (o.outcome.seconds > 0 && std::isfinite(o.outcome.latencyMs))
      out[t.hash] = o;
  }
  return out;
}

/// `db cost --baseline OTHER`: this database against another of the same
/// tasks, over the tasks both tuned.
static int compareCost(Database &db, const TuningCostOptions &options) {
  auto other = Database::openReadOnly(costBaseline);
  if (!other)
    return fail("--baseline: " + llvm::toString(other.takeError()));
  auto mine = outcomesByTask(db, options);
  if (!mine)
    return fail(llvm::toString(mine.takeError()));
  auto theirs = outcomesByTask(**other, options);
  if (!theirs)
    return fail(llvm::toString(theirs.takeError()));
  // Metered joules compare only with metered ones: unless every candidate
  // of the compared tasks is metered in both, both are compared by the
  // power model.
  std::vector<std::pair<const TaskOutcome *, const TaskOutcome *>> both;
  bool metered = true;
  for (const auto &[hash, o] : *mine) {
    auto it = theirs->find(hash);
    if (it == theirs->end())
      continue;
    both.push_back({&o, &it->second});
    metered &= o.metered == o.candidates && it->second.metered == it->second.candidates;
  }
  TuningOutcome run, baseline;
  int64_t shared = static_cast<int64_t>(both.size());
  for (auto [a, b] : both) {
    for (auto [from, to] : {std::pair{a, &run}, std::pair{b, &baseline}}) {
      to->seconds += from->outcome.seconds;
      to->joules += metered ? from->outcome.joules : from->modelledJoules;
      to->latencyMs += from->outcome.latencyMs;
    }
  }
  if (!shared)
    return fail("the baseline '" + redactDatabaseUrl(costBaseline) +
                "' has no task tuned in this database: nothing to compare");
  CostComparison c = compareTuningOutcomes(run, baseline);
  llvm::outs() << llvm::formatv("\nagainst the baseline {0} ({1} task(s) tuned in both):\n",
                                redactDatabaseUrl(costBaseline), shared);
  const char *row = "{0,-10} {1,12} {2,12} {3,14}\n";
  llvm::outs() << llvm::formatv(row, "", "seconds", metered ? "metered J" : "energy J",
                                "latency ms");
  llvm::outs() << llvm::formatv(row, "this", llvm::formatv("{0:f1}", run.seconds),
                                llvm::formatv("{0:f0}", run.joules),
                                llvm::formatv("{0:f4}", run.latencyMs));
  llvm::outs() << llvm::formatv(row, "baseline", llvm::formatv("{0:f1}", baseline.seconds),
                                llvm::formatv("{0:f0}", baseline.joules),
                                llvm::formatv("{0:f4}", baseline.latencyMs));
  llvm::outs() << llvm::formatv(row, "reduction", formatMaybe(c.timeReduction, "{0:f1}%"),
                                formatMaybe(c.energyReduction, "{0:f1}%"),
                                formatMaybe(c.latencyReduction, "{0:f2}%"));
  llvm::outs() << "hypervolume (time): " << formatMaybe(c.getTimeHypervolume(), "{0:f3}")
               << ", (energy): " << formatMaybe(c.getEnergyHypervolume(), "{0:f3}")
               << "\n(latency: the sum of the tasks' best ms per call, each task once on its "
                  "fastest device; hypervolume: the cost reduction x the latency reduction / "
                  "100, as the deep-GP paper's Table 1; - unless both are reductions)\n";
  return 0;
}

/// Moves the selected records to replaced_records so that the next tuning
/// run measures those configurations again (transient failures, old
/// timings); nothing is deleted.
static int forget(Database &db) {
  if (olderThanDays.getNumOccurrences() &&
      !(olderThanDays > 0 && olderThanDays < 1e6))
    return fail("--older-than-days must be a positive number of days, got " +
                formatNumber(olderThanDays));
  if (taskFilter.empty() && statusFilter.empty() && olderThanDays <= 0)
    return fail("db forget needs --task, --status or --older-than-days (it never forgets "
                "everything by accident)");
  if (!statusFilter.empty() && !parseMeasureStatus(statusFilter))
    return fail("unknown status '" + statusFilter + "'");
  if (!taskFilter.empty()) {
    llvm::Expected<std::optional<TaskRecord>> t = db.findTask(taskFilter);
    if (!t)
      return fail(llvm::toString(t.takeError()));
    if (!*t)
      return fail("no task '" + taskFilter + "' in " + redactDatabaseUrl(dbPath));
  }
  llvm::Expected<int64_t> moved =
      db.forget({taskFilter, statusFilter, olderThanDays * 86400.0, 0}, "forget");
  if (!moved)
    return fail(llvm::toString(moved.takeError()));
  llvm::outs() << "moved " << *moved
               << " records to replaced_records; the next tuning run measures them again\n";
  return 0;
}

static int summary(Database &db) {
  auto tasks = db.listTasks();
  if (!tasks)
    return fail(llvm::toString(tasks.takeError()));
  auto devices = db.listDevices();
  if (!devices)
    return fail(llvm::toString(devices.takeError()));
  llvm::outs() << llvm::formatv("database {0}: schema v{1}, {2} tasks, {3} devices\n",
                                redactDatabaseUrl(dbPath), db.getSchemaVersion(), tasks->size(),
                                devices->size());
  llvm::outs() << llvm::formatv("{0,-16} {1,-28} {2,-22} {3,8} {4,6} {5,12}  {6}\n", "task",
                                "op", "shapes", "records", "failed", "best ms", "failures by class");
  int64_t total = 0;
  for (const TaskRecord &t : *tasks) {
    auto records = db.getRecords(t.id);
    if (!records)
      return fail(llvm::toString(records.takeError()));
    std::map<std::string, int> failures;
    int failed = 0;
    for (const MeasureRecord &r : *records)
      if (!r.isOk()) {
        ++failed;
        ++failures[toString(r.status).str()];
      }
    total += records->size();
    auto best = db.getBest(t.id);
    if (!best)
      return fail(llvm::toString(best.takeError()));
    std::string classes;
    for (auto &[k, n] : failures)
      classes += (classes.empty() ? "" : " ") + k + "=" + std::to_string(n);
    std::string shapes = t.shapes.size() > 22 ? t.shapes.substr(0, 19) + "..." : t.shapes;
    std::string op = t.opKind.size() > 28 ? t.opKind.substr(0, 25) + "..." : t.opKind;
    llvm::outs() << llvm::formatv("{0,-16} {1,-28} {2,-22} {3,8} {4,6} {5,12}  {6}\n",
                                  t.hash, op, shapes, records->size(), failed,
                                  *best ? llvm::formatv("{0:f4}", (*best)->timeMs).str()
                                        : std::string("-"),
                                  classes);
  }
  llvm::outs() << total << " records\n";
  return 0;
}

static int best(Database &db) {
  auto tasks = db.listTasks();
  if (!tasks)
    return fail(llvm::toString(tasks.takeError()));
  bool found = false;
  for (const TaskRecord &t : *tasks) {
    if (!taskFilter.empty() && t.hash != taskFilter)
      continue;
    found = true;
    auto b = db.getBest(t.id);
    if (!b)
      return fail(llvm::toString(b.takeError()));
    if (*b)
      llvm::outs() << llvm::formatv("{0} {1} {2:f4} ms {3}\n", t.hash, t.opKind,
                                    (*b)->timeMs, (*b)->config);
    else
      llvm::outs() << t.hash << " " << t.opKind << " (no successful measurement)\n";
  }
  if (!taskFilter.empty() && !found)
    return fail("no task '" + taskFilter + "' in " + redactDatabaseUrl(dbPath));
  return 0;
}

static int records(Database &db) {
  auto tasks = db.listTasks();
  if (!tasks)
    return fail(llvm::toString(tasks.takeError()));
  for (const TaskRecord &t : *tasks) {
    if (!taskFilter.empty() && t.hash != taskFilter)
      continue;
    auto recs = db.getRecords(t.id);
    if (!recs)
      return fail(llvm::toString(recs.takeError()));
    for (const MeasureRecord &r : *recs)
      llvm::outs() << t.hash << " " << r.config << " " << toString(r.status) << "\n";
  }
  return 0;
}

int dbCommand() {
  std::string action = dbArgs[0];
  bool writes = action.rfind("import", 0) == 0;
  if (action != "summary" && action != "best" && action != "export" && action != "records" &&
      action != "forget" && action != "cost" && !writes)
    return fail("unknown db action '" + action +
                "' (summary, best, records, cost, export, import, import-tophub, import-kt, "
                "forget)");
  if (costBaseline.getNumOccurrences() && action != "cost")
    return fail("--baseline is an option of db cost only");
  if (costBaseline.getNumOccurrences() && costBaseline.empty())
    return fail("--baseline needs a database path");
  if (writes && dbArgs.size() != 2)
    return fail("db " + action + " takes one input file");
  // A stray word is a typo, not something to ignore.
  if (!writes && dbArgs.size() != 1)
    return fail("db " + action + " takes no file argument, got '" + dbArgs[1] + "'" +
                (action == "export" ? " (the output file is -o FILE)" : ""));
  // The log files need not exist yet: isSameFile compares names too.
  if (action == "export" && outFile != "-")
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
      if (isSameFile(outFile, dbPath + suffix))
        return fail("the export file '" + outFile + "' is the database '" + dbPath +
                    "' (or its log): give another -o; nothing was written");
  // A failed import leaves no database behind where there was none.
  bool existed = llvm::sys::fs::exists(dbPath);
  auto removeIfNew = [&]() {
    if (existed)
      return;
    for (const char *suffix : {"", "-wal", "-shm"})
      llvm::sys::fs::remove(dbPath + suffix);
  };
  auto db = Database::open(dbPath, /*create=*/writes);
  if (!db) {
    removeIfNew();
    return fail(llvm::toString(db.takeError()));
  }
  if (action == "summary")
    return summary(**db);
  if (action == "best")
    return best(**db);
  if (action == "records")
    return records(**db);
  if (action == "forget")
    return forget(**db);
  if (action == "cost")
    return cost(**db);
  if (action == "export") {
    ExportStats n;
    // Complete or absent: a failed export never leaves a partial file or
    // replaces the one that was there.
    if (llvm::Error err = writeFileAtomically(
            outFile, [&](std::ostream &out) { return exportJsonLines(**db, out, &n); }))
      return fail(llvm::toString(std::move(err)) + " (nothing was exported)");
    llvm::errs() << llvm::formatv(
        "exported {0} records, {1} confirmations, {2} baselines, {3} notes, {4} model "
        "latencies, {5} studies ({6} interval latencies, {7} stopped models)\n",
        n.records, n.confirmations, n.baselines, n.notes, n.modelLatencies, n.studies,
        n.studyIntervals, n.studyStops);
    return 0;
  }
  llvm::Expected<ImportStats> stats =
      action == "import"          ? importJsonLines(**db, dbArgs[1])
      : action == "import-tophub" ? importAutoTVMLog(**db, dbArgs[1])
      : action == "import-kt"     ? importKernelTunerCache(**db, dbArgs[1])
                                  : llvm::Expected<ImportStats>(llvm::createStringError(
                                        llvm::inconvertibleErrorCode(), "unknown import"));
  if (!stats) {
    db->reset();
    removeIfNew();
    return fail(llvm::toString(stats.takeError()) + " (nothing was imported)");
  }
  llvm::outs() << llvm::formatv("imported {0} records ({1} already present) in {2} tasks",
                                stats->inserted, stats->skipped, stats->tasks);
  if (action == "import")
    llvm::outs() << llvm::formatv(", {0} confirmations, {1} baselines, {2} notes, {3} model "
                                  "latencies, {4} studies ({5} interval latencies, {6} "
                                  "stopped models)",
                                  stats->confirmations, stats->baselines, stats->notes,
                                  stats->modelLatencies, stats->studies, stats->studyIntervals,
                                  stats->studyStops);
  llvm::outs() << "\n";
  return 0;
}

} // namespace dltune_tool
