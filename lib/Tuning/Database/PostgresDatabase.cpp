//===- PostgresDatabase.cpp - The tuning database on a PostgreSQL server --===//

#include "dltune/Tuning/Database/PostgresDatabase.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <libpq-fe.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

using namespace mlir::dltune;

static double now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool mlir::dltune::isPostgresUrl(llvm::StringRef path) {
  return path.starts_with("postgresql://") || path.starts_with("postgres://");
}

std::string mlir::dltune::redactDatabaseUrl(llvm::StringRef url) {
  std::string out = url.str();
  // scheme://user:password@host...: the password is between the first ':'
  // and the last '@' of the authority.
  size_t start = url.find("://");
  if (start != llvm::StringRef::npos) {
    start += 3;
    size_t authorityEnd = url.find_first_of("/?", start);
    llvm::StringRef authority = url.slice(start, authorityEnd);
    size_t at = authority.rfind('@');
    size_t colon = at == llvm::StringRef::npos ? llvm::StringRef::npos
                                               : authority.substr(0, at).find(':');
    if (colon != llvm::StringRef::npos)
      out = url.substr(0, start + colon + 1).str() + "***" +
            url.substr(start + at).str();
  }
  // A password given as a parameter (?password=...&...) goes too.
  for (size_t p = out.find("password="); p != std::string::npos;
       p = out.find("password=", p + 1)) {
    size_t value = p + 9, end = out.find('&', value);
    out.replace(value, end == std::string::npos ? std::string::npos : end - value, "***");
  }
  return out;
}

struct PostgresDatabase::Connection {
  PGconn *conn = nullptr;
  ~Connection() {
    if (conn)
      PQfinish(conn);
  }
};

namespace {
/// A statement parameter: text, or SQL NULL.
struct Param {
  std::optional<std::string> text;
  Param(const std::string &s) : text(s) {}
  Param(const char *s) : text(std::string(s)) {}
  Param(int64_t v) : text(std::to_string(v)) {}
  Param(int v) : text(std::to_string(v)) {}
  Param(double v) {
    if (std::isnan(v))
      return;
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.17g", v);
    text = buffer;
  }
  static Param null() { return Param(std::nan("")); }
};

/// One result, freed with it.
class Result {
public:
  explicit Result(PGresult *r) : r(r) {}
  Result(Result &&o) noexcept : r(o.r) { o.r = nullptr; }
  Result(const Result &) = delete;
  ~Result() {
    if (r)
      PQclear(r);
  }
  int rows() const { return PQntuples(r); }
  bool isNull(int row, int col) const { return PQgetisnull(r, row, col); }
  std::string text(int row, int col) const {
    return isNull(row, col) ? std::string() : std::string(PQgetvalue(r, row, col));
  }
  double real(int row, int col) const {
    return isNull(row, col) ? NAN : std::strtod(PQgetvalue(r, row, col), nullptr);
  }
  int64_t integer(int row, int col) const {
    return isNull(row, col) ? 0 : std::strtoll(PQgetvalue(r, row, col), nullptr, 10);
  }
  /// Rows an INSERT, UPDATE or DELETE changed.
  int64_t changed() const { return std::strtoll(PQcmdTuples(r), nullptr, 10); }

private:
  PGresult *r;
};

/// The error of a statement whose result is not `wanted`, or success.
llvm::Error checkResult(PGconn *conn, PGresult *raw, ExecStatusType wanted) {
  if (raw && PQresultStatus(raw) == wanted)
    return llvm::Error::success();
  std::string message = raw ? PQresultErrorMessage(raw) : PQerrorMessage(conn);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
    message.pop_back();
  return makeError("database: " + message);
}
} // namespace

/// Runs `sql` with its parameters and the result status it must have
/// (PGRES_TUPLES_OK for rows, PGRES_COMMAND_OK for a command); returns its
/// error from the enclosing function, else names the result `result`.
#define DLTUNE_PG_RUN(result, conn, sql, ...)                                              \
  llvm::Expected<Result> result##OrError = execute(conn, sql, __VA_ARGS__);                \
  if (!result##OrError)                                                                    \
    return result##OrError.takeError();                                                    \
  Result &result = *result##OrError;

static llvm::Expected<Result> execute(PGconn *conn, const std::string &sql,
                                      const std::vector<Param> &params, ExecStatusType wanted) {
  std::vector<const char *> values;
  for (const Param &p : params)
    values.push_back(p.text ? p.text->c_str() : nullptr);
  PGresult *raw = PQexecParams(conn, sql.c_str(), static_cast<int>(values.size()), nullptr,
                               values.data(), nullptr, nullptr, 0);
  Result result(raw);
  if (llvm::Error e = checkResult(conn, raw, wanted))
    return std::move(e);
  return result;
}

static llvm::Error command(PGconn *conn, const std::string &sql,
                           const std::vector<Param> &params = {}) {
  llvm::Expected<Result> r = execute(conn, sql, params, PGRES_COMMAND_OK);
  return r ? llvm::Error::success() : r.takeError();
}

static constexpr int kSchemaVersion = Database::kSchemaVersion;
// One advisory lock id for creating the schema: two processes opening a
// fresh database at once create it once.
static constexpr const char *kSchemaLock = "SELECT pg_advisory_xact_lock(1684829301)";

static constexpr const char *kSchema =
    "CREATE TABLE dltune_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE devices(id BIGSERIAL PRIMARY KEY, fingerprint TEXT UNIQUE NOT NULL, "
    "name TEXT, json TEXT);"
    "CREATE TABLE tasks(id BIGSERIAL PRIMARY KEY, hash TEXT UNIQUE NOT NULL, op_kind TEXT, "
    "target TEXT, shapes TEXT, element_types TEXT, space TEXT, source TEXT);"
    "CREATE TABLE records(id BIGSERIAL PRIMARY KEY, task_id BIGINT NOT NULL REFERENCES "
    "tasks(id), device_id BIGINT NOT NULL REFERENCES devices(id), config TEXT NOT NULL, "
    "status TEXT NOT NULL, time_ms DOUBLE PRECISION, min_ms DOUBLE PRECISION, max_ms DOUBLE "
    "PRECISION, stddev_ms DOUBLE PRECISION, repeats BIGINT, noisy BIGINT, error TEXT, build_s "
    "DOUBLE PRECISION, run_s DOUBLE PRECISION, source TEXT, created_at DOUBLE PRECISION, "
    "energy_j DOUBLE PRECISION, generator TEXT, cut_off BIGINT, gpu_resources TEXT, "
    "UNIQUE(task_id, device_id, config));"
    "CREATE INDEX records_by_task ON records(task_id, device_id, status, time_ms);"
    "CREATE TABLE baselines(task_id BIGINT NOT NULL REFERENCES tasks(id), device_id BIGINT "
    "NOT NULL REFERENCES devices(id), untuned_ms DOUBLE PRECISION, PRIMARY KEY(task_id, "
    "device_id));"
    "CREATE TABLE confirmations(id BIGSERIAL PRIMARY KEY, task_id BIGINT NOT NULL REFERENCES "
    "tasks(id), device_id BIGINT NOT NULL REFERENCES devices(id), config TEXT NOT NULL, "
    "rounds BIGINT, median_ms DOUBLE PRECISION, min_ms DOUBLE PRECISION, max_ms DOUBLE "
    "PRECISION, generator TEXT, created_at DOUBLE PRECISION);"
    "CREATE INDEX confirmations_by_task ON confirmations(task_id, device_id, created_at);"
    "CREATE TABLE replaced_records(seq BIGSERIAL PRIMARY KEY, task_id BIGINT NOT NULL, "
    "device_id BIGINT NOT NULL, config TEXT NOT NULL, status TEXT NOT NULL, time_ms DOUBLE "
    "PRECISION, min_ms DOUBLE PRECISION, max_ms DOUBLE PRECISION, stddev_ms DOUBLE PRECISION, "
    "repeats BIGINT, noisy BIGINT, error TEXT, build_s DOUBLE PRECISION, run_s DOUBLE "
    "PRECISION, source TEXT, created_at DOUBLE PRECISION, energy_j DOUBLE PRECISION, generator "
    "TEXT, cut_off BIGINT, gpu_resources TEXT, replaced_at DOUBLE PRECISION, reason TEXT);"
    "CREATE TABLE claims(task_id BIGINT NOT NULL REFERENCES tasks(id), device_id BIGINT NOT "
    "NULL REFERENCES devices(id), config TEXT NOT NULL, owner TEXT NOT NULL, expires_at DOUBLE "
    "PRECISION NOT NULL, PRIMARY KEY(task_id, device_id, config));"
    "CREATE TABLE task_notes(id BIGSERIAL PRIMARY KEY, task_id BIGINT NOT NULL REFERENCES "
    "tasks(id), device_id BIGINT NOT NULL REFERENCES devices(id), kind TEXT NOT NULL, message "
    "TEXT NOT NULL, created_at DOUBLE PRECISION);"
    "CREATE INDEX task_notes_by_task ON task_notes(task_id, device_id, created_at);"
    "CREATE TABLE model_latencies(id BIGSERIAL PRIMARY KEY, device_id BIGINT NOT NULL "
    "REFERENCES devices(id), model TEXT NOT NULL, entry TEXT NOT NULL, default_ms DOUBLE "
    "PRECISION, tuned_ms DOUBLE PRECISION, checked BIGINT NOT NULL, created_at DOUBLE "
    "PRECISION);";

// Version 5 -> 6 (also part of a new schema): studies and their workers.
static constexpr const char *kStudyTables =
    "CREATE TABLE studies(id BIGSERIAL PRIMARY KEY, name TEXT UNIQUE NOT NULL, options TEXT "
    "NOT NULL, created_at DOUBLE PRECISION);"
    "CREATE TABLE study_models(study_id BIGINT NOT NULL REFERENCES studies(id), position "
    "BIGINT NOT NULL, name TEXT NOT NULL, module TEXT NOT NULL, tasks TEXT NOT NULL, PRIMARY "
    "KEY(study_id, position), UNIQUE(study_id, name));"
    "CREATE TABLE study_workers(study_id BIGINT NOT NULL REFERENCES studies(id), owner TEXT "
    "NOT NULL, device_id BIGINT, state TEXT NOT NULL, model TEXT, started_at DOUBLE "
    "PRECISION, updated_at DOUBLE PRECISION, message TEXT, PRIMARY KEY(study_id, owner));";

// Version 6 -> 7 (also part of a new schema): Trimmer's suspension in live
// studies, as SqliteDatabase.cpp's migration says.
static constexpr const char *kStudySuspensionTables =
    "CREATE TABLE study_intervals(study_id BIGINT NOT NULL REFERENCES studies(id), device_id "
    "BIGINT NOT NULL REFERENCES devices(id), position BIGINT NOT NULL, interval_index BIGINT "
    "NOT NULL, latency_ms DOUBLE PRECISION, measured BIGINT NOT NULL, created_at DOUBLE "
    "PRECISION, PRIMARY KEY(study_id, device_id, position, interval_index));"
    "CREATE TABLE study_model_stops(study_id BIGINT NOT NULL REFERENCES studies(id), device_id "
    "BIGINT NOT NULL REFERENCES devices(id), position BIGINT NOT NULL, state TEXT NOT NULL "
    "CHECK(state IN ('suspended', 'done')), interval_index BIGINT NOT NULL, reason TEXT, "
    "created_at DOUBLE PRECISION, PRIMARY KEY(study_id, device_id, position));"
    "CREATE UNIQUE INDEX study_one_suspension_per_sync ON study_model_stops(study_id, "
    "device_id, interval_index) WHERE state = 'suspended';";

// Version 7 -> 8 (also part of a new schema): each candidate's metered
// energy, as SqliteDatabase.cpp's migration says.
static constexpr const char *kCandidateEnergyColumns =
    "ALTER TABLE records ADD COLUMN IF NOT EXISTS candidate_energy_j DOUBLE PRECISION;"
    "ALTER TABLE replaced_records ADD COLUMN IF NOT EXISTS candidate_energy_j DOUBLE "
    "PRECISION;";

PostgresDatabase::PostgresDatabase() : connection(std::make_unique<Connection>()) {}
PostgresDatabase::~PostgresDatabase() = default;

llvm::Expected<std::unique_ptr<PostgresDatabase>>
PostgresDatabase::open(const std::string &url, bool create) {
  return connect(url, create, /*readOnly=*/false);
}

llvm::Expected<std::unique_ptr<PostgresDatabase>>
PostgresDatabase::openReadOnly(const std::string &url) {
  return connect(url, /*create=*/false, /*readOnly=*/true);
}

llvm::Expected<std::unique_ptr<PostgresDatabase>>
PostgresDatabase::connect(const std::string &url, bool create, bool readOnly) {
  std::unique_ptr<PostgresDatabase> d(new PostgresDatabase());
  d->redactedUrl = redactDatabaseUrl(url);
  d->connection->conn = PQconnectdb(url.c_str());
  PGconn *conn = d->connection->conn;
  if (!conn || PQstatus(conn) != CONNECTION_OK) {
    std::string why = conn ? PQerrorMessage(conn) : "out of memory";
    while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
      why.pop_back();
    return makeError("cannot connect to the database '" + d->redactedUrl + "': " + why);
  }
  // Notices (CREATE TABLE's implicit index messages) are not the user's.
  PQsetNoticeProcessor(conn, [](void *, const char *) {}, nullptr);
  if (readOnly)
    if (llvm::Error e = command(conn, "SET default_transaction_read_only = on"))
      return std::move(e);
  // What the database holds: dltune's tables (and which version), another
  // program's tables, or nothing.
  auto inspect = [&](int &version, std::string &application, int64_t &tables) -> llvm::Error {
    DLTUNE_PG_RUN(r, conn,
                  "SELECT to_regclass('dltune_meta') IS NOT NULL, (SELECT count(*) FROM "
                  "pg_tables WHERE schemaname = current_schema())",
                  {}, PGRES_TUPLES_OK);
    bool hasMeta = r.text(0, 0) == "t";
    tables = r.integer(0, 1);
    version = 0;
    application.clear();
    if (!hasMeta)
      return llvm::Error::success();
    DLTUNE_PG_RUN(m, conn, "SELECT key, value FROM dltune_meta", {}, PGRES_TUPLES_OK);
    for (int i = 0; i < m.rows(); ++i) {
      if (m.text(i, 0) == "schema_version")
        version = std::atoi(m.text(i, 1).c_str());
      else if (m.text(i, 0) == "application")
        application = m.text(i, 1);
    }
    return llvm::Error::success();
  };
  int version = 0;
  std::string application;
  int64_t tables = 0;
  if (llvm::Error e = inspect(version, application, tables))
    return std::move(e);
  auto checkHeld = [&]() -> llvm::Error {
    if (!application.empty() && application != "dltune")
      return makeError("the database '" + d->redactedUrl + "' belongs to '" + application +
                       "', not dltune; it was not modified");
    if (version == 0 && tables > 0)
      return makeError("the database '" + d->redactedUrl +
                       "' holds tables of another program, not a dltune database; it was not "
                       "modified");
    if (version > kSchemaVersion)
      return makeError("the database '" + d->redactedUrl + "' has schema version " +
                       llvm::Twine(version) + ", newer than this dltune (" +
                       llvm::Twine(kSchemaVersion) + ")");
    return llvm::Error::success();
  };
  if (llvm::Error e = checkHeld())
    return std::move(e);
  if (version == 0) {
    if (readOnly || !create)
      return makeError("the database '" + d->redactedUrl + "' holds no dltune database");
    // Created under a lock, after looking again: another process may have
    // created it meanwhile.
    llvm::Error e = d->transaction([&]() -> llvm::Error {
      if (llvm::Expected<Result> lock = execute(conn, kSchemaLock, {}, PGRES_TUPLES_OK); !lock)
        return lock.takeError();
      if (llvm::Error e = inspect(version, application, tables))
        return e;
      if (llvm::Error e = checkHeld())
        return e;
      if (version != 0)
        return llvm::Error::success();
      if (llvm::Error e = d->createSchema())
        return e;
      version = kSchemaVersion;
      return llvm::Error::success();
    });
    if (e)
      return std::move(e);
  }
  // PostgreSQL came with version 5; later versions add tables, under the
  // schema lock so that workers starting at once migrate once.
  if (version < kSchemaVersion) {
    if (readOnly)
      return makeError("the database '" + d->redactedUrl + "' has schema version " +
                       llvm::Twine(version) + ", older than this dltune's " +
                       llvm::Twine(kSchemaVersion) +
                       "; it is read without changing it, so migrate it first (for example "
                       "`dltune db summary --db URL`)");
    llvm::Error e = d->transaction([&]() -> llvm::Error {
      if (llvm::Expected<Result> lock = execute(conn, kSchemaLock, {}, PGRES_TUPLES_OK); !lock)
        return lock.takeError();
      if (llvm::Error e = inspect(version, application, tables))
        return e;
      if (version >= kSchemaVersion)
        return llvm::Error::success();
      // 5 -> 6 adds the study tables, 6 -> 7 the suspension tables, 7 -> 8
      // the candidates' metered energy.
      std::vector<const char *> steps;
      if (version < 6)
        steps.push_back(kStudyTables);
      if (version < 7)
        steps.push_back(kStudySuspensionTables);
      steps.push_back(kCandidateEnergyColumns);
      for (const char *sql : steps) {
        PGresult *raw = PQexec(conn, sql);
        Result created(raw);
        if (llvm::Error e = checkResult(conn, raw, PGRES_COMMAND_OK))
          return e;
      }
      if (llvm::Error e = command(conn,
                                  "UPDATE dltune_meta SET value = $1 WHERE key = "
                                  "'schema_version'",
                                  {Param(std::to_string(kSchemaVersion))}))
        return e;
      version = kSchemaVersion;
      return llvm::Error::success();
    });
    if (e)
      return std::move(e);
  }
  d->schemaVersion = version;
  return d;
}

llvm::Error PostgresDatabase::createSchema() {
  PGconn *conn = connection->conn;
  // A multi-statement string runs through PQexec (no parameters).
  for (const char *sql :
       {kSchema, kStudyTables, kStudySuspensionTables, kCandidateEnergyColumns}) {
    PGresult *raw = PQexec(conn, sql);
    Result created(raw);
    if (llvm::Error e = checkResult(conn, raw, PGRES_COMMAND_OK))
      return e;
  }
  return command(conn,
                 "INSERT INTO dltune_meta(key, value) VALUES('application', 'dltune'), "
                 "('schema_version', $1)",
                 {Param(std::to_string(kSchemaVersion))});
}

llvm::Error PostgresDatabase::transaction(const std::function<llvm::Error()> &fn) {
  PGconn *conn = connection->conn;
  if (transactionDepth > 0)
    return fn();
  if (llvm::Error e = command(conn, "BEGIN"))
    return e;
  ++transactionDepth;
  llvm::Error result = fn();
  --transactionDepth;
  if (result) {
    llvm::consumeError(command(conn, "ROLLBACK"));
    return result;
  }
  return command(conn, "COMMIT");
}

static constexpr const char *kTaskColumns =
    "id, hash, op_kind, target, shapes, element_types, space, source";

static TaskRecord readTask(const Result &r, int row) {
  return {r.integer(row, 0), r.text(row, 1), r.text(row, 2), r.text(row, 3),
          r.text(row, 4),    r.text(row, 5), r.text(row, 6), r.text(row, 7)};
}

llvm::Expected<int64_t> PostgresDatabase::getOrCreateTask(const TaskRecord &t) {
  PGconn *conn = connection->conn;
  if (llvm::Error e = command(conn,
                              "INSERT INTO tasks(hash, op_kind, target, shapes, element_types, "
                              "space, source) VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT "
                              "(hash) DO NOTHING",
                              {t.hash, t.opKind, t.target, t.shapes, t.elementTypes, t.space,
                               t.source}))
    return std::move(e);
  DLTUNE_PG_RUN(r, conn, "SELECT id FROM tasks WHERE hash = $1", {t.hash}, PGRES_TUPLES_OK);
  if (r.rows() != 1)
    return makeError("database: task " + t.hash + " was not stored");
  return r.integer(0, 0);
}

llvm::Expected<std::optional<TaskRecord>> PostgresDatabase::findTask(const std::string &hash) {
  DLTUNE_PG_RUN(r, connection->conn,
                std::string("SELECT ") + kTaskColumns + " FROM tasks WHERE hash = $1", {hash},
                PGRES_TUPLES_OK);
  if (r.rows() == 0)
    return std::optional<TaskRecord>();
  return std::optional<TaskRecord>(readTask(r, 0));
}

llvm::Expected<std::vector<TaskRecord>> PostgresDatabase::listTasks() {
  DLTUNE_PG_RUN(r, connection->conn,
                std::string("SELECT ") + kTaskColumns + " FROM tasks ORDER BY id", {},
                PGRES_TUPLES_OK);
  std::vector<TaskRecord> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back(readTask(r, i));
  return out;
}

llvm::Expected<int64_t> PostgresDatabase::getOrCreateDevice(const DeviceRecord &d) {
  PGconn *conn = connection->conn;
  if (llvm::Error e = command(conn,
                              "INSERT INTO devices(fingerprint, name, json) VALUES($1, $2, $3) "
                              "ON CONFLICT (fingerprint) DO NOTHING",
                              {d.fingerprint, d.name, d.json}))
    return std::move(e);
  DLTUNE_PG_RUN(r, conn, "SELECT id FROM devices WHERE fingerprint = $1", {d.fingerprint},
                PGRES_TUPLES_OK);
  if (r.rows() != 1)
    return makeError("database: device " + d.fingerprint + " was not stored");
  return r.integer(0, 0);
}

llvm::Expected<std::vector<DeviceRecord>> PostgresDatabase::listDevices() {
  DLTUNE_PG_RUN(r, connection->conn, "SELECT id, fingerprint, name, json FROM devices ORDER BY id",
                {}, PGRES_TUPLES_OK);
  std::vector<DeviceRecord> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back({r.integer(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3)});
  return out;
}

static constexpr const char *kRecordColumns =
    "config, status, time_ms, min_ms, max_ms, stddev_ms, repeats, noisy, error, "
    "build_s, run_s, source, created_at, energy_j, generator, cut_off, gpu_resources, "
    "candidate_energy_j";

llvm::Expected<bool> PostgresDatabase::commitRecord(int64_t taskId, int64_t deviceId,
                                                    const MeasureRecord &r) {
  std::string gpu;
  if (!r.gpuResources.empty()) {
    llvm::raw_string_ostream os(gpu);
    os << llvm::json::Value(toJSON(r.gpuResources));
  }
  std::vector<Param> params = {taskId,
                               deviceId,
                               r.config,
                               toString(r.status).str(),
                               r.timeMs,
                               r.minMs,
                               r.maxMs,
                               r.stddevMs,
                               static_cast<int64_t>(r.repeats),
                               static_cast<int64_t>(r.noisy),
                               r.error,
                               r.buildSeconds,
                               r.runSeconds,
                               r.source,
                               r.createdAt > 0 ? r.createdAt : now(),
                               r.energyJ ? Param(*r.energyJ) : Param::null(),
                               r.generator.empty() ? Param::null() : Param(r.generator),
                               static_cast<int64_t>(r.cutOff),
                               gpu.empty() ? Param::null() : Param(gpu),
                               r.candidateEnergyJ ? Param(*r.candidateEnergyJ) : Param::null()};
  DLTUNE_PG_RUN(result, connection->conn,
                "INSERT INTO records(task_id, device_id, config, status, time_ms, min_ms, "
                "max_ms, stddev_ms, repeats, noisy, error, build_s, run_s, source, created_at, "
                "energy_j, generator, cut_off, gpu_resources, candidate_energy_j) VALUES($1, $2, "
                "$3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, "
                "$20) ON CONFLICT "
                "(task_id, device_id, config) DO NOTHING",
                params, PGRES_COMMAND_OK);
  return result.changed() > 0;
}

static llvm::Expected<MeasureRecord> readRecord(const Result &s, int row) {
  MeasureRecord r;
  r.config = s.text(row, 0);
  llvm::Expected<MeasureStatus> status = parseMeasureStatusOrError(s.text(row, 1));
  if (!status)
    return makeError("record of configuration '" + r.config +
                     "': " + llvm::toString(status.takeError()));
  r.status = *status;
  r.timeMs = s.real(row, 2);
  r.minMs = s.real(row, 3);
  r.maxMs = s.real(row, 4);
  r.stddevMs = s.real(row, 5);
  r.repeats = static_cast<int>(s.integer(row, 6));
  r.noisy = s.integer(row, 7) != 0;
  r.error = s.text(row, 8);
  r.buildSeconds = s.real(row, 9);
  r.runSeconds = s.real(row, 10);
  r.source = s.text(row, 11);
  r.createdAt = s.real(row, 12);
  if (!s.isNull(row, 13))
    r.energyJ = s.real(row, 13);
  r.generator = s.text(row, 14);
  r.cutOff = s.integer(row, 15) != 0;
  if (!s.isNull(row, 16)) {
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(s.text(row, 16));
    if (!v)
      return makeError("record of configuration '" + r.config +
                       "': unreadable gpu_resources: " + llvm::toString(v.takeError()));
    llvm::Expected<std::vector<GpuKernelResources>> resources = gpuResourcesFromJSON(*v);
    if (!resources)
      return resources.takeError();
    r.gpuResources = std::move(*resources);
  }
  if (!s.isNull(row, 17))
    r.candidateEnergyJ = s.real(row, 17);
  return r;
}

static llvm::Expected<std::vector<MeasureRecord>> readRecords(const Result &s) {
  std::vector<MeasureRecord> out;
  for (int i = 0; i < s.rows(); ++i) {
    llvm::Expected<MeasureRecord> r = readRecord(s, i);
    if (!r)
      return r.takeError();
    out.push_back(std::move(*r));
  }
  return out;
}

llvm::Expected<std::vector<MeasureRecord>> PostgresDatabase::getRecords(int64_t taskId,
                                                                        int64_t deviceId) {
  DLTUNE_PG_RUN(r, connection->conn,
                std::string("SELECT ") + kRecordColumns +
                    " FROM records WHERE task_id = $1 AND ($2::bigint = 0 OR device_id = $2::bigint) ORDER BY id",
                {taskId, deviceId}, PGRES_TUPLES_OK);
  return readRecords(r);
}

llvm::Expected<std::optional<MeasureRecord>> PostgresDatabase::getBest(int64_t taskId,
                                                                       int64_t deviceId) {
  PGconn *conn = connection->conn;
  // A confirmed best first, as in the SQLite file (SqliteDatabase::getBest).
  llvm::Expected<std::vector<Confirmation>> confirmed = getLatestConfirmations(taskId, deviceId);
  if (!confirmed)
    return confirmed.takeError();
  if (!confirmed->empty()) {
    const Confirmation &c = confirmed->front();
    DLTUNE_PG_RUN(r, conn,
                  std::string("SELECT ") + kRecordColumns +
                      " FROM records WHERE task_id = $1 AND ($2::bigint = 0 OR device_id = $2::bigint) AND "
                      "config = $3 ORDER BY id LIMIT 1",
                  {taskId, deviceId, c.config}, PGRES_TUPLES_OK);
    MeasureRecord stored;
    if (r.rows() > 0) {
      llvm::Expected<MeasureRecord> record = readRecord(r, 0);
      if (!record)
        return record.takeError();
      stored = std::move(*record);
    }
    return std::optional<MeasureRecord>(makeConfirmedBest(std::move(stored), c));
  }
  DLTUNE_PG_RUN(r, conn,
                std::string("SELECT ") + kRecordColumns +
                    " FROM records WHERE task_id = $1 AND ($2::bigint = 0 OR device_id = $2::bigint) AND status "
                    "= 'ok' AND time_ms > 0 AND coalesce(cut_off, 0) = 0 AND " +
                    kUnconfirmedBestRank,
                {taskId, deviceId}, PGRES_TUPLES_OK);
  if (r.rows() == 0)
    return std::optional<MeasureRecord>();
  llvm::Expected<MeasureRecord> record = readRecord(r, 0);
  if (!record)
    return record.takeError();
  return std::optional<MeasureRecord>(std::move(*record));
}

llvm::Error PostgresDatabase::commitConfirmations(int64_t taskId, int64_t deviceId,
                                                  const std::vector<Confirmation> &confirmations) {
  double created = now();
  return transaction([&]() -> llvm::Error {
    for (const Confirmation &c : confirmations)
      if (llvm::Error e = command(connection->conn,
                                  "INSERT INTO confirmations(task_id, device_id, config, rounds, "
                                  "median_ms, min_ms, max_ms, generator, created_at) "
                                  "VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                                  {taskId, deviceId, c.config, static_cast<int64_t>(c.rounds),
                                   c.medianMs, c.minMs, c.maxMs, c.generator,
                                   c.createdAt > 0 ? c.createdAt : created}))
        return e;
    return llvm::Error::success();
  });
}

static llvm::Expected<std::vector<Confirmation>>
selectConfirmations(PGconn *conn, int64_t taskId, int64_t deviceId, const std::string &filter) {
  DLTUNE_PG_RUN(r, conn,
                "SELECT config, rounds, median_ms, min_ms, max_ms, generator, created_at FROM "
                "confirmations WHERE task_id = $1 AND ($2::bigint = 0 OR device_id = $2::bigint) " +
                    filter,
                {taskId, deviceId}, PGRES_TUPLES_OK);
  std::vector<Confirmation> out;
  for (int i = 0; i < r.rows(); ++i) {
    Confirmation c;
    c.config = r.text(i, 0);
    c.rounds = static_cast<int>(r.integer(i, 1));
    c.medianMs = r.real(i, 2);
    c.minMs = r.real(i, 3);
    c.maxMs = r.real(i, 4);
    c.generator = r.text(i, 5);
    c.createdAt = r.real(i, 6);
    out.push_back(std::move(c));
  }
  return out;
}

llvm::Expected<std::vector<Confirmation>>
PostgresDatabase::getLatestConfirmations(int64_t taskId, int64_t deviceId) {
  return selectConfirmations(connection->conn, taskId, deviceId,
                             "AND created_at = (SELECT max(created_at) FROM confirmations "
                             "WHERE task_id = $1 AND ($2::bigint = 0 OR device_id = $2::bigint)) AND median_ms "
                             "IS NOT NULL ORDER BY median_ms ASC, id ASC");
}

llvm::Expected<std::vector<Confirmation>> PostgresDatabase::listConfirmations(int64_t taskId,
                                                                              int64_t deviceId) {
  return selectConfirmations(connection->conn, taskId, deviceId,
                             "ORDER BY created_at ASC, id ASC");
}

llvm::Expected<int64_t> PostgresDatabase::forget(const ForgetFilter &f, const std::string &reason) {
  double cutoff = now() - f.olderThanSeconds;
  // One WHERE clause for the copy and the deletes, so they select the same
  // rows; its parameters follow the statement's own (`first` of them).
  auto buildWhere = [&](std::vector<Param> &params) {
    auto next = [&](Param p) {
      params.push_back(std::move(p));
      return "$" + std::to_string(params.size());
    };
    std::string where = "TRUE";
    if (!f.taskHash.empty())
      where += " AND task_id IN (SELECT id FROM tasks WHERE hash = " + next(f.taskHash) + ")";
    if (!f.status.empty())
      where += " AND status = " + next(f.status) + "::text";
    if (f.olderThanSeconds > 0)
      where += " AND created_at < " + next(cutoff) + "::double precision";
    if (f.deviceId)
      where += " AND device_id = " + next(f.deviceId) + "::bigint";
    if (!f.errorContains.empty()) {
      where += " AND (FALSE";
      for (const std::string &marker : f.errorContains)
        where += " OR strpos(coalesce(error, ''), " + next(marker) + "::text) > 0";
      where += ")";
    }
    return where;
  };
  int64_t moved = 0;
  llvm::Error e = transaction([&]() -> llvm::Error {
    std::string columns = std::string("task_id, device_id, ") + kRecordColumns;
    std::vector<Param> copyParams = {now(), reason};
    std::string copyWhere = buildWhere(copyParams);
    DLTUNE_PG_RUN(copied, connection->conn,
                  "INSERT INTO replaced_records(" + columns + ", replaced_at, reason) SELECT " +
                      columns + ", $1::double precision, $2::text FROM records WHERE " +
                      copyWhere + " ORDER BY id",
                  copyParams, PGRES_COMMAND_OK);
    moved = copied.changed();
    std::vector<Param> params;
    std::string where = buildWhere(params);
    // A confirmation ranks records that are gone: dropped with them.
    if (llvm::Error e = command(connection->conn,
                                "DELETE FROM confirmations WHERE EXISTS (SELECT 1 FROM records "
                                "WHERE " + where +
                                    " AND records.task_id = confirmations.task_id AND "
                                    "records.device_id = confirmations.device_id)",
                                params))
      return e;
    return command(connection->conn, "DELETE FROM records WHERE " + where, params);
  });
  if (e)
    return std::move(e);
  return moved;
}

llvm::Expected<std::vector<MeasureRecord>> PostgresDatabase::getReplacedRecords(int64_t taskId) {
  DLTUNE_PG_RUN(r, connection->conn,
                std::string("SELECT ") + kRecordColumns +
                    " FROM replaced_records WHERE task_id = $1 ORDER BY replaced_at, seq",
                {taskId}, PGRES_TUPLES_OK);
  return readRecords(r);
}

llvm::Error PostgresDatabase::setBaseline(int64_t taskId, int64_t deviceId, double ms) {
  return command(connection->conn,
                 "INSERT INTO baselines(task_id, device_id, untuned_ms) VALUES($1, $2, $3) ON "
                 "CONFLICT (task_id, device_id) DO UPDATE SET untuned_ms = EXCLUDED.untuned_ms",
                 {taskId, deviceId, ms});
}

llvm::Expected<std::optional<double>> PostgresDatabase::getBaseline(int64_t taskId,
                                                                    int64_t deviceId) {
  DLTUNE_PG_RUN(r, connection->conn,
                "SELECT untuned_ms FROM baselines WHERE task_id = $1 AND device_id = $2",
                {taskId, deviceId}, PGRES_TUPLES_OK);
  if (r.rows() == 0)
    return std::optional<double>();
  return std::optional<double>(r.real(0, 0));
}

llvm::Expected<std::vector<ClaimOutcome>>
PostgresDatabase::claim(int64_t taskId, int64_t deviceId, const std::vector<std::string> &configs,
                        const std::string &owner, double leaseSeconds) {
  std::vector<ClaimOutcome> out;
  PGconn *conn = connection->conn;
  llvm::Error e = transaction([&]() -> llvm::Error {
    double t = now();
    for (const std::string &config : configs) {
      DLTUNE_PG_RUN(measured, conn,
                    "SELECT 1 FROM records WHERE task_id = $1 AND device_id = $2 AND config = $3",
                    {taskId, deviceId, config}, PGRES_TUPLES_OK);
      if (measured.rows() > 0) {
        out.push_back(ClaimOutcome::Measured);
        continue;
      }
      // Inserts, renews our own claim, or takes over an expired one; an
      // unexpired claim of another owner stays. The conflicting row is
      // locked until the transaction ends, so two workers never both win.
      DLTUNE_PG_RUN(claimed, conn,
                    "INSERT INTO claims(task_id, device_id, config, owner, expires_at) "
                    "VALUES($1, $2, $3, $4, $5) ON CONFLICT (task_id, device_id, config) DO "
                    "UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE "
                    "claims.owner = EXCLUDED.owner OR claims.expires_at <= $6",
                    {taskId, deviceId, config, owner, t + leaseSeconds, t}, PGRES_COMMAND_OK);
      out.push_back(claimed.changed() > 0 ? ClaimOutcome::Claimed : ClaimOutcome::Taken);
    }
    return llvm::Error::success();
  });
  if (e)
    return std::move(e);
  return out;
}

llvm::Error PostgresDatabase::releaseClaims(const std::string &owner) {
  return command(connection->conn, "DELETE FROM claims WHERE owner = $1", {owner});
}

llvm::Error PostgresDatabase::addTaskNote(int64_t taskId, int64_t deviceId, const TaskNote &n) {
  return command(connection->conn,
                 "INSERT INTO task_notes(task_id, device_id, kind, message, created_at) "
                 "VALUES($1, $2, $3, $4, $5)",
                 {taskId, deviceId, n.kind, n.message, n.createdAt > 0 ? n.createdAt : now()});
}

llvm::Expected<std::vector<TaskNote>> PostgresDatabase::listTaskNotes(int64_t taskId,
                                                                      int64_t deviceId) {
  DLTUNE_PG_RUN(r, connection->conn,
                "SELECT kind, message, created_at FROM task_notes WHERE task_id = $1 AND "
                "device_id = $2 ORDER BY created_at, id",
                {taskId, deviceId}, PGRES_TUPLES_OK);
  std::vector<TaskNote> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back({r.text(i, 0), r.text(i, 1), r.real(i, 2)});
  return out;
}

llvm::Error PostgresDatabase::addModelLatency(int64_t deviceId, const ModelLatency &m) {
  return command(connection->conn,
                 "INSERT INTO model_latencies(device_id, model, entry, default_ms, tuned_ms, "
                 "checked, created_at) VALUES($1, $2, $3, $4, $5, $6, $7)",
                 {deviceId, m.model, m.entry, m.defaultMs, m.tunedMs,
                  static_cast<int64_t>(m.checked), m.createdAt > 0 ? m.createdAt : now()});
}

llvm::Expected<std::vector<ModelLatency>> PostgresDatabase::listModelLatencies(int64_t deviceId) {
  DLTUNE_PG_RUN(r, connection->conn,
                "SELECT model, entry, default_ms, tuned_ms, checked, created_at FROM "
                "model_latencies WHERE device_id = $1 ORDER BY created_at, id",
                {deviceId}, PGRES_TUPLES_OK);
  std::vector<ModelLatency> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back({r.text(i, 0), r.text(i, 1), r.real(i, 2), r.real(i, 3), r.integer(i, 4) != 0,
                   r.real(i, 5)});
  return out;
}

llvm::Expected<int64_t> PostgresDatabase::createStudy(const Study &study) {
  if (llvm::Error e = checkNewStudy(study))
    return std::move(e);
  int64_t id = 0;
  llvm::Error e = transaction([&]() -> llvm::Error {
    PGconn *conn = connection->conn;
    DLTUNE_PG_RUN(r, conn,
                  "INSERT INTO studies(name, options, created_at) VALUES($1, $2, $3) "
                  "ON CONFLICT (name) DO NOTHING RETURNING id",
                  {study.name, study.options, study.createdAt > 0 ? study.createdAt : now()},
                  PGRES_TUPLES_OK);
    if (r.rows() == 0)
      return makeError("a study named '" + study.name + "' exists already");
    id = r.integer(0, 0);
    for (size_t i = 0; i < study.models.size(); ++i) {
      const StudyModel &m = study.models[i];
      if (llvm::Error e = command(conn,
                                  "INSERT INTO study_models(study_id, position, name, module, "
                                  "tasks) VALUES($1, $2, $3, $4, $5)",
                                  {id, static_cast<int64_t>(i), m.name, m.module,
                                   encodeStudyTasks(m.tasks)}))
        return e;
    }
    return llvm::Error::success();
  });
  if (e)
    return std::move(e);
  return id;
}

llvm::Expected<std::vector<Study>> PostgresDatabase::selectStudies(const std::string &where,
                                                                   const std::vector<std::string> &keys) {
  PGconn *conn = connection->conn;
  std::vector<Param> params(keys.begin(), keys.end());
  DLTUNE_PG_RUN(r, conn,
                "SELECT id, name, options, created_at FROM studies " + where + " ORDER BY id",
                params, PGRES_TUPLES_OK);
  std::vector<Study> out;
  for (int i = 0; i < r.rows(); ++i) {
    Study st;
    st.id = r.integer(i, 0);
    st.name = r.text(i, 1);
    st.options = r.text(i, 2);
    st.createdAt = r.real(i, 3);
    DLTUNE_PG_RUN(m, conn,
                  "SELECT name, module, tasks FROM study_models WHERE study_id = $1 ORDER BY "
                  "position",
                  {st.id}, PGRES_TUPLES_OK);
    for (int j = 0; j < m.rows(); ++j) {
      llvm::Expected<std::vector<std::pair<std::string, int64_t>>> tasks =
          decodeStudyTasks(m.text(j, 2));
      if (!tasks)
        return tasks.takeError();
      st.models.push_back({m.text(j, 0), m.text(j, 1), std::move(*tasks)});
    }
    out.push_back(std::move(st));
  }
  return out;
}

llvm::Expected<std::optional<Study>> PostgresDatabase::findStudy(const std::string &name) {
  llvm::Expected<std::vector<Study>> found = selectStudies("WHERE name = $1", {name});
  if (!found)
    return found.takeError();
  if (found->empty())
    return std::nullopt;
  return std::move(found->front());
}

llvm::Expected<std::vector<Study>> PostgresDatabase::listStudies() {
  return selectStudies("", {});
}

llvm::Error PostgresDatabase::updateStudyWorker(int64_t studyId, const StudyWorker &w) {
  double t = now();
  return command(connection->conn,
                 "INSERT INTO study_workers(study_id, owner, device_id, state, model, "
                 "started_at, updated_at, message) VALUES($1, $2, $3, $4, $5, $6, $7, $8) "
                 "ON CONFLICT (study_id, owner) DO UPDATE SET device_id = EXCLUDED.device_id, "
                 "state = EXCLUDED.state, model = EXCLUDED.model, updated_at = "
                 "EXCLUDED.updated_at, message = EXCLUDED.message",
                 {studyId, w.owner, w.deviceId, w.state, w.model,
                  w.startedAt > 0 ? w.startedAt : t, w.updatedAt > 0 ? w.updatedAt : t,
                  w.message});
}

llvm::Expected<bool> PostgresDatabase::addStudyInterval(int64_t studyId, int64_t deviceId,
                                                        const StudyInterval &i) {
  DLTUNE_PG_RUN(r, connection->conn,
                "INSERT INTO study_intervals(study_id, device_id, position, interval_index, "
                "latency_ms, measured, created_at) VALUES($1, $2, $3, $4, $5, $6, $7) ON "
                "CONFLICT DO NOTHING",
                {studyId, deviceId, i.position, i.interval, i.latencyMs, i.measured,
                 i.createdAt > 0 ? i.createdAt : now()},
                PGRES_COMMAND_OK);
  return r.changed() > 0;
}

llvm::Expected<std::vector<StudyInterval>>
PostgresDatabase::listStudyIntervals(int64_t studyId, int64_t deviceId) {
  DLTUNE_PG_RUN(r, connection->conn,
                "SELECT position, interval_index, latency_ms, measured, created_at FROM "
                "study_intervals WHERE study_id = $1 AND device_id = $2 ORDER BY position, "
                "interval_index",
                {studyId, deviceId}, PGRES_TUPLES_OK);
  std::vector<StudyInterval> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back({r.integer(i, 0), r.integer(i, 1), r.real(i, 2), r.integer(i, 3),
                   r.real(i, 4)});
  return out;
}

llvm::Expected<bool> PostgresDatabase::stopStudyModel(int64_t studyId, int64_t deviceId,
                                                      const StudyModelStop &stop) {
  if (llvm::Error e = checkStudyModelStop(stop))
    return std::move(e);
  // No conflict target: a model stopped already and a second suspension at
  // one synchronisation (the partial unique index) are both left alone.
  DLTUNE_PG_RUN(r, connection->conn,
                "INSERT INTO study_model_stops(study_id, device_id, position, state, "
                "interval_index, reason, created_at) VALUES($1, $2, $3, $4, $5, $6, $7) ON "
                "CONFLICT DO NOTHING",
                {studyId, deviceId, stop.position, stop.state, stop.interval, stop.reason,
                 stop.createdAt > 0 ? stop.createdAt : now()},
                PGRES_COMMAND_OK);
  return r.changed() > 0;
}

llvm::Expected<std::vector<StudyModelStop>>
PostgresDatabase::listStudyModelStops(int64_t studyId, int64_t deviceId) {
  DLTUNE_PG_RUN(r, connection->conn,
                "SELECT position, state, interval_index, reason, created_at FROM "
                "study_model_stops WHERE study_id = $1 AND device_id = $2 ORDER BY position",
                {studyId, deviceId}, PGRES_TUPLES_OK);
  std::vector<StudyModelStop> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back({r.integer(i, 0), r.text(i, 1), r.integer(i, 2), r.text(i, 3),
                   r.real(i, 4)});
  return out;
}

llvm::Expected<std::vector<StudyWorker>> PostgresDatabase::listStudyWorkers(int64_t studyId) {
  DLTUNE_PG_RUN(r, connection->conn,
                "SELECT owner, device_id, state, model, started_at, updated_at, message FROM "
                "study_workers WHERE study_id = $1 ORDER BY started_at, owner",
                {studyId}, PGRES_TUPLES_OK);
  std::vector<StudyWorker> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back({r.text(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3), r.real(i, 4),
                   r.real(i, 5), r.text(i, 6)});
  return out;
}
