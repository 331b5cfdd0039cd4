//===- TuningReport.h - What a tuning database says, gathered for a report -*- C++ -*-===//
//
// `dltune report` reads a database into a TuningReport (this file) and renders
// it as one HTML page (HtmlReport.h). Everything here is derived from the
// database alone: records, untuned baselines, confirmations and the notes the
// tuner kept; nothing is re-measured.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_REPORT_TUNINGREPORT_H
#define DLTUNE_TUNING_REPORT_TUNINGREPORT_H

#include "dltune/Tuning/Cost/TuningCost.h"
#include "dltune/Tuning/Database/Database.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::dltune {

/// One task measured on one device.
struct TaskReport {
  TaskRecord task;
  DeviceRecord device;
  /// The task's records on the device, oldest first.
  std::vector<MeasureRecord> records;
  /// Per record: slower than cold-factor times the best before it
  /// (labelColdByRunningBest, as `dltune db cost`).
  std::vector<bool> cold;
  /// Per record: it set a new best when it was measured.
  std::vector<bool> improved;
  std::optional<double> untunedMs;
  /// The first usable measurement: dltune tune measures the task's default
  /// configuration first.
  double firstMs = NAN;
  std::string firstConfig;
  /// The best usable time measured while tuning (records of every source;
  /// confirmations, timed in fresh processes, are in `best` instead).
  double bestMs = NAN;
  /// Database::getBest: the confirmed best where one was confirmed.
  std::optional<MeasureRecord> best;
  /// The latest confirmation run's candidates.
  std::vector<Confirmation> confirmations;
  TaskCost cost;
  /// Build and run seconds of measured candidates that never improved the
  /// task's best when they were measured.
  double neverImprovedSeconds = 0;
  std::map<std::string, int64_t> failuresByClass;
  std::vector<TaskNote> notes;
  /// Occurrences of the task in the model (1 without a model).
  int64_t weight = 1;

  /// "op shapes", how tables name the task.
  std::string getName() const;
};

struct TuningReport {
  std::string databasePath;
  int schemaVersion = 0;
  std::vector<DeviceRecord> devices;
  /// Tasks with at least one record, in the database's order.
  std::vector<TaskReport> tasks;
  double firstRecordAt = NAN, lastRecordAt = NAN;
  int64_t recordCount = 0;
  /// The generators (dltune/LLVM/schedule versions) of the records.
  std::map<std::string, int64_t> generators;
  TuningCostOptions costOptions;
  /// Set when the report was restricted to a model: its name and the
  /// model's tasks that have no records.
  std::string modelName;
  std::vector<std::string> modelTasksWithoutRecords;
  /// End-to-end timings of tuned models and the device of each (of the
  /// model only, matched by file name, when the report is restricted to one).
  std::vector<std::pair<DeviceRecord, ModelLatency>> modelLatencies;
};

struct TuningReportOptions {
  TuningCostOptions cost;
  /// Occurrences per task hash. When not empty, only these tasks are
  /// reported, weighted by their count.
  std::map<std::string, int64_t> modelTaskWeights;
  std::string modelName;
};

/// Reads the database into a report; fails with a message when it holds no
/// records (or none of the model's tasks).
llvm::Expected<TuningReport> collectTuningReport(Database &db, const std::string &path,
                                                 const TuningReportOptions &options = {});

/// A point of the model's latency over its tuning: after the index-th
/// measurement (1-based; 0 = before any) at `seconds` since the first record,
/// the sum over tasks of weight x best so far (a task's first measurement
/// stands for it until then).
struct ModelLatencyPoint {
  int64_t measurements = 0;
  double seconds = 0;
  double latencyMs = NAN;
};
std::vector<ModelLatencyPoint> getModelLatencyCurve(const TuningReport &report);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_REPORT_TUNINGREPORT_H
