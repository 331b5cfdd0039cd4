//===- StudySuspension.cpp - Trimmer's suspension across a live study -----===//

#include "dltune/Tuning/TaskScheduler/StudySuspension.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir::dltune;

llvm::Expected<StudyModelLatency>
mlir::dltune::readStudyModelLatency(Database &db, const StudyModel &model, int64_t deviceId) {
  StudyModelLatency out;
  double best = 0, untuned = 0;
  bool allBest = true, allUntuned = true;
  for (const auto &[hash, occurrences] : model.tasks) {
    llvm::Expected<std::optional<TaskRecord>> task = db.findTask(hash);
    if (!task)
      return task.takeError();
    if (!*task) {
      allBest = allUntuned = false;
      continue;
    }
    llvm::Expected<std::vector<MeasureRecord>> records = db.getRecords((*task)->id, deviceId);
    if (!records)
      return records.takeError();
    out.measured += static_cast<int64_t>(records->size());
    // The records' best by the unconfirmed rule, not getBest: the intervals
    // measure without confirming, and a confirmation from before them would
    // hide what they found.
    if (std::optional<size_t> b = Database::findUnconfirmedBest(*records))
      best += occurrences * (*records)[*b].timeMs;
    else
      allBest = false;
    llvm::Expected<std::optional<double>> u = db.getBaseline((*task)->id, deviceId);
    if (!u)
      return u.takeError();
    if (*u)
      untuned += occurrences * **u;
    else
      allUntuned = false;
  }
  if (allBest)
    out.latencyMs = best;
  if (allUntuned)
    out.untunedMs = untuned;
  return out;
}

std::vector<StudyModelIntervals>
mlir::dltune::collectStudyIntervals(llvm::ArrayRef<StudyInterval> intervals,
                                    llvm::ArrayRef<StudyModelStop> stops, size_t modelCount) {
  std::vector<StudyModelIntervals> models(modelCount);
  std::vector<StudyInterval> sorted(intervals.begin(), intervals.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const StudyInterval &a, const StudyInterval &b) {
    return std::tie(a.position, a.interval) < std::tie(b.position, b.interval);
  });
  for (const StudyInterval &i : sorted) {
    if (i.position < 0 || static_cast<size_t>(i.position) >= modelCount)
      continue;
    StudyModelIntervals &m = models[i.position];
    // Only the intervals kept without a gap from 0 count: a worker writes
    // interval k after reading k - 1, so a gap is a row from elsewhere.
    if (static_cast<int64_t>(m.latencies.size()) != i.interval)
      continue;
    m.latencies.push_back(i.latencyMs);
    m.measured.push_back(i.measured);
  }
  for (const StudyModelStop &s : stops)
    if (s.position >= 0 && static_cast<size_t>(s.position) < modelCount)
      models[s.position].stop = s;
  return models;
}

std::vector<StudyModelStop>
mlir::dltune::decideStudySuspensions(llvm::ArrayRef<StudyModelIntervals> models,
                                     const ModelSuspensionOptions &options) {
  std::vector<StudyModelStop> decided;
  std::vector<std::optional<StudyModelStop>> stops;
  int64_t last = 0;
  for (const StudyModelIntervals &m : models) {
    stops.push_back(m.stop);
    last = std::max(last, m.getCompletedIntervals());
  }
  for (int64_t s = 1; s <= last; ++s) {
    bool ready = true, suspendedHere = false;
    for (size_t i = 0; i < models.size(); ++i) {
      if (!stops[i] && models[i].getCompletedIntervals() < s)
        ready = false;
      if (stops[i] && stops[i]->state == "suspended" && stops[i]->interval == s)
        suspendedHere = true;
    }
    if (!ready)
      break;
    if (suspendedHere)
      continue;
    // Who took part in synchronisation s: completed it, and not stopped
    // before it; a model done at s is not suspended at s.
    std::vector<IntervalLatencies> upToS;
    llvm::SmallVector<bool> active; // ArrayRef cannot view a vector<bool>
    for (size_t i = 0; i < models.size(); ++i) {
      const StudyModelIntervals &m = models[i];
      // A model without a latency yet (a task with no usable record) cannot
      // be judged: it takes no part, rather than counting as a plateau.
      bool tookPart = m.getCompletedIntervals() >= s && std::isfinite(m.latencies[s]) &&
                      (!stops[i] || stops[i]->interval > s ||
                       (stops[i]->interval == s && stops[i]->state == "suspended"));
      active.push_back(tookPart);
      upToS.emplace_back(m.latencies.begin(),
                         m.latencies.begin() + std::min<size_t>(m.latencies.size(), s + 1));
    }
    std::optional<size_t> chosen = chooseModelToSuspend(upToS, active, options);
    // A model stopped later (its row written by a worker that had not seen
    // this synchronisation yet) keeps its row: the database would refuse.
    if (!chosen || stops[*chosen])
      continue;
    double improvement = *lastIntervalImprovement(upToS[*chosen]);
    StudyModelStop stop;
    stop.position = static_cast<int64_t>(*chosen);
    stop.state = "suspended";
    stop.interval = s;
    stop.reason = llvm::formatv("plateau: each of its last {0} intervals reduced its latency by "
                                "less than {1}%, the last by {2}%, the least of the models "
                                "at synchronisation {3}",
                                options.plateauIntervals, options.minImprovement * 100,
                                llvm::formatv("{0:f2}", improvement * 100).str(), s)
                      .str();
    stops[*chosen] = stop;
    decided.push_back(std::move(stop));
  }
  return decided;
}

std::optional<size_t> mlir::dltune::pickNextStudyModel(llvm::ArrayRef<StudyModelIntervals> models,
                                                       llvm::ArrayRef<int> busyWorkers) {
  std::optional<size_t> best;
  auto key = [&](size_t i) {
    return std::make_pair(models[i].getCompletedIntervals(),
                          i < busyWorkers.size() ? busyWorkers[i] : 0);
  };
  for (size_t i = 0; i < models.size(); ++i)
    if (!models[i].stop && (!best || key(i) < key(*best)))
      best = i;
  return best;
}
