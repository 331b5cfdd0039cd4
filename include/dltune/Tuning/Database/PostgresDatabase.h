//===- PostgresDatabase.h - The tuning database on a PostgreSQL server -*- C++ -*-===//
//
// The database machines share: the same tables and meaning as the SQLite
// file (docs/database.md), on a PostgreSQL server reached by a libpq URL
// (`postgresql://user@host:port/dbname`; parts left out come from the PG*
// environment variables and ~/.pgpass, as for psql). `Database::open`
// returns one for such a URL. Claims of configurations are rows updated
// under the row lock PostgreSQL takes for `INSERT ... ON CONFLICT`, so
// workers on many machines never measure one configuration twice.
//
// A URL's password never appears in a message: errors name the URL with it
// replaced by `***` (redactDatabaseUrl).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_DATABASE_POSTGRESDATABASE_H
#define DLTUNE_TUNING_DATABASE_POSTGRESDATABASE_H

#include "dltune/Tuning/Database/Database.h"

#include "llvm/ADT/StringRef.h"

namespace mlir::dltune {

/// A `postgresql://` or `postgres://` URL (what selects this back-end).
bool isPostgresUrl(llvm::StringRef path);
/// The URL with its password (if any) replaced by `***`.
std::string redactDatabaseUrl(llvm::StringRef url);

class PostgresDatabase final : public Database {
public:
  ~PostgresDatabase() override;
  /// Connects; creates the schema on a database without tables (`create`),
  /// refuses a database whose tables are not dltune's, or of a newer schema.
  static llvm::Expected<std::unique_ptr<PostgresDatabase>> open(const std::string &url,
                                                                bool create = true);
  /// Connects with every transaction read-only; the schema must exist and
  /// be current.
  static llvm::Expected<std::unique_ptr<PostgresDatabase>> openReadOnly(const std::string &url);

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

  /// The opaque libpq connection, for the implementation file.
  struct Connection;

private:
  PostgresDatabase();
  static llvm::Expected<std::unique_ptr<PostgresDatabase>> connect(const std::string &url,
                                                                   bool create, bool readOnly);
  llvm::Error createSchema();
  /// The studies `where` selects ($1... bound to `keys`), with their models.
  llvm::Expected<std::vector<Study>> selectStudies(const std::string &where,
                                                   const std::vector<std::string> &keys);

  std::unique_ptr<Connection> connection;
  std::string redactedUrl;
  int schemaVersion = 0;
  int transactionDepth = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_DATABASE_POSTGRESDATABASE_H
