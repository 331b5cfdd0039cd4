//===- TuningReport.cpp - What a tuning database says, gathered for a report ===//

#include "dltune/Tuning/Report/TuningReport.h"
#include "dltune/Tuning/ColdFilter/ColdLabels.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using namespace mlir::dltune;

std::string TaskReport::getName() const {
  std::string shapes = task.shapes;
  // Tables name a task by its op and its operands' shapes.
  std::replace(shapes.begin(), shapes.end(), ';', ' ');
  return task.opKind + " " + shapes;
}

/// Fills the per-record labels, the first measurement and the cost of `t`.
static void summarize(TaskReport &t, const TuningCostOptions &costOptions) {
  std::stable_sort(t.records.begin(), t.records.end(),
                   [](const MeasureRecord &a, const MeasureRecord &b) {
                     return a.createdAt < b.createdAt;
                   });
  std::vector<double> times;
  for (const MeasureRecord &r : t.records)
    times.push_back(r.hasUsableTime() ? r.timeMs : NAN);
  t.cold = labelColdByRunningBest(times, costOptions.coldFactor);
  double best = NAN;
  for (size_t i = 0; i < t.records.size(); ++i) {
    const MeasureRecord &r = t.records[i];
    bool improved = r.hasUsableTime() && (std::isnan(best) || r.timeMs < best);
    t.improved.push_back(improved);
    if (improved)
      best = r.timeMs;
    if (r.hasUsableTime() && std::isnan(t.firstMs)) {
      t.firstMs = r.timeMs;
      t.firstConfig = r.config;
    }
    if (!r.isOk())
      ++t.failuresByClass[toString(r.status).str()];
    if (r.source == "measured" && !improved)
      t.neverImprovedSeconds += std::max(0.0, r.buildSeconds) + std::max(0.0, r.runSeconds);
  }
  t.bestMs = best;
  t.cost = summarizeTaskCost(t.records, t.untunedMs, costOptions);
}

llvm::Expected<TuningReport> mlir::dltune::collectTuningReport(Database &db,
                                                               const std::string &path,
                                                               const TuningReportOptions &options) {
  TuningReport report;
  report.databasePath = path;
  report.schemaVersion = db.getSchemaVersion();
  report.costOptions = options.cost;
  report.modelName = options.modelName;
  llvm::Expected<std::vector<DeviceRecord>> devices = db.listDevices();
  if (!devices)
    return devices.takeError();
  report.devices = *devices;
  llvm::Expected<std::vector<TaskRecord>> tasks = db.listTasks();
  if (!tasks)
    return tasks.takeError();
  std::set<std::string> seenModelTasks;
  for (const TaskRecord &task : *tasks) {
    int64_t weight = 1;
    if (!options.modelTaskWeights.empty()) {
      auto it = options.modelTaskWeights.find(task.hash);
      if (it == options.modelTaskWeights.end())
        continue;
      weight = it->second;
    }
    for (const DeviceRecord &device : report.devices) {
      llvm::Expected<std::vector<MeasureRecord>> records = db.getRecords(task.id, device.id);
      if (!records)
        return records.takeError();
      if (records->empty())
        continue;
      seenModelTasks.insert(task.hash);
      TaskReport t;
      t.task = task;
      t.device = device;
      t.weight = weight;
      t.records = std::move(*records);
      llvm::Expected<std::optional<double>> untuned = db.getBaseline(task.id, device.id);
      if (!untuned)
        return untuned.takeError();
      t.untunedMs = *untuned;
      llvm::Expected<std::optional<MeasureRecord>> best = db.getBest(task.id, device.id);
      if (!best)
        return best.takeError();
      t.best = *best;
      llvm::Expected<std::vector<Confirmation>> confirmations =
          db.getLatestConfirmations(task.id, device.id);
      if (!confirmations)
        return confirmations.takeError();
      t.confirmations = *confirmations;
      llvm::Expected<std::vector<TaskNote>> notes = db.listTaskNotes(task.id, device.id);
      if (!notes)
        return notes.takeError();
      t.notes = *notes;
      summarize(t, options.cost);
      for (const MeasureRecord &r : t.records) {
        ++report.recordCount;
        if (r.createdAt > 0) {
          report.firstRecordAt = std::isnan(report.firstRecordAt)
                                     ? r.createdAt
                                     : std::min(report.firstRecordAt, r.createdAt);
          report.lastRecordAt = std::isnan(report.lastRecordAt)
                                    ? r.createdAt
                                    : std::max(report.lastRecordAt, r.createdAt);
        }
        ++report.generators[r.generator.empty() ? "unknown" : r.generator];
      }
      report.tasks.push_back(std::move(t));
    }
  }
  for (const DeviceRecord &device : report.devices) {
    llvm::Expected<std::vector<ModelLatency>> latencies = db.listModelLatencies(device.id);
    if (!latencies)
      return latencies.takeError();
    for (ModelLatency &m : *latencies)
      if (options.modelName.empty() || llvm::sys::path::filename(m.model) ==
                                           llvm::sys::path::filename(options.modelName))
        report.modelLatencies.push_back({device, std::move(m)});
  }
  for (const auto &[hash, weight] : options.modelTaskWeights)
    if (!seenModelTasks.count(hash))
      report.modelTasksWithoutRecords.push_back(hash);
  if (report.tasks.empty()) {
    if (!options.modelTaskWeights.empty())
      return makeError("'" + path + "' holds no measurements of the " +
                       llvm::Twine(options.modelTaskWeights.size()) + " tasks of " +
                       (options.modelName.empty() ? "the model" : options.modelName) +
                       " (were they tuned with other options or another dltune?)");
    return makeError("'" + path + "' holds no measurements: nothing to report");
  }
  return report;
}

std::vector<ModelLatencyPoint> mlir::dltune::getModelLatencyCurve(const TuningReport &report) {
  // Every record of every task in time order, each a possible improvement of
  // its task's term of the sum.
  struct Event {
    double at;
    size_t task;
    double ms;
  };
  std::vector<Event> events;
  std::vector<double> current(report.tasks.size(), NAN);
  for (size_t i = 0; i < report.tasks.size(); ++i) {
    const TaskReport &t = report.tasks[i];
    current[i] = t.firstMs;
    for (const MeasureRecord &r : t.records)
      events.push_back({r.createdAt, i, r.hasUsableTime() ? r.timeMs : NAN});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event &a, const Event &b) { return a.at < b.at; });
  auto sum = [&]() {
    double total = 0;
    for (size_t i = 0; i < current.size(); ++i) {
      if (std::isnan(current[i]))
        continue; // a task with no usable time at all adds nothing
      total += static_cast<double>(report.tasks[i].weight) * current[i];
    }
    return total;
  };
  std::vector<ModelLatencyPoint> curve;
  double start = std::isnan(report.firstRecordAt) ? 0 : report.firstRecordAt;
  curve.push_back({0, 0, sum()});
  int64_t n = 0;
  for (const Event &e : events) {
    ++n;
    if (!std::isnan(e.ms) && e.ms < current[e.task])
      current[e.task] = e.ms;
    curve.push_back({n, std::max(0.0, e.at - start), sum()});
  }
  return curve;
}
