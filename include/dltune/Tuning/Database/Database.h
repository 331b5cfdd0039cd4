//===- Database.h - The tuning database interface ---------------*- C++ -*-===//
//
// Every measurement is committed as soon as it finishes, so a killed tuner
// loses at most the candidate in flight. The interface and its records;
// the SQLite file is SqliteDatabase.h, the in-memory store
// MemoryDatabase.cpp. Format: docs/database.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_DATABASE_DATABASE_H
#define DLTUNE_TUNING_DATABASE_DATABASE_H

#include "dltune/Tuning/MeasureCallback/MeasureResult.h"

#include "llvm/Support/Error.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::dltune {

/// What identifies a task in the database (its hash) and what describes it.
struct TaskRecord {
  int64_t id = 0;
  std::string hash;        // stable hash of the task descriptor, hex
  std::string opKind;      // "linalg.matmul", "convolution_kernel", "conv2d_NCHWc.x86"
  std::string target;      // "cpu", "gpu", or the recorded target string
  std::string shapes;      // "512x512;512x512;512x512"
  std::string elementTypes;
  std::string space;       // canonical space text (may be empty for imports)
  std::string source = "dltune"; // dltune | autotvm | kernel_tuner
};

struct DeviceRecord {
  int64_t id = 0;
  std::string fingerprint; // stable hash of the JSON
  std::string name;
  std::string json;
};

/// One candidate's re-measurement at the end of a task: `rounds` fresh
/// processes, interleaved with the other top candidates.
struct Confirmation {
  std::string config;
  int rounds = 0;
  double medianMs = NAN;         // median of the per-process medians
  double minMs = NAN, maxMs = NAN; // spread of the per-process medians
  std::string generator;
  double createdAt = 0; // one value per confirmation run (all its candidates)
};

/// Which records `Database::forget` moves out of the way.
struct ForgetFilter {
  std::string taskHash;           // "" = every task
  std::string status;             // "" = every status
  double olderThanSeconds = 0;    // 0 = any age
  int64_t deviceId = 0;           // 0 = every device
  /// Only records whose error text contains one of these (none: any).
  std::vector<std::string> errorContains;
};

/// What `Database::claim` found for one configuration.
/// What the tuner said about a task on a device while tuning it (the
/// history its transfer used, the negative-transfer guard's decisions,
/// warnings, why it could not be tuned), kept for reports.
struct TaskNote {
  std::string kind;    // "note", "warning" or "failed"
  std::string message;
  double createdAt = 0; // seconds since the epoch; 0 = now on commit
};

/// A whole model timed end to end after tuning (`dltune tune --entry`):
/// with dltune's default configurations and with the tuned ones.
struct ModelLatency {
  std::string model; // the file that was tuned, as given
  std::string entry; // its entry function
  double defaultMs = NAN, tunedMs = NAN;
  /// The tuned model's output matched the untuned lowering's.
  bool checked = false;
  double createdAt = 0; // seconds since the epoch; 0 = now on commit
};

/// One model of a study: its MLIR text (as registered, before annotation)
/// and its tuning tasks (hash -> occurrences, annotated as the workers
/// annotate it), so that `dltune study status` needs no compiler.
struct StudyModel {
  std::string name;   // the file it was registered from
  std::string module; // MLIR text
  std::vector<std::pair<std::string, int64_t>> tasks;
};

/// A tuning study (issue 34): models and tuner options registered once in
/// a shared database, which any number of workers (`dltune tune --study`)
/// on any machines tune together.
struct Study {
  int64_t id = 0;
  std::string name;
  std::string options; // the tuner options every worker uses, a JSON object
  std::vector<StudyModel> models; // in registration order
  double createdAt = 0; // seconds since the epoch; 0 = now on commit
};

/// What a worker of a study last said about itself.
struct StudyWorker {
  std::string owner;  // host:pid:random, as its claims
  int64_t deviceId = 0;
  std::string state;  // "tuning", "finished", "failed"
  std::string model;  // the model it is tuning (or finished last)
  double startedAt = 0, updatedAt = 0; // 0 = now on commit
  std::string message; // why it failed
};

/// A study model's latency on a device after its `interval`-th interval of
/// measurements (0: its untuned latency), as the first worker to finish
/// that interval saw it (schema 7; Trimmer's suspension in live studies,
/// docs/distributed.md).
struct StudyInterval {
  int64_t position = 0; // the model's place in the study
  int64_t interval = 0;
  double latencyMs = NAN; // NaN while a task has no best yet
  int64_t measured = 0;   // the model's records on the device then
  double createdAt = 0;   // 0 = now on commit
};

/// Why a study model is tuned no more on a device (schema 7): `suspended`
/// by Trimmer's rule at the synchronisation after interval `interval`, or
/// `done` (its budget spent, its goal reached, nothing left to measure).
/// Final: a stopped model is never resumed.
struct StudyModelStop {
  int64_t position = 0;
  std::string state; // "suspended" or "done"
  int64_t interval = 0;
  std::string reason;
  double createdAt = 0; // 0 = now on commit
};

enum class ClaimOutcome {
  Claimed,  // this owner may measure it (the claim is held until it expires)
  Measured, // a record exists already (another process measured it)
  Taken,    // another owner holds an unexpired claim: it is being measured
};

/// The tuning database: what the tuner, the `dltune db` commands and
/// transfer learning read and write (MetaSchedule's `Database`). Two
/// implementations keep one contract (docs/database.md): the SQLite file
/// (`open`, SqliteDatabase.h) and a store in this process's memory
/// (`createMemoryDatabase`). Ids start at 1 in creation order; lists come
/// in id order; a (task, device, config) has at most one record.
class Database {
public:
  /// The version of the record format (tables and their meaning) the
  /// database holds once open: SQLite's `user_version`.
  static constexpr int kSchemaVersion = 8;

  virtual ~Database();

  /// Opens the SQLite file `path` (creating it when `create`) and migrates
  /// it to kSchemaVersion. Fails without writing on a file that is not
  /// SQLite, is another program's SQLite database, comes from a newer
  /// dltune or has a damaged version, and on paths that would keep nothing
  /// (empty, ":memory:", "file:" URIs). Creation and migration are one
  /// IMMEDIATE transaction, so processes opening one new file at once
  /// create the schema once.
  static llvm::Expected<std::unique_ptr<Database>> open(const std::string &path,
                                                        bool create = true);

  /// Opens an existing database for reading only (another machine's, given
  /// as transfer history): nothing is written to the file, not even a
  /// migration or a journal mode, so a database of an older schema is
  /// refused with the command that migrates it; writes fail.
  static llvm::Expected<std::unique_ptr<Database>> openReadOnly(const std::string &path);

  /// An SQLite database that lives in this process's memory only (tests,
  /// fuzzers): the one way to get one; `open` refuses ":memory:" from users.
  static llvm::Expected<std::unique_ptr<Database>> openInMemory();

  /// Why `path` cannot hold a database (empty, in memory, a URI, a
  /// directory), before anything is opened.
  static llvm::Error checkPath(const std::string &path);

  /// The format version of what this database holds (kSchemaVersion once
  /// open: older files are migrated by `open`).
  virtual int getSchemaVersion() const = 0;

  /// The id of the task with `task.hash`, created when new (an existing
  /// task keeps its fields).
  virtual llvm::Expected<int64_t> getOrCreateTask(const TaskRecord &task) = 0;
  virtual llvm::Expected<std::optional<TaskRecord>> findTask(const std::string &hash) = 0;
  virtual llvm::Expected<std::vector<TaskRecord>> listTasks() = 0;

  /// The id of the device with `device.fingerprint`, created when new.
  virtual llvm::Expected<int64_t> getOrCreateDevice(const DeviceRecord &device) = 0;
  virtual llvm::Expected<std::vector<DeviceRecord>> listDevices() = 0;

  /// Commits one record (its own transaction). A record for a config the
  /// (task, device) pair already has is ignored: the first one stands.
  /// Returns whether it was inserted; an unknown task or device is an error.
  virtual llvm::Expected<bool> commitRecord(int64_t taskId, int64_t deviceId,
                                            const MeasureRecord &record) = 0;
  /// All records of a task, on one device or (deviceId 0) on all.
  virtual llvm::Expected<std::vector<MeasureRecord>> getRecords(int64_t taskId,
                                                                int64_t deviceId = 0) = 0;
  /// The best configuration of a task on a device (or any device): the
  /// fastest of its latest confirmation if it has one, else the fastest ok
  /// record that is not cut off, a noisy one ranked by its slowest repeat
  /// (getUnconfirmedRank). A confirmed best carries the confirmed median
  /// and spread.
  virtual llvm::Expected<std::optional<MeasureRecord>> getBest(int64_t taskId,
                                                               int64_t deviceId = 0) = 0;

  /// Commits the candidates of one confirmation run (one transaction).
  virtual llvm::Error commitConfirmations(int64_t taskId, int64_t deviceId,
                                          const std::vector<Confirmation> &confirmations) = 0;
  /// The candidates of the latest confirmation run, fastest first.
  virtual llvm::Expected<std::vector<Confirmation>>
  getLatestConfirmations(int64_t taskId, int64_t deviceId) = 0;
  /// Every confirmation of a task on a device (or, deviceId 0, on all),
  /// untimed candidates included, oldest run first and in commit order
  /// within a run: what an export writes.
  virtual llvm::Expected<std::vector<Confirmation>> listConfirmations(int64_t taskId,
                                                                      int64_t deviceId) = 0;

  /// Moves the records `filter` selects (and the confirmations of their
  /// tasks) into `replaced_records` with `reason`, so they can be measured
  /// again; nothing is deleted. Returns how many records moved.
  virtual llvm::Expected<int64_t> forget(const ForgetFilter &filter,
                                         const std::string &reason) = 0;
  /// Records moved out by `forget`, oldest first.
  virtual llvm::Expected<std::vector<MeasureRecord>> getReplacedRecords(int64_t taskId) = 0;

  /// Untuned (reference) time of a task on a device.
  virtual llvm::Error setBaseline(int64_t taskId, int64_t deviceId, double untunedMs) = 0;
  virtual llvm::Expected<std::optional<double>> getBaseline(int64_t taskId,
                                                            int64_t deviceId) = 0;

  /// Claims `configs` of a task on a device for `owner` for `leaseSeconds`
  /// (one transaction): processes sharing the database split the work
  /// instead of measuring the same configurations. An expired claim (its
  /// owner was killed) is taken over.
  virtual llvm::Expected<std::vector<ClaimOutcome>>
  claim(int64_t taskId, int64_t deviceId, const std::vector<std::string> &configs,
        const std::string &owner, double leaseSeconds) = 0;
  /// Drops every claim of `owner` (its run is over).
  virtual llvm::Error releaseClaims(const std::string &owner) = 0;

  /// Keeps a note of the tuner about a task on a device.
  virtual llvm::Error addTaskNote(int64_t taskId, int64_t deviceId, const TaskNote &note) = 0;
  /// The notes of a task on a device, oldest first.
  virtual llvm::Expected<std::vector<TaskNote>> listTaskNotes(int64_t taskId,
                                                              int64_t deviceId) = 0;

  /// Keeps an end-to-end timing of a model on a device.
  virtual llvm::Error addModelLatency(int64_t deviceId, const ModelLatency &latency) = 0;
  /// The end-to-end timings on a device, oldest first.
  virtual llvm::Expected<std::vector<ModelLatency>> listModelLatencies(int64_t deviceId) = 0;

  /// Registers a study; an error when one of that name exists.
  virtual llvm::Expected<int64_t> createStudy(const Study &study) = 0;
  /// The study named `name`, with its models.
  virtual llvm::Expected<std::optional<Study>> findStudy(const std::string &name) = 0;
  /// Every study with its models, oldest first.
  virtual llvm::Expected<std::vector<Study>> listStudies() = 0;
  /// Keeps what a worker says about itself (one row per owner and study,
  /// replaced; startedAt is kept from the first).
  virtual llvm::Error updateStudyWorker(int64_t studyId, const StudyWorker &worker) = 0;
  /// The workers of a study, first started first.
  virtual llvm::Expected<std::vector<StudyWorker>> listStudyWorkers(int64_t studyId) = 0;
  /// Keeps a model's latency after an interval unless that interval of the
  /// model on the device is kept already: the first worker's figure stands
  /// (workers finishing one interval at once agree on one history). True
  /// when this call stored it.
  virtual llvm::Expected<bool> addStudyInterval(int64_t studyId, int64_t deviceId,
                                                const StudyInterval &interval) = 0;
  /// The intervals of every model of a study on a device, by position,
  /// then interval.
  virtual llvm::Expected<std::vector<StudyInterval>> listStudyIntervals(int64_t studyId,
                                                                        int64_t deviceId) = 0;
  /// Stops a model on a device unless it is stopped already, or, for
  /// `suspended`, another model of the study on the device was suspended at
  /// the same interval (one suspension per synchronisation, whichever
  /// worker decides it). True when this call stored it.
  virtual llvm::Expected<bool> stopStudyModel(int64_t studyId, int64_t deviceId,
                                              const StudyModelStop &stop) = 0;
  /// The stopped models of a study on a device, by position.
  virtual llvm::Expected<std::vector<StudyModelStop>> listStudyModelStops(int64_t studyId,
                                                                          int64_t deviceId) = 0;

  /// Runs `fn` inside one transaction (bulk imports): an error from `fn`
  /// undoes everything it wrote. Nested calls join the outer transaction.
  virtual llvm::Error transaction(const std::function<llvm::Error()> &fn) = 0;

  /// What an unconfirmed record competes with for the best: its median,
  /// or, when it is noisy, its slowest timed repeat (infinity without one).
  /// The fastest of many noisy medians is biased low, so a noisy record
  /// wins only when even its slowest repeat beats the others; excluding
  /// noisy records instead lets a clean record ten times slower than a
  /// noisy default win (docs/database.md).
  static double getUnconfirmedRank(const MeasureRecord &r) {
    if (!r.noisy)
      return r.timeMs;
    return r.maxMs >= r.timeMs ? r.maxMs : INFINITY;
  }
  /// Whether `r` competes for the unconfirmed best at all: ok, a positive
  /// time, not cut off, a finite rank.
  static bool competesUnconfirmed(const MeasureRecord &r) {
    return r.isOk() && r.timeMs > 0 && !r.cutOff && std::isfinite(getUnconfirmedRank(r));
  }
  /// The index of the unconfirmed best among `records`: the lowest rank of
  /// those that compete, the first on a tie; nullopt when none competes.
  static std::optional<size_t> findUnconfirmedBest(const std::vector<MeasureRecord> &records) {
    std::optional<size_t> best;
    for (size_t i = 0; i < records.size(); ++i)
      if (competesUnconfirmed(records[i]) &&
          (!best || getUnconfirmedRank(records[i]) < getUnconfirmedRank(records[*best])))
        best = i;
    return best;
  }
  /// The same as SQL: the WHERE condition and ORDER BY clause (with LIMIT 1)
  /// that pick the lowest rank among `records` rows.
  static constexpr const char *kUnconfirmedBestRank =
      "(coalesce(noisy, 0) = 0 OR max_ms >= time_ms) ORDER BY CASE WHEN coalesce(noisy, 0) = 0 "
      "THEN time_ms ELSE max_ms END ASC, id ASC LIMIT 1";

protected:
  /// A study model's tasks as stored ("hash occurrences" lines) and back.
  static std::string encodeStudyTasks(const std::vector<std::pair<std::string, int64_t>> &tasks);
  static llvm::Expected<std::vector<std::pair<std::string, int64_t>>>
  decodeStudyTasks(const std::string &text);
  /// What every createStudy refuses before writing: a model named twice, a
  /// task hash that is empty or holds a blank or line break (the stored
  /// lines could not hold it), an occurrence count below 1.
  static llvm::Error checkNewStudy(const Study &study);
  /// What stopStudyModel refuses before writing: a state other than
  /// `suspended` or `done`, a negative position or interval.
  static llvm::Error checkStudyModelStop(const StudyModelStop &stop);

  /// What getBest returns for the fastest candidate `c` of the latest
  /// confirmation: its first stored record (or an empty one) with the
  /// confirmed figures.
  static MeasureRecord makeConfirmedBest(MeasureRecord stored, const Confirmation &c);

  Database() = default;
  Database(const Database &) = delete;
  Database &operator=(const Database &) = delete;
};

/// A database in this process's memory (the contract of `Database` without
/// a file): what the tuner's unit tests run against.
std::unique_ptr<Database> createMemoryDatabase();

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_DATABASE_DATABASE_H
