//===- SqliteDatabase.cpp - The tuning database in an SQLite file ---------===//

#include "dltune/Tuning/Database/SqliteDatabase.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Tuning/Device/GpuResources.h"

#include "llvm/Support/JSON.h"

#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <sys/stat.h>
#include <thread>

#include "llvm/Support/Path.h"

using namespace mlir::dltune;

// 'dltu' in the SQLite header tells our files from other SQLite files.
static constexpr int kApplicationId = 0x646c7475;

namespace {
/// A prepared statement that finalizes itself.
class Statement {
public:
  Statement(sqlite3 *db, const char *sql) : db(db) {
    rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt); }
  llvm::Error status() const {
    if (rc == SQLITE_OK)
      return llvm::Error::success();
    return makeError(llvm::Twine("database: ") + sqlite3_errmsg(db));
  }
  void bind(int i, const std::string &s) {
    sqlite3_bind_text(stmt, i, s.c_str(), -1, SQLITE_TRANSIENT);
  }
  void bind(int i, int64_t v) { sqlite3_bind_int64(stmt, i, v); }
  void bind(int i, double v) {
    if (std::isnan(v))
      sqlite3_bind_null(stmt, i);
    else
      sqlite3_bind_double(stmt, i, v);
  }
  void bindNull(int i) { sqlite3_bind_null(stmt, i); }
  /// SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return sqlite3_step(stmt); }
  std::string text(int c) {
    const unsigned char *t = sqlite3_column_text(stmt, c);
    return t ? reinterpret_cast<const char *>(t) : "";
  }
  int64_t integer(int c) { return sqlite3_column_int64(stmt, c); }
  double real(int c) {
    return sqlite3_column_type(stmt, c) == SQLITE_NULL ? NAN
                                                       : sqlite3_column_double(stmt, c);
  }
  bool isNull(int c) { return sqlite3_column_type(stmt, c) == SQLITE_NULL; }
  llvm::Error stepError() { return makeError(llvm::Twine("database: ") + sqlite3_errmsg(db)); }

private:
  sqlite3 *db;
  sqlite3_stmt *stmt = nullptr;
  int rc;
};
} // namespace

static double now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

SqliteDatabase::~SqliteDatabase() {
  if (db)
    sqlite3_close(db);
}

/// Runs `sql`, retrying for up to the busy timeout while another
/// connection holds a lock that SQLite does not wait for itself (switching
/// a new file to WAL, a read snapshot during another's schema creation).
static int execRetryingBusy(sqlite3 *db, const char *sql) {
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(SqliteDatabase::kBusyTimeoutMs);
  while (true) {
    int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    int primary = rc & 0xff;
    if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) ||
        std::chrono::steady_clock::now() > deadline)
      return rc;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

llvm::Error SqliteDatabase::exec(const char *sql) {
  char *err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    return makeError("database: " + msg);
  }
  return llvm::Error::success();
}

/// Why `path` cannot hold a database, or "" when it may: names that SQLite
/// would keep in memory (the records would vanish at exit) are refused.
static std::string checkDatabasePath(const std::string &path) {
  llvm::StringRef p(path);
  if (p.trim().empty())
    return "the database path is empty";
  if (p == ":memory:" || p.starts_with("file:") || p.contains("mode=memory"))
    return "'" + path +
           "' names an in-memory or URI database, which would keep no measurement: give a "
           "file path";
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return "'" + path + "' is a directory, not a database file";
  return "";
}

/// The message for a failure to open or read `path`: only SQLITE_NOTADB
/// means the file is not a database; an unwritable directory, a read-only
/// file system or a full disk are said as such.
static std::string describeOpenFailure(sqlite3 *db, const std::string &path) {
  int code = db ? sqlite3_errcode(db) & 0xff : SQLITE_NOMEM;
  std::string message = db ? sqlite3_errmsg(db) : "out of memory";
  if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
    return "'" + path + "' is not a dltune database (" + message + ")";
  std::string hint;
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  std::string dirText = dir.empty() ? "." : dir.str();
  if (code == SQLITE_FULL)
    hint = "; the disk is full";
  else if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM ||
           code == SQLITE_IOERR)
    hint = "; the file or its directory '" + dirText +
           "' must be writable (the database keeps a write-ahead log beside it)";
  return "cannot open database '" + path + "': " + message + hint;
}

llvm::Error SqliteDatabase::checkPath(const std::string &path) {
  std::string why = checkDatabasePath(path);
  return why.empty() ? llvm::Error::success() : makeError(why);
}

llvm::Expected<std::unique_ptr<SqliteDatabase>> SqliteDatabase::openInMemory() {
  return openChecked(":memory:", true);
}

llvm::Expected<std::unique_ptr<SqliteDatabase>>
SqliteDatabase::open(const std::string &path, bool create) {
  if (std::string why = checkDatabasePath(path); !why.empty())
    return makeError(why);
  return openChecked(path, create);
}

llvm::Expected<std::unique_ptr<SqliteDatabase>>
SqliteDatabase::openReadOnly(const std::string &path) {
  if (std::string why = checkDatabasePath(path); !why.empty())
    return makeError(why);
  return openChecked(path, /*create=*/false, /*readOnly=*/true);
}

llvm::Expected<std::unique_ptr<SqliteDatabase>>
SqliteDatabase::openChecked(const std::string &path, bool create, bool readOnly) {
  struct stat st;
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (!exists && !create)
    return makeError("database '" + path + "' does not exist");
  std::unique_ptr<SqliteDatabase> d(new SqliteDatabase());
  int flags = readOnly ? SQLITE_OPEN_READONLY
                       : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path.c_str(), &d->db, flags, nullptr) != SQLITE_OK)
    return makeError(describeOpenFailure(d->db, path));
  sqlite3_busy_timeout(d->db, kBusyTimeoutMs);
  // Reading the header first tells a non-SQLite file before anything is
  // written to it.
  int appId = 0, userVersion = 0, tables = 0;
  auto readHeader = [&]() -> llvm::Error {
    std::pair<const char *, int *> fields[] = {
        {"PRAGMA application_id", &appId},
        {"SELECT count(*) FROM sqlite_master", &tables},
        {"PRAGMA user_version", &userVersion}};
    for (auto [sql, field] : fields) {
      Statement s(d->db, sql);
      if (llvm::Error e = s.status()) {
        llvm::consumeError(std::move(e));
        return makeError(describeOpenFailure(d->db, path));
      }
      if (s.step() != SQLITE_ROW)
        return makeError(describeOpenFailure(d->db, path));
      *field = static_cast<int>(s.integer(0));
    }
    return llvm::Error::success();
  };
  auto checkHeader = [&]() -> llvm::Error {
    bool fresh = tables == 0 && appId == 0;
    if (!fresh && appId != kApplicationId)
      return makeError("'" + path +
                       "' is an SQLite database of another program, not a dltune "
                       "database; it was not modified");
    if (!fresh && userVersion < 1)
      return makeError("'" + path + "' has schema version " + llvm::Twine(userVersion) +
                       ", which no dltune writes: the database is damaged; it was not "
                       "modified");
    if (userVersion > kSchemaVersion)
      return makeError("'" + path + "' has schema version " + llvm::Twine(userVersion) +
                       ", newer than this dltune (" + llvm::Twine(kSchemaVersion) + ")");
    return llvm::Error::success();
  };
  // One read transaction: the three values from one snapshot, not from
  // before and after another process created the schema.
  {
    if (execRetryingBusy(d->db, "BEGIN;") != SQLITE_OK)
      return makeError(describeOpenFailure(d->db, path));
    llvm::Error e = readHeader();
    (void)d->exec("COMMIT;");
    if (e)
      return std::move(e);
  }
  if (llvm::Error e = checkHeader())
    return std::move(e);
  if (readOnly) {
    if (tables == 0)
      return makeError("'" + path + "' holds no dltune database (it is empty)");
    if (userVersion < kSchemaVersion)
      return makeError("'" + path + "' has schema version " + llvm::Twine(userVersion) +
                       ", older than this dltune's " + llvm::Twine(kSchemaVersion) +
                       "; it is read without changing it, so migrate it first (for example "
                       "with `dltune db summary --db " + path + "`)");
    d->schemaVersion = userVersion;
    return d;
  }
  // WAL: readers do not block the tuner; each commit survives a SIGKILL.
  if (execRetryingBusy(d->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                              "PRAGMA foreign_keys=ON;") != SQLITE_OK)
    return makeError(describeOpenFailure(d->db, path));
  // Creation and migration hold the write lock from the start: a second
  // process opening the same new file waits, then finds the schema made.
  if (tables == 0 || userVersion < kSchemaVersion) {
    if (execRetryingBusy(d->db, "BEGIN IMMEDIATE;") != SQLITE_OK)
      return makeError(describeOpenFailure(d->db, path));
    llvm::Error e = readHeader();
    if (!e)
      e = checkHeader();
    if (!e) {
      d->schemaVersion = tables == 0 ? 0 : userVersion;
      e = d->migrate();
    }
    if (!e)
      e = d->exec("COMMIT;");
    if (e) {
      (void)d->exec("ROLLBACK;");
      return std::move(e);
    }
  } else {
    d->schemaVersion = userVersion;
  }
  return d;
}

llvm::Error SqliteDatabase::migrate() {
  if (schemaVersion == 0) {
    if (llvm::Error e = exec(
            "PRAGMA application_id = 1684829301;"
            "CREATE TABLE devices(id INTEGER PRIMARY KEY, fingerprint TEXT UNIQUE "
            "NOT NULL, name TEXT, json TEXT);"
            "CREATE TABLE tasks(id INTEGER PRIMARY KEY, hash TEXT UNIQUE NOT NULL, "
            "op_kind TEXT, target TEXT, shapes TEXT, element_types TEXT, space TEXT, "
            "source TEXT);"
            "CREATE TABLE records(id INTEGER PRIMARY KEY, task_id INTEGER NOT NULL "
            "REFERENCES tasks(id), device_id INTEGER NOT NULL REFERENCES devices(id), "
            "config TEXT NOT NULL, status TEXT NOT NULL, time_ms REAL, min_ms REAL, "
            "max_ms REAL, stddev_ms REAL, repeats INTEGER, noisy INTEGER, error TEXT, "
            "build_s REAL, run_s REAL, source TEXT, created_at REAL, "
            "UNIQUE(task_id, device_id, config));"
            "CREATE INDEX records_by_task ON records(task_id, device_id, status, time_ms);"
            "PRAGMA user_version = 1;"))
      return e;
    schemaVersion = 1;
  }
  // Version 1 -> 2: energy per call and untuned baselines.
  if (schemaVersion == 1) {
    if (llvm::Error e = exec(
            "ALTER TABLE records ADD COLUMN energy_j REAL;"
            "CREATE TABLE baselines(task_id INTEGER NOT NULL REFERENCES tasks(id), "
            "device_id INTEGER NOT NULL REFERENCES devices(id), untuned_ms REAL, "
            "PRIMARY KEY(task_id, device_id));"
            "PRAGMA user_version = 2;"))
      return e;
    schemaVersion = 2;
  }
  // Version 2 -> 3: the generator behind each record, cut-off records,
  // confirmations of the best candidates, and records replaced by
  // `forget`/`remeasure` (kept, never deleted).
  if (schemaVersion == 2) {
    if (llvm::Error e = exec(
            "ALTER TABLE records ADD COLUMN generator TEXT;"
            "ALTER TABLE records ADD COLUMN cut_off INTEGER;"
            "ALTER TABLE records ADD COLUMN gpu_resources TEXT;"
            "CREATE TABLE confirmations(id INTEGER PRIMARY KEY, task_id INTEGER NOT NULL "
            "REFERENCES tasks(id), device_id INTEGER NOT NULL REFERENCES devices(id), "
            "config TEXT NOT NULL, rounds INTEGER, median_ms REAL, min_ms REAL, "
            "max_ms REAL, generator TEXT, created_at REAL);"
            "CREATE INDEX confirmations_by_task ON confirmations(task_id, device_id, "
            "created_at);"
            "CREATE TABLE replaced_records AS SELECT * FROM records WHERE 0;"
            "ALTER TABLE replaced_records ADD COLUMN replaced_at REAL;"
            "ALTER TABLE replaced_records ADD COLUMN reason TEXT;"
            "PRAGMA user_version = 3;"))
      return e;
    schemaVersion = 3;
  }
  // Version 3 -> 4: claims of configurations being measured, so that
  // processes sharing the database split the work.
  if (schemaVersion == 3) {
    if (llvm::Error e = exec(
            "CREATE TABLE claims(task_id INTEGER NOT NULL REFERENCES tasks(id), "
            "device_id INTEGER NOT NULL REFERENCES devices(id), config TEXT NOT NULL, "
            "owner TEXT NOT NULL, expires_at REAL NOT NULL, "
            "PRIMARY KEY(task_id, device_id, config));"
            "PRAGMA user_version = 4;"))
      return e;
    schemaVersion = 4;
  }
  // Version 4 -> 5: the tuner's notes about each task (transfer, warnings)
  // and end-to-end timings of tuned models.
  if (schemaVersion == 4) {
    if (llvm::Error e = exec(
            "CREATE TABLE task_notes(id INTEGER PRIMARY KEY, task_id INTEGER NOT NULL "
            "REFERENCES tasks(id), device_id INTEGER NOT NULL REFERENCES devices(id), "
            "kind TEXT NOT NULL, message TEXT NOT NULL, created_at REAL);"
            "CREATE INDEX task_notes_by_task ON task_notes(task_id, device_id, created_at);"
            "CREATE TABLE model_latencies(id INTEGER PRIMARY KEY, device_id INTEGER NOT NULL "
            "REFERENCES devices(id), model TEXT NOT NULL, entry TEXT NOT NULL, default_ms REAL, "
            "tuned_ms REAL, checked INTEGER NOT NULL, created_at REAL);"
            "PRAGMA user_version = 5;"))
      return e;
    schemaVersion = 5;
  }
  // Version 5 -> 6: studies (models and options registered once, tuned by
  // workers sharing the database) and what their workers last said.
  if (schemaVersion == 5) {
    if (llvm::Error e = exec(
            "CREATE TABLE studies(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, "
            "options TEXT NOT NULL, created_at REAL);"
            "CREATE TABLE study_models(study_id INTEGER NOT NULL REFERENCES studies(id), "
            "position INTEGER NOT NULL, name TEXT NOT NULL, module TEXT NOT NULL, "
            "tasks TEXT NOT NULL, PRIMARY KEY(study_id, position), UNIQUE(study_id, name));"
            "CREATE TABLE study_workers(study_id INTEGER NOT NULL REFERENCES studies(id), "
            "owner TEXT NOT NULL, device_id INTEGER, state TEXT NOT NULL, model TEXT, "
            "started_at REAL, updated_at REAL, message TEXT, PRIMARY KEY(study_id, owner));"
            "PRAGMA user_version = 6;"))
      return e;
    schemaVersion = 6;
  }
  // Version 6 -> 7: Trimmer's suspension in live studies: each model's
  // latency after each interval, and the models stopped (one suspension per
  // synchronisation, kept by the partial unique index).
  if (schemaVersion == 6) {
    if (llvm::Error e = exec(
            "CREATE TABLE study_intervals(study_id INTEGER NOT NULL REFERENCES studies(id), "
            "device_id INTEGER NOT NULL REFERENCES devices(id), position INTEGER NOT NULL, "
            "interval_index INTEGER NOT NULL, latency_ms REAL, measured INTEGER NOT NULL, "
            "created_at REAL, PRIMARY KEY(study_id, device_id, position, interval_index));"
            "CREATE TABLE study_model_stops(study_id INTEGER NOT NULL REFERENCES studies(id), "
            "device_id INTEGER NOT NULL REFERENCES devices(id), position INTEGER NOT NULL, "
            "state TEXT NOT NULL CHECK(state IN ('suspended', 'done')), interval_index INTEGER "
            "NOT NULL, reason TEXT, created_at REAL, PRIMARY KEY(study_id, device_id, "
            "position));"
            "CREATE UNIQUE INDEX study_one_suspension_per_sync ON study_model_stops(study_id, "
            "device_id, interval_index) WHERE state = 'suspended';"
            "PRAGMA user_version = 7;"))
      return e;
    schemaVersion = 7;
  }
  // Version 7 -> 8: each candidate's metered energy (build share and
  // measurement, RAPL/NVML); NULL where no meter was readable, as in every
  // record made before.
  if (schemaVersion == 7) {
    if (llvm::Error e = exec("ALTER TABLE records ADD COLUMN candidate_energy_j REAL;"
                             "ALTER TABLE replaced_records ADD COLUMN candidate_energy_j REAL;"
                             "PRAGMA user_version = 8;"))
      return e;
    schemaVersion = 8;
  }
  return llvm::Error::success();
}

llvm::Error SqliteDatabase::transaction(const std::function<llvm::Error()> &fn) {
  if (transactionDepth > 0)
    return fn();
  // IMMEDIATE: the write lock is taken (waiting up to the busy timeout) at
  // the start, never upgraded midway, which SQLite cannot wait for.
  if (llvm::Error e = exec("BEGIN IMMEDIATE;"))
    return e;
  ++transactionDepth;
  llvm::Error result = fn();
  --transactionDepth;
  if (result) {
    (void)exec("ROLLBACK;");
    return result;
  }
  return exec("COMMIT;");
}

llvm::Expected<int64_t> SqliteDatabase::getOrCreateTask(const TaskRecord &t) {
  {
    Statement s(db, "INSERT OR IGNORE INTO tasks(hash, op_kind, target, shapes, "
                    "element_types, space, source) VALUES(?,?,?,?,?,?,?)");
    if (llvm::Error e = s.status())
      return std::move(e);
    s.bind(1, t.hash);
    s.bind(2, t.opKind);
    s.bind(3, t.target);
    s.bind(4, t.shapes);
    s.bind(5, t.elementTypes);
    s.bind(6, t.space);
    s.bind(7, t.source);
    if (s.step() != SQLITE_DONE)
      return s.stepError();
  }
  return selectId("SELECT id FROM tasks WHERE hash = ?", t.hash);
}

llvm::Expected<int64_t> SqliteDatabase::selectId(const char *sql, const std::string &key) {
  Statement q(db, sql);
  if (llvm::Error e = q.status())
    return std::move(e);
  q.bind(1, key);
  if (q.step() != SQLITE_ROW)
    return q.stepError();
  return q.integer(0);
}

static TaskRecord readTask(Statement &s) {
  TaskRecord t;
  t.id = s.integer(0);
  t.hash = s.text(1);
  t.opKind = s.text(2);
  t.target = s.text(3);
  t.shapes = s.text(4);
  t.elementTypes = s.text(5);
  t.space = s.text(6);
  t.source = s.text(7);
  return t;
}

llvm::Expected<std::optional<TaskRecord>> SqliteDatabase::findTask(const std::string &hash) {
  Statement s(db, "SELECT id, hash, op_kind, target, shapes, element_types, space, "
                  "source FROM tasks WHERE hash = ?");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, hash);
  int rc = s.step();
  if (rc == SQLITE_DONE)
    return std::optional<TaskRecord>();
  if (rc != SQLITE_ROW)
    return s.stepError();
  return std::optional<TaskRecord>(readTask(s));
}

llvm::Expected<std::vector<TaskRecord>> SqliteDatabase::listTasks() {
  Statement s(db, "SELECT id, hash, op_kind, target, shapes, element_types, space, "
                  "source FROM tasks ORDER BY id");
  if (llvm::Error e = s.status())
    return std::move(e);
  std::vector<TaskRecord> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW)
    out.push_back(readTask(s));
  if (rc != SQLITE_DONE)
    return s.stepError();
  return out;
}

llvm::Expected<int64_t> SqliteDatabase::getOrCreateDevice(const DeviceRecord &d) {
  {
    Statement s(db, "INSERT OR IGNORE INTO devices(fingerprint, name, json) VALUES(?,?,?)");
    if (llvm::Error e = s.status())
      return std::move(e);
    s.bind(1, d.fingerprint);
    s.bind(2, d.name);
    s.bind(3, d.json);
    if (s.step() != SQLITE_DONE)
      return s.stepError();
  }
  return selectId("SELECT id FROM devices WHERE fingerprint = ?", d.fingerprint);
}

llvm::Expected<std::vector<DeviceRecord>> SqliteDatabase::listDevices() {
  Statement s(db, "SELECT id, fingerprint, name, json FROM devices ORDER BY id");
  if (llvm::Error e = s.status())
    return std::move(e);
  std::vector<DeviceRecord> out;
  while (s.step() == SQLITE_ROW)
    out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3)});
  return out;
}

llvm::Expected<bool> SqliteDatabase::commitRecord(int64_t taskId, int64_t deviceId,
                                                  const MeasureRecord &r) {
  Statement s(db,
              "INSERT OR IGNORE INTO records(task_id, device_id, config, status, "
              "time_ms, min_ms, max_ms, stddev_ms, repeats, noisy, error, build_s, "
              "run_s, source, created_at, energy_j, generator, cut_off, gpu_resources, "
              "candidate_energy_j) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, taskId);
  s.bind(2, deviceId);
  s.bind(3, r.config);
  s.bind(4, toString(r.status).str());
  s.bind(5, r.timeMs);
  s.bind(6, r.minMs);
  s.bind(7, r.maxMs);
  s.bind(8, r.stddevMs);
  s.bind(9, static_cast<int64_t>(r.repeats));
  s.bind(10, static_cast<int64_t>(r.noisy));
  s.bind(11, r.error);
  s.bind(12, r.buildSeconds);
  s.bind(13, r.runSeconds);
  s.bind(14, r.source);
  s.bind(15, r.createdAt > 0 ? r.createdAt : now());
  if (r.energyJ)
    s.bind(16, *r.energyJ);
  else
    s.bindNull(16);
  if (r.generator.empty())
    s.bindNull(17);
  else
    s.bind(17, r.generator);
  s.bind(18, static_cast<int64_t>(r.cutOff));
  if (r.gpuResources.empty()) {
    s.bindNull(19);
  } else {
    std::string json;
    llvm::raw_string_ostream os(json);
    os << llvm::json::Value(toJSON(r.gpuResources));
    s.bind(19, json);
  }
  if (r.candidateEnergyJ)
    s.bind(20, *r.candidateEnergyJ);
  else
    s.bindNull(20);
  if (s.step() != SQLITE_DONE)
    return s.stepError();
  return sqlite3_changes(db) > 0;
}

static llvm::Expected<MeasureRecord> readRecord(Statement &s) {
  MeasureRecord r;
  r.config = s.text(0);
  llvm::Expected<MeasureStatus> status = parseMeasureStatusOrError(s.text(1));
  if (!status)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "record of configuration '%s': %s", r.config.c_str(),
                                   llvm::toString(status.takeError()).c_str());
  r.status = *status;
  r.timeMs = s.real(2);
  r.minMs = s.real(3);
  r.maxMs = s.real(4);
  r.stddevMs = s.real(5);
  r.repeats = static_cast<int>(s.integer(6));
  r.noisy = s.integer(7) != 0;
  r.error = s.text(8);
  r.buildSeconds = s.real(9);
  r.runSeconds = s.real(10);
  r.source = s.text(11);
  r.createdAt = s.real(12);
  if (!s.isNull(13))
    r.energyJ = s.real(13);
  r.generator = s.text(14);
  r.cutOff = s.integer(15) != 0;
  if (!s.isNull(16)) {
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(s.text(16));
    if (!v)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "record of configuration '" + r.config +
                                         "': unreadable gpu_resources: " +
                                         llvm::toString(v.takeError()));
    llvm::Expected<std::vector<GpuKernelResources>> resources = gpuResourcesFromJSON(*v);
    if (!resources)
      return resources.takeError();
    r.gpuResources = std::move(*resources);
  }
  if (!s.isNull(17))
    r.candidateEnergyJ = s.real(17);
  return r;
}

/// Every row a record query returns; the first unreadable one is an error.
static llvm::Expected<std::vector<MeasureRecord>> readRecords(Statement &s) {
  std::vector<MeasureRecord> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) {
    llvm::Expected<MeasureRecord> r = readRecord(s);
    if (!r)
      return r.takeError();
    out.push_back(std::move(*r));
  }
  if (rc != SQLITE_DONE)
    return s.stepError();
  return out;
}

static constexpr const char *kRecordColumns =
    "config, status, time_ms, min_ms, max_ms, stddev_ms, repeats, noisy, error, "
    "build_s, run_s, source, created_at, energy_j, generator, cut_off, gpu_resources, "
    "candidate_energy_j";


llvm::Expected<std::vector<MeasureRecord>> SqliteDatabase::getRecords(int64_t taskId,
                                                                      int64_t deviceId) {
  std::string sql = std::string("SELECT ") + kRecordColumns +
                    " FROM records WHERE task_id = ?" +
                    (deviceId ? " AND device_id = ?" : "") + " ORDER BY id";
  Statement s(db, sql.c_str());
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, taskId);
  if (deviceId)
    s.bind(2, deviceId);
  return readRecords(s);
}

llvm::Expected<std::optional<MeasureRecord>> SqliteDatabase::getBest(int64_t taskId,
                                                                     int64_t deviceId) {
  // A confirmed best first: re-measured in fresh processes, it is the one
  // figure that is not the luckiest sample of many.
  {
    llvm::Expected<std::vector<Confirmation>> confirmed =
        getLatestConfirmations(taskId, deviceId);
    if (!confirmed)
      return confirmed.takeError();
    if (!confirmed->empty()) {
      const Confirmation &c = confirmed->front();
      std::string sql = std::string("SELECT ") + kRecordColumns +
                        " FROM records WHERE task_id = ?1 AND (?2 = 0 OR device_id = ?2) "
                        "AND config = ?3 ORDER BY id LIMIT 1";
      Statement s(db, sql.c_str());
      if (llvm::Error e = s.status())
        return std::move(e);
      s.bind(1, taskId);
      s.bind(2, deviceId);
      s.bind(3, c.config);
      int rc = s.step();
      if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return s.stepError();
      MeasureRecord r;
      if (rc == SQLITE_ROW) {
        llvm::Expected<MeasureRecord> stored = readRecord(s);
        if (!stored)
          return stored.takeError();
        r = std::move(*stored);
      }
      return std::optional<MeasureRecord>(makeConfirmedBest(std::move(r), c));
    }
  }
  std::string sql = std::string("SELECT ") + kRecordColumns +
                    " FROM records WHERE task_id = ? AND status = 'ok' AND time_ms "
                    "> 0 AND coalesce(cut_off, 0) = 0" +
                    (deviceId ? " AND device_id = ?" : "") + " AND " + kUnconfirmedBestRank;
  Statement s(db, sql.c_str());
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, taskId);
  if (deviceId)
    s.bind(2, deviceId);
  int rc = s.step();
  if (rc == SQLITE_DONE)
    return std::optional<MeasureRecord>();
  if (rc != SQLITE_ROW)
    return s.stepError();
  llvm::Expected<MeasureRecord> r = readRecord(s);
  if (!r)
    return r.takeError();
  return std::optional<MeasureRecord>(std::move(*r));
}

llvm::Error SqliteDatabase::commitConfirmations(int64_t taskId, int64_t deviceId,
                                                const std::vector<Confirmation> &confirmations) {
  double created = now();
  return transaction([&]() -> llvm::Error {
    for (const Confirmation &c : confirmations) {
      Statement s(db, "INSERT INTO confirmations(task_id, device_id, config, rounds, "
                      "median_ms, min_ms, max_ms, generator, created_at) "
                      "VALUES(?,?,?,?,?,?,?,?,?)");
      if (llvm::Error e = s.status())
        return e;
      s.bind(1, taskId);
      s.bind(2, deviceId);
      s.bind(3, c.config);
      s.bind(4, static_cast<int64_t>(c.rounds));
      s.bind(5, c.medianMs);
      s.bind(6, c.minMs);
      s.bind(7, c.maxMs);
      s.bind(8, c.generator);
      s.bind(9, c.createdAt > 0 ? c.createdAt : created);
      if (s.step() != SQLITE_DONE)
        return s.stepError();
    }
    return llvm::Error::success();
  });
}

/// The confirmations of task ?1 on device ?2 (0: any device) that `filter`
/// (the rest of the WHERE clause and the ORDER BY) selects.
static llvm::Expected<std::vector<Confirmation>>
selectConfirmations(sqlite3 *db, int64_t taskId, int64_t deviceId, llvm::StringRef filter) {
  std::string sql = "SELECT config, rounds, median_ms, min_ms, max_ms, generator, created_at "
                    "FROM confirmations WHERE task_id = ?1 AND (?2 = 0 OR device_id = ?2) " +
                    filter.str();
  Statement s(db, sql.c_str());
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, taskId);
  s.bind(2, deviceId);
  std::vector<Confirmation> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) {
    Confirmation c;
    c.config = s.text(0);
    c.rounds = static_cast<int>(s.integer(1));
    c.medianMs = s.real(2);
    c.minMs = s.real(3);
    c.maxMs = s.real(4);
    c.generator = s.text(5);
    c.createdAt = s.real(6);
    out.push_back(std::move(c));
  }
  if (rc != SQLITE_DONE)
    return s.stepError();
  return out;
}

llvm::Expected<std::vector<Confirmation>>
SqliteDatabase::getLatestConfirmations(int64_t taskId, int64_t deviceId) {
  // Device 0: the latest confirmation run on any device.
  return selectConfirmations(db, taskId, deviceId,
                             "AND created_at = (SELECT max(created_at) FROM confirmations "
                             "WHERE task_id = ?1 AND (?2 = 0 OR device_id = ?2)) AND "
                             "median_ms IS NOT NULL ORDER BY median_ms ASC, id ASC");
}

llvm::Expected<std::vector<Confirmation>> SqliteDatabase::listConfirmations(int64_t taskId,
                                                                            int64_t deviceId) {
  return selectConfirmations(db, taskId, deviceId, "ORDER BY created_at ASC, id ASC");
}

llvm::Expected<int64_t> SqliteDatabase::forget(const ForgetFilter &f, const std::string &reason) {
  // One WHERE clause for the copy and the delete, so they select the same rows.
  std::string where = "1";
  if (!f.taskHash.empty())
    where += " AND task_id IN (SELECT id FROM tasks WHERE hash = ?1)";
  if (!f.status.empty())
    where += " AND status = ?2";
  if (f.olderThanSeconds > 0)
    where += " AND created_at < ?3";
  if (f.deviceId)
    where += " AND device_id = ?4";
  if (!f.errorContains.empty()) {
    where += " AND (0";
    for (size_t i = 0; i < f.errorContains.size(); ++i)
      where += " OR instr(coalesce(error, ''), ?" + std::to_string(7 + i) + ") > 0";
    where += ")";
  }
  auto bindAll = [&](Statement &s) {
    if (!f.taskHash.empty())
      s.bind(1, f.taskHash);
    if (!f.status.empty())
      s.bind(2, f.status);
    if (f.olderThanSeconds > 0)
      s.bind(3, now() - f.olderThanSeconds);
    if (f.deviceId)
      s.bind(4, f.deviceId);
    for (size_t i = 0; i < f.errorContains.size(); ++i)
      s.bind(static_cast<int>(7 + i), f.errorContains[i]);
  };
  int64_t moved = 0;
  llvm::Error e = transaction([&]() -> llvm::Error {
    std::string columns = std::string("task_id, device_id, ") + kRecordColumns;
    std::string copy = "INSERT INTO replaced_records(" + columns + ", replaced_at, reason) "
                       "SELECT " + columns + ", ?5, ?6 FROM records WHERE " + where;
    Statement c(db, copy.c_str());
    if (llvm::Error e = c.status())
      return e;
    bindAll(c);
    c.bind(5, now());
    c.bind(6, reason);
    if (c.step() != SQLITE_DONE)
      return c.stepError();
    moved = sqlite3_changes(db);
    // A confirmation ranks records that are gone: drop it with them.
    std::string dropConfirmations =
        "DELETE FROM confirmations WHERE EXISTS (SELECT 1 FROM records WHERE " + where +
        " AND records.task_id = confirmations.task_id AND records.device_id = "
        "confirmations.device_id)";
    Statement dc(db, dropConfirmations.c_str());
    if (llvm::Error e = dc.status())
      return e;
    bindAll(dc);
    if (dc.step() != SQLITE_DONE)
      return dc.stepError();
    std::string del = "DELETE FROM records WHERE " + where;
    Statement d(db, del.c_str());
    if (llvm::Error e = d.status())
      return e;
    bindAll(d);
    if (d.step() != SQLITE_DONE)
      return d.stepError();
    return llvm::Error::success();
  });
  if (e)
    return std::move(e);
  return moved;
}

llvm::Expected<std::vector<MeasureRecord>> SqliteDatabase::getReplacedRecords(int64_t taskId) {
  std::string sql = std::string("SELECT ") + kRecordColumns +
                    " FROM replaced_records WHERE task_id = ? ORDER BY replaced_at, rowid";
  Statement s(db, sql.c_str());
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, taskId);
  return readRecords(s);
}

llvm::Error SqliteDatabase::setBaseline(int64_t taskId, int64_t deviceId, double ms) {
  Statement s(db, "INSERT OR REPLACE INTO baselines(task_id, device_id, untuned_ms) "
                  "VALUES(?,?,?)");
  if (llvm::Error e = s.status())
    return e;
  s.bind(1, taskId);
  s.bind(2, deviceId);
  s.bind(3, ms);
  if (s.step() != SQLITE_DONE)
    return s.stepError();
  return llvm::Error::success();
}

llvm::Expected<std::optional<double>> SqliteDatabase::getBaseline(int64_t taskId,
                                                                  int64_t deviceId) {
  Statement s(db, "SELECT untuned_ms FROM baselines WHERE task_id = ? AND device_id = ?");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, taskId);
  s.bind(2, deviceId);
  if (s.step() != SQLITE_ROW)
    return std::optional<double>();
  return std::optional<double>(s.real(0));
}

llvm::Expected<std::vector<ClaimOutcome>>
SqliteDatabase::claim(int64_t taskId, int64_t deviceId, const std::vector<std::string> &configs,
                      const std::string &owner, double leaseSeconds) {
  std::vector<ClaimOutcome> out;
  llvm::Error e = transaction([&]() -> llvm::Error {
    double t = now();
    for (const std::string &config : configs) {
      {
        Statement r(db, "SELECT 1 FROM records WHERE task_id = ? AND device_id = ? AND "
                        "config = ?");
        if (llvm::Error e = r.status())
          return e;
        r.bind(1, taskId);
        r.bind(2, deviceId);
        r.bind(3, config);
        int rc = r.step();
        if (rc == SQLITE_ROW) {
          out.push_back(ClaimOutcome::Measured);
          continue;
        }
        if (rc != SQLITE_DONE)
          return r.stepError();
      }
      // Inserts, renews our own claim, or takes over an expired one; an
      // unexpired claim of another owner stays.
      Statement c(db, "INSERT INTO claims(task_id, device_id, config, owner, expires_at) "
                      "VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT(task_id, device_id, config) DO "
                      "UPDATE SET owner = ?4, expires_at = ?5 WHERE claims.owner = ?4 OR "
                      "claims.expires_at <= ?6");
      if (llvm::Error e = c.status())
        return e;
      c.bind(1, taskId);
      c.bind(2, deviceId);
      c.bind(3, config);
      c.bind(4, owner);
      c.bind(5, t + leaseSeconds);
      c.bind(6, t);
      if (c.step() != SQLITE_DONE)
        return c.stepError();
      out.push_back(sqlite3_changes(db) > 0 ? ClaimOutcome::Claimed : ClaimOutcome::Taken);
    }
    return llvm::Error::success();
  });
  if (e)
    return std::move(e);
  return out;
}

llvm::Error SqliteDatabase::releaseClaims(const std::string &owner) {
  Statement s(db, "DELETE FROM claims WHERE owner = ?");
  if (llvm::Error e = s.status())
    return e;
  s.bind(1, owner);
  if (s.step() != SQLITE_DONE)
    return s.stepError();
  return llvm::Error::success();
}

llvm::Error SqliteDatabase::addTaskNote(int64_t taskId, int64_t deviceId, const TaskNote &note) {
  Statement s(db, "INSERT INTO task_notes(task_id, device_id, kind, message, created_at) "
                  "VALUES(?,?,?,?,?)");
  if (llvm::Error e = s.status())
    return e;
  s.bind(1, taskId);
  s.bind(2, deviceId);
  s.bind(3, note.kind);
  s.bind(4, note.message);
  s.bind(5, note.createdAt > 0 ? note.createdAt : now());
  if (s.step() != SQLITE_DONE)
    return s.stepError();
  return llvm::Error::success();
}

llvm::Expected<std::vector<TaskNote>> SqliteDatabase::listTaskNotes(int64_t taskId,
                                                                    int64_t deviceId) {
  Statement s(db, "SELECT kind, message, created_at FROM task_notes WHERE task_id = ? AND "
                  "device_id = ? ORDER BY created_at, id");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, taskId);
  s.bind(2, deviceId);
  std::vector<TaskNote> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW)
    out.push_back({s.text(0), s.text(1), s.real(2)});
  if (rc != SQLITE_DONE)
    return s.stepError();
  return out;
}

llvm::Error SqliteDatabase::addModelLatency(int64_t deviceId, const ModelLatency &m) {
  Statement s(db, "INSERT INTO model_latencies(device_id, model, entry, default_ms, tuned_ms, "
                  "checked, created_at) VALUES(?,?,?,?,?,?,?)");
  if (llvm::Error e = s.status())
    return e;
  s.bind(1, deviceId);
  s.bind(2, m.model);
  s.bind(3, m.entry);
  s.bind(4, m.defaultMs);
  s.bind(5, m.tunedMs);
  s.bind(6, static_cast<int64_t>(m.checked));
  s.bind(7, m.createdAt > 0 ? m.createdAt : now());
  if (s.step() != SQLITE_DONE)
    return s.stepError();
  return llvm::Error::success();
}

llvm::Expected<std::vector<ModelLatency>> SqliteDatabase::listModelLatencies(int64_t deviceId) {
  Statement s(db, "SELECT model, entry, default_ms, tuned_ms, checked, created_at FROM "
                  "model_latencies WHERE device_id = ? ORDER BY created_at, id");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, deviceId);
  std::vector<ModelLatency> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW)
    out.push_back({s.text(0), s.text(1), s.real(2), s.real(3), s.integer(4) != 0, s.real(5)});
  if (rc != SQLITE_DONE)
    return s.stepError();
  return out;
}

llvm::Expected<int64_t> SqliteDatabase::createStudy(const Study &study) {
  if (llvm::Error e = checkNewStudy(study))
    return std::move(e);
  int64_t id = 0;
  llvm::Error e = transaction([&]() -> llvm::Error {
    {
      Statement s(db, "INSERT INTO studies(name, options, created_at) VALUES(?,?,?)");
      if (llvm::Error e = s.status())
        return e;
      s.bind(1, study.name);
      s.bind(2, study.options);
      s.bind(3, study.createdAt > 0 ? study.createdAt : now());
      int rc = s.step();
      if (rc == SQLITE_CONSTRAINT)
        return llvm::createStringError("a study named '" + study.name + "' exists already");
      if (rc != SQLITE_DONE)
        return s.stepError();
      id = sqlite3_last_insert_rowid(db);
    }
    for (size_t i = 0; i < study.models.size(); ++i) {
      const StudyModel &m = study.models[i];
      Statement s(db, "INSERT INTO study_models(study_id, position, name, module, tasks) "
                      "VALUES(?,?,?,?,?)");
      if (llvm::Error e = s.status())
        return e;
      s.bind(1, id);
      s.bind(2, static_cast<int64_t>(i));
      s.bind(3, m.name);
      s.bind(4, m.module);
      s.bind(5, encodeStudyTasks(m.tasks));
      int rc = s.step();
      if (rc == SQLITE_CONSTRAINT)
        return llvm::createStringError("the study '" + study.name + "' names the model '" +
                                       m.name + "' twice");
      if (rc != SQLITE_DONE)
        return s.stepError();
    }
    return llvm::Error::success();
  });
  if (e)
    return std::move(e);
  return id;
}

llvm::Expected<std::vector<Study>> SqliteDatabase::selectStudies(const char *where,
                                                                 const std::string *key) {
  std::vector<Study> out;
  {
    std::string sql = std::string("SELECT id, name, options, created_at FROM studies ") + where +
                      " ORDER BY id";
    Statement s(db, sql.c_str());
    if (llvm::Error e = s.status())
      return std::move(e);
    if (key)
      s.bind(1, *key);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
      Study st;
      st.id = s.integer(0);
      st.name = s.text(1);
      st.options = s.text(2);
      st.createdAt = s.real(3);
      out.push_back(std::move(st));
    }
    if (rc != SQLITE_DONE)
      return s.stepError();
  }
  for (Study &st : out) {
    Statement s(db, "SELECT name, module, tasks FROM study_models WHERE study_id = ? "
                    "ORDER BY position");
    if (llvm::Error e = s.status())
      return std::move(e);
    s.bind(1, st.id);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
      llvm::Expected<std::vector<std::pair<std::string, int64_t>>> tasks =
          decodeStudyTasks(s.text(2));
      if (!tasks)
        return tasks.takeError();
      st.models.push_back({s.text(0), s.text(1), std::move(*tasks)});
    }
    if (rc != SQLITE_DONE)
      return s.stepError();
  }
  return out;
}

llvm::Expected<std::optional<Study>> SqliteDatabase::findStudy(const std::string &name) {
  llvm::Expected<std::vector<Study>> found = selectStudies("WHERE name = ?", &name);
  if (!found)
    return found.takeError();
  if (found->empty())
    return std::nullopt;
  return std::move(found->front());
}

llvm::Expected<std::vector<Study>> SqliteDatabase::listStudies() {
  return selectStudies("", nullptr);
}

llvm::Error SqliteDatabase::updateStudyWorker(int64_t studyId, const StudyWorker &w) {
  double t = now();
  Statement s(db, "INSERT INTO study_workers(study_id, owner, device_id, state, model, "
                  "started_at, updated_at, message) VALUES(?,?,?,?,?,?,?,?) "
                  "ON CONFLICT(study_id, owner) DO UPDATE SET device_id = excluded.device_id, "
                  "state = excluded.state, model = excluded.model, updated_at = "
                  "excluded.updated_at, message = excluded.message");
  if (llvm::Error e = s.status())
    return e;
  s.bind(1, studyId);
  s.bind(2, w.owner);
  s.bind(3, w.deviceId);
  s.bind(4, w.state);
  s.bind(5, w.model);
  s.bind(6, w.startedAt > 0 ? w.startedAt : t);
  s.bind(7, w.updatedAt > 0 ? w.updatedAt : t);
  s.bind(8, w.message);
  if (s.step() != SQLITE_DONE)
    return s.stepError();
  return llvm::Error::success();
}

llvm::Expected<bool> SqliteDatabase::addStudyInterval(int64_t studyId, int64_t deviceId,
                                                      const StudyInterval &i) {
  Statement s(db, "INSERT OR IGNORE INTO study_intervals(study_id, device_id, position, "
                  "interval_index, latency_ms, measured, created_at) VALUES(?,?,?,?,?,?,?)");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, studyId);
  s.bind(2, deviceId);
  s.bind(3, i.position);
  s.bind(4, i.interval);
  s.bind(5, i.latencyMs);
  s.bind(6, i.measured);
  s.bind(7, i.createdAt > 0 ? i.createdAt : now());
  if (s.step() != SQLITE_DONE)
    return s.stepError();
  return sqlite3_changes(db) > 0;
}

llvm::Expected<std::vector<StudyInterval>>
SqliteDatabase::listStudyIntervals(int64_t studyId, int64_t deviceId) {
  Statement s(db, "SELECT position, interval_index, latency_ms, measured, created_at FROM "
                  "study_intervals WHERE study_id = ? AND device_id = ? ORDER BY position, "
                  "interval_index");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, studyId);
  s.bind(2, deviceId);
  std::vector<StudyInterval> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW)
    out.push_back({s.integer(0), s.integer(1), s.real(2), s.integer(3), s.real(4)});
  if (rc != SQLITE_DONE)
    return s.stepError();
  return out;
}

llvm::Expected<bool> SqliteDatabase::stopStudyModel(int64_t studyId, int64_t deviceId,
                                                    const StudyModelStop &stop) {
  if (llvm::Error e = checkStudyModelStop(stop))
    return std::move(e);
  // OR IGNORE: a model stopped already, or a second suspension at one
  // synchronisation (the partial unique index), is not an error.
  Statement s(db, "INSERT OR IGNORE INTO study_model_stops(study_id, device_id, position, "
                  "state, interval_index, reason, created_at) VALUES(?,?,?,?,?,?,?)");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, studyId);
  s.bind(2, deviceId);
  s.bind(3, stop.position);
  s.bind(4, stop.state);
  s.bind(5, stop.interval);
  s.bind(6, stop.reason);
  s.bind(7, stop.createdAt > 0 ? stop.createdAt : now());
  if (s.step() != SQLITE_DONE)
    return s.stepError();
  return sqlite3_changes(db) > 0;
}

llvm::Expected<std::vector<StudyModelStop>>
SqliteDatabase::listStudyModelStops(int64_t studyId, int64_t deviceId) {
  Statement s(db, "SELECT position, state, interval_index, reason, created_at FROM "
                  "study_model_stops WHERE study_id = ? AND device_id = ? ORDER BY position");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, studyId);
  s.bind(2, deviceId);
  std::vector<StudyModelStop> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW)
    out.push_back({s.integer(0), s.text(1), s.integer(2), s.text(3), s.real(4)});
  if (rc != SQLITE_DONE)
    return s.stepError();
  return out;
}

llvm::Expected<std::vector<StudyWorker>> SqliteDatabase::listStudyWorkers(int64_t studyId) {
  Statement s(db, "SELECT owner, device_id, state, model, started_at, updated_at, message "
                  "FROM study_workers WHERE study_id = ? ORDER BY started_at, owner");
  if (llvm::Error e = s.status())
    return std::move(e);
  s.bind(1, studyId);
  std::vector<StudyWorker> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW)
    out.push_back({s.text(0), s.integer(1), s.text(2), s.text(3), s.real(4), s.real(5),
                   s.text(6)});
  if (rc != SQLITE_DONE)
    return s.stepError();
  return out;
}

llvm::Error SqliteDatabase::limitFileSize(int64_t bytes) {
  int64_t pageSize = 4096;
  {
    Statement s(db, "PRAGMA page_size");
    if (s.step() == SQLITE_ROW)
      pageSize = std::max<int64_t>(512, s.integer(0));
  }
  std::string sql = "PRAGMA max_page_count = " +
                    std::to_string(std::max<int64_t>(1, bytes / pageSize));
  Statement s(db, sql.c_str());
  if (llvm::Error e = s.status())
    return e;
  int rc = s.step();
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return s.stepError();
  return llvm::Error::success();
}
