//===- SqliteDatabase.h - The tuning database in an SQLite file -*- C++ -*-===//
//
// The database users keep: one SQLite file in WAL mode, its schema
// versioned and migrated in place; a file that is not a dltune database is
// refused untouched. `Database::open` returns one. Format: docs/database.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_DATABASE_SQLITEDATABASE_H
#define DLTUNE_TUNING_DATABASE_SQLITEDATABASE_H

#include "dltune/Tuning/Database/Database.h"

struct sqlite3;

namespace mlir::dltune {

class SqliteDatabase final : public Database {
public:
  /// How long a writer waits for another process's lock before the
  /// statement fails (and the run stops with an error).
  static constexpr int kBusyTimeoutMs = 60000;

  ~SqliteDatabase() override;
  /// What `Database::open` does (see there), with the SQLite-only
  /// operations within reach.
  static llvm::Expected<std::unique_ptr<SqliteDatabase>> open(const std::string &path,
                                                              bool create = true);
  /// What `Database::openReadOnly` does.
  static llvm::Expected<std::unique_ptr<SqliteDatabase>> openReadOnly(const std::string &path);
  /// What `Database::openInMemory` does.
  static llvm::Expected<std::unique_ptr<SqliteDatabase>> openInMemory();
  /// What `Database::checkPath` does.
  static llvm::Error checkPath(const std::string &path);

  /// Caps the file at `bytes` (PRAGMA max_page_count): writes past it fail
  /// as on a full disk. A quota; tests use it to simulate a full disk.
  llvm::Error limitFileSize(int64_t bytes);

  int getSchemaVersion() const override { return schemaVersion; }
  llvm::Expected<int64_t> getOrCreateTask(const TaskRecord &task) override;
  llvm::Expected<std::optional<TaskRecord>> findTask(const std::string &hash) override;
  llvm::Expected<std::vector<TaskRecord>> listTasks() override;
  llvm::Expected<int64_t> getOrCreateDevice(const DeviceRecord &device) override;
  llvm::Expected<std::vector<DeviceRecord>> listDevices() override;
  llvm::Expected<bool> commitRecord(int64_t taskId, int64_t deviceId,
                                    const MeasureRecord &record) override;
  llvm::Expected<std::vector<MeasureRecord>> getRecords(int64_t taskId,
                                                        int64_t deviceId = 0) override;
  llvm::Expected<std::optional<MeasureRecord>> getBest(int64_t taskId,
                                                       int64_t deviceId = 0) override;
  llvm::Error commitConfirmations(int64_t taskId, int64_t deviceId,
                                  const std::vector<Confirmation> &confirmations) override;
  llvm::Expected<std::vector<Confirmation>> getLatestConfirmations(int64_t taskId,
                                                                  int64_t deviceId) override;
  llvm::Expected<std::vector<Confirmation>> listConfirmations(int64_t taskId,
                                                              int64_t deviceId) override;
  llvm::Expected<int64_t> forget(const ForgetFilter &filter,
                                 const std::string &reason) override;
  llvm::Expected<std::vector<MeasureRecord>> getReplacedRecords(int64_t taskId) override;
  llvm::Error setBaseline(int64_t taskId, int64_t deviceId, double untunedMs) override;
  llvm::Expected<std::optional<double>> getBaseline(int64_t taskId,
                                                    int64_t deviceId) override;
  llvm::Expected<std::vector<ClaimOutcome>> claim(int64_t taskId, int64_t deviceId,
                                                  const std::vector<std::string> &configs,
                                                  const std::string &owner,
                                                  double leaseSeconds) override;
  llvm::Error releaseClaims(const std::string &owner) override;
  /// BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when `fn` fails.
  llvm::Error addTaskNote(int64_t taskId, int64_t deviceId, const TaskNote &note) override;
  llvm::Expected<std::vector<TaskNote>> listTaskNotes(int64_t taskId, int64_t deviceId) override;
  llvm::Error addModelLatency(int64_t deviceId, const ModelLatency &latency) override;
  llvm::Expected<std::vector<ModelLatency>> listModelLatencies(int64_t deviceId) override;
  llvm::Expected<int64_t> createStudy(const Study &study) override;
  llvm::Expected<std::optional<Study>> findStudy(const std::string &name) override;
  llvm::Expected<std::vector<Study>> listStudies() override;
  llvm::Error updateStudyWorker(int64_t studyId, const StudyWorker &worker) override;
  llvm::Expected<std::vector<StudyWorker>> listStudyWorkers(int64_t studyId) override;
  llvm::Expected<bool> addStudyInterval(int64_t studyId, int64_t deviceId,
                                        const StudyInterval &interval) override;
  llvm::Expected<std::vector<StudyInterval>> listStudyIntervals(int64_t studyId,
                                                                int64_t deviceId) override;
  llvm::Expected<bool> stopStudyModel(int64_t studyId, int64_t deviceId,
                                      const StudyModelStop &stop) override;
  llvm::Expected<std::vector<StudyModelStop>> listStudyModelStops(int64_t studyId,
                                                                  int64_t deviceId) override;
  llvm::Error transaction(const std::function<llvm::Error()> &fn) override;

private:
  SqliteDatabase() = default;
  static llvm::Expected<std::unique_ptr<SqliteDatabase>>
  openChecked(const std::string &path, bool create, bool readOnly = false);
  llvm::Error exec(const char *sql);
  /// Creates or upgrades the schema; runs inside open's transaction.
  llvm::Error migrate();
  /// The id column of the one row `sql` selects for `key`.
  llvm::Expected<int64_t> selectId(const char *sql, const std::string &key);
  /// The studies `where` selects (with its one text parameter, if any).
  llvm::Expected<std::vector<Study>> selectStudies(const char *where, const std::string *key);
  sqlite3 *db = nullptr;
  int schemaVersion = 0;
  int transactionDepth = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_DATABASE_SQLITEDATABASE_H
