//===- Database.h - The SQLite tuning database ------------------*- C++ -*-===//
//
// Every measurement is committed as soon as it finishes, so a killed tuner
// loses at most the candidate in flight. The schema is versioned and
// migrated in place; a file that is not a dltune database is refused
// untouched. Format: docs/database.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_DATABASE_DATABASE_H
#define DLTUNE_TUNING_DATABASE_DATABASE_H

#include "dltune/Tuning/MeasureCallback/MeasureResult.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

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
enum class ClaimOutcome {
  Claimed,  // this owner may measure it (the claim is held until it expires)
  Measured, // a record exists already (another process measured it)
  Taken,    // another owner holds an unexpired claim: it is being measured
};

class Database {
public:
  static constexpr int kSchemaVersion = 4;
  /// How long a writer waits for another process's lock before the
  /// statement fails (and the run stops with an error).
  static constexpr int kBusyTimeoutMs = 60000;

  ~Database();
  /// Opens (creating when `create`) and migrates to kSchemaVersion. Fails
  /// without writing on a file that is not SQLite, is another program's
  /// SQLite database, comes from a newer dltune or has a damaged version,
  /// and on paths that would keep nothing (empty, ":memory:", "file:"
  /// URIs). Creation and migration are one IMMEDIATE transaction, so
  /// processes opening one new file at once create the schema once.
  static llvm::Expected<std::unique_ptr<Database>> open(const std::string &path,
                                                        bool create = true);

  /// A database that lives in this process's memory only (tests, fuzzers):
  /// the one way to get one; `open` refuses ":memory:" from users.
  static llvm::Expected<std::unique_ptr<Database>> openInMemory();

  /// Why `path` cannot hold a database (empty, in memory, a URI, a
  /// directory), before anything is opened.
  static llvm::Error checkPath(const std::string &path);

  int getSchemaVersion() const { return schemaVersion; }

  llvm::Expected<int64_t> getOrCreateTask(const TaskRecord &task);
  llvm::Expected<std::optional<TaskRecord>> findTask(const std::string &hash);
  llvm::Expected<std::vector<TaskRecord>> listTasks();

  llvm::Expected<int64_t> getOrCreateDevice(const DeviceRecord &device);
  llvm::Expected<std::vector<DeviceRecord>> listDevices();

  /// Commits one record (its own transaction). A record for a config the
  /// (task, device) pair already has is ignored: the first one stands.
  /// Returns whether it was inserted.
  llvm::Expected<bool> commitRecord(int64_t taskId, int64_t deviceId,
                                    const MeasureRecord &record);
  /// All records of a task, on one device or (deviceId 0) on all.
  llvm::Expected<std::vector<MeasureRecord>> getRecords(int64_t taskId,
                                                        int64_t deviceId = 0);
  /// The best configuration of a task on a device (or any device): the
  /// fastest of its latest confirmation if it has one, else the fastest ok
  /// record that is neither noisy nor cut off (those never win unconfirmed).
  /// A confirmed best carries the confirmed median and spread.
  llvm::Expected<std::optional<MeasureRecord>> getBest(int64_t taskId,
                                                       int64_t deviceId = 0);

  /// Commits the candidates of one confirmation run (one transaction).
  llvm::Error commitConfirmations(int64_t taskId, int64_t deviceId,
                                  const std::vector<Confirmation> &confirmations);
  /// The candidates of the latest confirmation run, fastest first.
  llvm::Expected<std::vector<Confirmation>> getLatestConfirmations(int64_t taskId,
                                                                  int64_t deviceId);

  /// Moves the records `filter` selects (and the confirmations of their
  /// tasks) into `replaced_records` with `reason`, so they can be measured
  /// again; nothing is deleted. Returns how many records moved.
  llvm::Expected<int64_t> forget(const ForgetFilter &filter, const std::string &reason);
  /// Records moved out by `forget`, oldest first.
  llvm::Expected<std::vector<MeasureRecord>> getReplacedRecords(int64_t taskId);

  /// Untuned (reference) time of a task on a device.
  llvm::Error setBaseline(int64_t taskId, int64_t deviceId, double untunedMs);
  llvm::Expected<std::optional<double>> getBaseline(int64_t taskId, int64_t deviceId);

  /// Claims `configs` of a task on a device for `owner` for `leaseSeconds`
  /// (one transaction): processes sharing the database split the work
  /// instead of measuring the same configurations. An expired claim (its
  /// owner was killed) is taken over.
  llvm::Expected<std::vector<ClaimOutcome>> claim(int64_t taskId, int64_t deviceId,
                                                  const std::vector<std::string> &configs,
                                                  const std::string &owner,
                                                  double leaseSeconds);
  /// Drops every claim of `owner` (its run is over).
  llvm::Error releaseClaims(const std::string &owner);

  /// Caps the file at `bytes` (PRAGMA max_page_count): writes past it fail
  /// as on a full disk. A quota; tests use it to simulate a full disk.
  llvm::Error limitFileSize(int64_t bytes);

  /// Runs `fn` inside one transaction (bulk imports); nested calls join the
  /// outer transaction.
  llvm::Error transaction(const std::function<llvm::Error()> &fn);

private:
  Database() = default;
  static llvm::Expected<std::unique_ptr<Database>> openChecked(const std::string &path,
                                                               bool create);
  llvm::Error exec(const char *sql);
  /// Creates or upgrades the schema; runs inside open's transaction.
  llvm::Error migrate();
  /// The id column of the one row `sql` selects for `key`.
  llvm::Expected<int64_t> selectId(const char *sql, const std::string &key);
  sqlite3 *db = nullptr;
  int schemaVersion = 0;
  int transactionDepth = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_DATABASE_DATABASE_H
