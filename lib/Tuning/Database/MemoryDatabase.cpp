//===- MemoryDatabase.cpp - The tuning database in memory -----------------===//
//
// The `Database` contract without a file (MetaSchedule's memory_database):
// the same ids, order, first-record-stands dedup, forget into replaced
// records, claims with expiry and transactions as the SQLite file, and
// records read back as SQLite reads them (unstored fields cleared, NaN
// energy absent). A transaction copies the state and restores the copy
// when it fails. The contract tests (DatabaseContractTest.cpp) run every
// case against both.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace mlir::dltune;

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct StoredRecord {
  int64_t taskId, deviceId;
  MeasureRecord record;
};

struct StoredConfirmation {
  int64_t taskId, deviceId;
  Confirmation confirmation;
};

struct ReplacedRecord {
  int64_t taskId;
  MeasureRecord record;
  double replacedAt;
  std::string reason;
};

struct StoredNote {
  int64_t taskId, deviceId;
  TaskNote note;
};

struct Claim {
  std::string owner;
  double expiresAt;
};

using RecordKey = std::tuple<int64_t, int64_t, std::string>;

/// Everything the database holds; a transaction restores a copy of it.
struct State {
  std::vector<TaskRecord> tasks;     // id = index + 1: tasks are never deleted
  std::vector<DeviceRecord> devices; // likewise
  std::map<std::string, int64_t> taskIds, deviceIds;
  std::vector<StoredRecord> records; // in id order (a new id is above every other)
  std::set<RecordKey> recordKeys;    // (task, device, config) of `records`
  std::vector<StoredConfirmation> confirmations; // in id order
  std::vector<ReplacedRecord> replaced;           // in insertion order
  std::map<std::pair<int64_t, int64_t>, double> baselines;
  std::map<RecordKey, Claim> claims;
  std::vector<StoredNote> notes; // in insertion order
  std::vector<std::pair<int64_t, ModelLatency>> modelLatencies; // device, timing
  std::vector<Study> studies;                                     // id = index + 1
  std::map<std::pair<int64_t, std::string>, StudyWorker> studyWorkers; // (study, owner)
  // (study, device, position, interval) and (study, device, position).
  std::map<std::tuple<int64_t, int64_t, int64_t, int64_t>, StudyInterval> studyIntervals;
  std::map<std::tuple<int64_t, int64_t, int64_t>, StudyModelStop> studyModelStops;
};

class MemoryDatabase final : public Database {
public:
  int getSchemaVersion() const override { return kSchemaVersion; }

  llvm::Expected<int64_t> getOrCreateTask(const TaskRecord &task) override {
    auto [it, inserted] = state.taskIds.try_emplace(task.hash, state.tasks.size() + 1);
    if (inserted) {
      state.tasks.push_back(task);
      state.tasks.back().id = it->second;
    }
    return it->second;
  }

  llvm::Expected<std::optional<TaskRecord>> findTask(const std::string &hash) override {
    auto it = state.taskIds.find(hash);
    if (it == state.taskIds.end())
      return std::optional<TaskRecord>();
    return std::optional<TaskRecord>(state.tasks[it->second - 1]);
  }

  llvm::Expected<std::vector<TaskRecord>> listTasks() override { return state.tasks; }

  llvm::Expected<int64_t> getOrCreateDevice(const DeviceRecord &device) override {
    auto [it, inserted] =
        state.deviceIds.try_emplace(device.fingerprint, state.devices.size() + 1);
    if (inserted) {
      state.devices.push_back(device);
      state.devices.back().id = it->second;
    }
    return it->second;
  }

  llvm::Expected<std::vector<DeviceRecord>> listDevices() override { return state.devices; }

  llvm::Expected<bool> commitRecord(int64_t taskId, int64_t deviceId,
                                    const MeasureRecord &record) override {
    if (llvm::Error e = checkReferences(taskId, deviceId))
      return std::move(e);
    if (!state.recordKeys.insert({taskId, deviceId, record.config}).second)
      return false;
    MeasureRecord r = record;
    // What the file keeps of a record, and nothing else.
    r.anchorMs = r.anchorSlowdown = NAN;
    r.confirmed = false;
    if (r.energyJ && std::isnan(*r.energyJ))
      r.energyJ.reset();
    if (r.candidateEnergyJ && std::isnan(*r.candidateEnergyJ))
      r.candidateEnergyJ.reset();
    if (!(r.createdAt > 0))
      r.createdAt = now();
    state.records.push_back({taskId, deviceId, std::move(r)});
    return true;
  }

  llvm::Expected<std::vector<MeasureRecord>> getRecords(int64_t taskId,
                                                        int64_t deviceId) override {
    std::vector<MeasureRecord> out;
    for (const StoredRecord &s : state.records)
      if (s.taskId == taskId && onDevice(s.deviceId, deviceId))
        out.push_back(s.record);
    return out;
  }

  llvm::Expected<std::optional<MeasureRecord>> getBest(int64_t taskId,
                                                       int64_t deviceId) override {
    llvm::Expected<std::vector<Confirmation>> confirmed =
        getLatestConfirmations(taskId, deviceId);
    if (!confirmed)
      return confirmed.takeError();
    if (!confirmed->empty()) {
      const Confirmation &c = confirmed->front();
      MeasureRecord r;
      for (const StoredRecord &s : state.records)
        if (s.taskId == taskId && onDevice(s.deviceId, deviceId) &&
            s.record.config == c.config) {
          r = s.record;
          break;
        }
      return std::optional<MeasureRecord>(makeConfirmedBest(std::move(r), c));
    }
    const MeasureRecord *best = nullptr;
    for (const StoredRecord &s : state.records) {
      const MeasureRecord &r = s.record;
      if (s.taskId != taskId || !onDevice(s.deviceId, deviceId) || !competesUnconfirmed(r))
        continue;
      if (!best || getUnconfirmedRank(r) < getUnconfirmedRank(*best)) // ties: the lower id
        best = &r;
    }
    if (!best)
      return std::optional<MeasureRecord>();
    return std::optional<MeasureRecord>(*best);
  }

  llvm::Error commitConfirmations(int64_t taskId, int64_t deviceId,
                                  const std::vector<Confirmation> &confirmations) override {
    double created = now();
    return transaction([&]() -> llvm::Error {
      for (const Confirmation &c : confirmations) {
        if (llvm::Error e = checkReferences(taskId, deviceId))
          return e;
        StoredConfirmation s{taskId, deviceId, c};
        if (!(c.createdAt > 0))
          s.confirmation.createdAt = created;
        state.confirmations.push_back(std::move(s));
      }
      return llvm::Error::success();
    });
  }

  llvm::Expected<std::vector<Confirmation>> getLatestConfirmations(int64_t taskId,
                                                                  int64_t deviceId) override {
    // The latest run counts every candidate of it, timed or not.
    std::vector<Confirmation> all = *listConfirmations(taskId, deviceId);
    std::vector<Confirmation> out;
    if (all.empty())
      return out;
    double latest = all.back().createdAt;
    for (Confirmation &c : all)
      if (c.createdAt == latest && !std::isnan(c.medianMs))
        out.push_back(std::move(c));
    std::stable_sort(out.begin(), out.end(), [](const Confirmation &a, const Confirmation &b) {
      return a.medianMs < b.medianMs;
    });
    return out;
  }

  llvm::Expected<std::vector<Confirmation>> listConfirmations(int64_t taskId,
                                                              int64_t deviceId) override {
    std::vector<Confirmation> out;
    for (const StoredConfirmation &s : state.confirmations)
      if (s.taskId == taskId && onDevice(s.deviceId, deviceId))
        out.push_back(s.confirmation);
    // Runs in time order; a run's candidates in commit order.
    std::stable_sort(out.begin(), out.end(), [](const Confirmation &a, const Confirmation &b) {
      return a.createdAt < b.createdAt;
    });
    return out;
  }

  llvm::Expected<int64_t> forget(const ForgetFilter &f, const std::string &reason) override {
    int64_t hashTask = -1; // no task has this id: an unknown hash selects nothing
    if (!f.taskHash.empty())
      if (auto it = state.taskIds.find(f.taskHash); it != state.taskIds.end())
        hashTask = it->second;
    double cutoff = now() - f.olderThanSeconds;
    auto selected = [&](const StoredRecord &s) {
      const MeasureRecord &r = s.record;
      if (!f.taskHash.empty() && s.taskId != hashTask)
        return false;
      if (!f.status.empty() && toString(r.status) != f.status)
        return false;
      if (f.olderThanSeconds > 0 && !(r.createdAt < cutoff))
        return false;
      if (f.deviceId && s.deviceId != f.deviceId)
        return false;
      return f.errorContains.empty() ||
             llvm::any_of(f.errorContains, [&](const std::string &text) {
               return r.error.find(text) != std::string::npos;
             });
    };
    int64_t moved = 0;
    llvm::Error e = transaction([&]() -> llvm::Error {
      double replacedAt = now();
      std::set<std::pair<int64_t, int64_t>> pairs; // (task, device) losing records
      std::vector<StoredRecord> kept;
      for (StoredRecord &s : state.records) {
        if (!selected(s)) {
          kept.push_back(std::move(s));
          continue;
        }
        pairs.insert({s.taskId, s.deviceId});
        state.recordKeys.erase({s.taskId, s.deviceId, s.record.config});
        state.replaced.push_back({s.taskId, std::move(s.record), replacedAt, reason});
        ++moved;
      }
      state.records = std::move(kept);
      // A confirmation ranks records that are gone: drop it with them.
      llvm::erase_if(state.confirmations, [&](const StoredConfirmation &c) {
        return pairs.count({c.taskId, c.deviceId}) > 0;
      });
      return llvm::Error::success();
    });
    if (e)
      return std::move(e);
    return moved;
  }

  llvm::Expected<std::vector<MeasureRecord>> getReplacedRecords(int64_t taskId) override {
    std::vector<const ReplacedRecord *> selected;
    for (const ReplacedRecord &r : state.replaced)
      if (r.taskId == taskId)
        selected.push_back(&r);
    std::stable_sort(selected.begin(), selected.end(),
                     [](const ReplacedRecord *a, const ReplacedRecord *b) {
                       return a->replacedAt < b->replacedAt;
                     });
    std::vector<MeasureRecord> out;
    for (const ReplacedRecord *r : selected)
      out.push_back(r->record);
    return out;
  }

  llvm::Error setBaseline(int64_t taskId, int64_t deviceId, double untunedMs) override {
    if (llvm::Error e = checkReferences(taskId, deviceId))
      return e;
    state.baselines[{taskId, deviceId}] = untunedMs;
    return llvm::Error::success();
  }

  llvm::Expected<std::optional<double>> getBaseline(int64_t taskId,
                                                    int64_t deviceId) override {
    auto it = state.baselines.find({taskId, deviceId});
    if (it == state.baselines.end())
      return std::optional<double>();
    return std::optional<double>(it->second);
  }

  llvm::Expected<std::vector<ClaimOutcome>> claim(int64_t taskId, int64_t deviceId,
                                                  const std::vector<std::string> &configs,
                                                  const std::string &owner,
                                                  double leaseSeconds) override {
    std::vector<ClaimOutcome> out;
    llvm::Error e = transaction([&]() -> llvm::Error {
      double t = now();
      for (const std::string &config : configs) {
        RecordKey key{taskId, deviceId, config};
        if (state.recordKeys.count(key)) {
          out.push_back(ClaimOutcome::Measured);
          continue;
        }
        auto it = state.claims.find(key);
        if (it == state.claims.end()) {
          if (llvm::Error e = checkReferences(taskId, deviceId))
            return e;
          state.claims.emplace(key, Claim{owner, t + leaseSeconds});
          out.push_back(ClaimOutcome::Claimed);
        } else if (it->second.owner == owner || it->second.expiresAt <= t) {
          // Our own claim is renewed; an expired one is taken over.
          it->second = Claim{owner, t + leaseSeconds};
          out.push_back(ClaimOutcome::Claimed);
        } else {
          out.push_back(ClaimOutcome::Taken);
        }
      }
      return llvm::Error::success();
    });
    if (e)
      return std::move(e);
    return out;
  }

  llvm::Error releaseClaims(const std::string &owner) override {
    for (auto it = state.claims.begin(); it != state.claims.end();)
      it = it->second.owner == owner ? state.claims.erase(it) : std::next(it);
    return llvm::Error::success();
  }

  llvm::Error addTaskNote(int64_t taskId, int64_t deviceId, const TaskNote &note) override {
    if (llvm::Error e = checkReferences(taskId, deviceId))
      return e;
    StoredNote stored{taskId, deviceId, note};
    if (!(stored.note.createdAt > 0))
      stored.note.createdAt = now();
    state.notes.push_back(std::move(stored));
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<TaskNote>> listTaskNotes(int64_t taskId,
                                                      int64_t deviceId) override {
    std::vector<TaskNote> out;
    for (const StoredNote &n : state.notes)
      if (n.taskId == taskId && n.deviceId == deviceId)
        out.push_back(n.note);
    std::stable_sort(out.begin(), out.end(), [](const TaskNote &a, const TaskNote &b) {
      return a.createdAt < b.createdAt;
    });
    return out;
  }

  llvm::Error addModelLatency(int64_t deviceId, const ModelLatency &latency) override {
    if (deviceId < 1 || deviceId > static_cast<int64_t>(state.devices.size()))
      return makeError("database: FOREIGN KEY constraint failed");
    ModelLatency stored = latency;
    if (!(stored.createdAt > 0))
      stored.createdAt = now();
    state.modelLatencies.push_back({deviceId, std::move(stored)});
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<ModelLatency>> listModelLatencies(int64_t deviceId) override {
    std::vector<ModelLatency> out;
    for (const auto &[device, latency] : state.modelLatencies)
      if (device == deviceId)
        out.push_back(latency);
    std::stable_sort(out.begin(), out.end(), [](const ModelLatency &a, const ModelLatency &b) {
      return a.createdAt < b.createdAt;
    });
    return out;
  }

  llvm::Expected<int64_t> createStudy(const Study &study) override {
    for (const Study &s : state.studies)
      if (s.name == study.name)
        return makeError("a study named '" + study.name + "' exists already");
    if (llvm::Error e = checkNewStudy(study))
      return std::move(e);
    Study stored = study;
    stored.id = static_cast<int64_t>(state.studies.size()) + 1;
    if (!(stored.createdAt > 0))
      stored.createdAt = now();
    state.studies.push_back(std::move(stored));
    return state.studies.back().id;
  }

  llvm::Expected<std::optional<Study>> findStudy(const std::string &name) override {
    for (const Study &s : state.studies)
      if (s.name == name)
        return s;
    return std::nullopt;
  }

  llvm::Expected<std::vector<Study>> listStudies() override { return state.studies; }

  llvm::Error updateStudyWorker(int64_t studyId, const StudyWorker &worker) override {
    if (studyId < 1 || studyId > static_cast<int64_t>(state.studies.size()))
      return makeError("database: FOREIGN KEY constraint failed");
    double t = now();
    auto [it, inserted] = state.studyWorkers.try_emplace({studyId, worker.owner}, worker);
    double started = inserted ? (worker.startedAt > 0 ? worker.startedAt : t)
                              : it->second.startedAt;
    it->second = worker;
    it->second.startedAt = started;
    it->second.updatedAt = worker.updatedAt > 0 ? worker.updatedAt : t;
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<StudyWorker>> listStudyWorkers(int64_t studyId) override {
    std::vector<StudyWorker> out;
    for (const auto &[key, worker] : state.studyWorkers)
      if (key.first == studyId)
        out.push_back(worker);
    std::stable_sort(out.begin(), out.end(), [](const StudyWorker &a, const StudyWorker &b) {
      return a.startedAt < b.startedAt;
    });
    return out;
  }

  llvm::Expected<bool> addStudyInterval(int64_t studyId, int64_t deviceId,
                                        const StudyInterval &interval) override {
    if (llvm::Error e = checkStudyAndDevice(studyId, deviceId))
      return std::move(e);
    StudyInterval stored = interval;
    if (!(stored.createdAt > 0))
      stored.createdAt = now();
    return state.studyIntervals
        .try_emplace({studyId, deviceId, interval.position, interval.interval}, stored)
        .second;
  }

  llvm::Expected<std::vector<StudyInterval>> listStudyIntervals(int64_t studyId,
                                                                int64_t deviceId) override {
    std::vector<StudyInterval> out;
    for (const auto &[key, interval] : state.studyIntervals)
      if (std::get<0>(key) == studyId && std::get<1>(key) == deviceId)
        out.push_back(interval);
    return out; // the key orders them by position, then interval
  }

  llvm::Expected<bool> stopStudyModel(int64_t studyId, int64_t deviceId,
                                      const StudyModelStop &stop) override {
    if (llvm::Error e = checkStudyModelStop(stop))
      return std::move(e);
    if (llvm::Error e = checkStudyAndDevice(studyId, deviceId))
      return std::move(e);
    for (const auto &[key, other] : state.studyModelStops)
      if (std::get<0>(key) == studyId && std::get<1>(key) == deviceId &&
          (other.position == stop.position ||
           (stop.state == "suspended" && other.state == "suspended" &&
            other.interval == stop.interval)))
        return false;
    StudyModelStop stored = stop;
    if (!(stored.createdAt > 0))
      stored.createdAt = now();
    state.studyModelStops.emplace(std::make_tuple(studyId, deviceId, stop.position), stored);
    return true;
  }

  llvm::Expected<std::vector<StudyModelStop>> listStudyModelStops(int64_t studyId,
                                                                  int64_t deviceId) override {
    std::vector<StudyModelStop> out;
    for (const auto &[key, stop] : state.studyModelStops)
      if (std::get<0>(key) == studyId && std::get<1>(key) == deviceId)
        out.push_back(stop);
    return out;
  }

  llvm::Error transaction(const std::function<llvm::Error()> &fn) override {
    if (transactionDepth > 0)
      return fn();
    State saved = state;
    ++transactionDepth;
    llvm::Error result = fn();
    --transactionDepth;
    if (result)
      state = std::move(saved);
    return result;
  }

private:
  /// The foreign keys of the SQL tables.
  llvm::Error checkStudyAndDevice(int64_t studyId, int64_t deviceId) const {
    if (studyId < 1 || studyId > static_cast<int64_t>(state.studies.size()) || deviceId < 1 ||
        deviceId > static_cast<int64_t>(state.devices.size()))
      return makeError("database: FOREIGN KEY constraint failed");
    return llvm::Error::success();
  }

  /// Device 0 in a query: every device.
  static bool onDevice(int64_t stored, int64_t wanted) {
    return wanted == 0 || stored == wanted;
  }
  /// The file's foreign keys: rows name an existing task and device.
  llvm::Error checkReferences(int64_t taskId, int64_t deviceId) const {
    auto exists = [](int64_t id, size_t count) {
      return id >= 1 && static_cast<uint64_t>(id) <= count;
    };
    if (exists(taskId, state.tasks.size()) && exists(deviceId, state.devices.size()))
      return llvm::Error::success();
    return makeError("database: FOREIGN KEY constraint failed");
  }

  State state;
  int transactionDepth = 0;
};

} // namespace

std::unique_ptr<Database> mlir::dltune::createMemoryDatabase() {
  return std::make_unique<MemoryDatabase>();
}
