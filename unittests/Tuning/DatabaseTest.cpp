//===- DatabaseTest.cpp - Tuning database tests ---------------------------===//

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Database/PostgresDatabase.h"

#include "DatabaseTestSupport.h"

#include "gtest/gtest.h"

#include <sqlite3.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace mlir::dltune;

using namespace mlir::dltune::testing;

TEST(Database, RecordsSurviveReopenAndFirstRecordStands) {
  std::string path = tempPath("basic");
  {
    auto db = Database::open(path);
    ASSERT_TRUE(static_cast<bool>(db)) << llvm::toString(db.takeError());
    EXPECT_EQ((*db)->getSchemaVersion(), Database::kSchemaVersion);
    writeBasicRecords(**db);
  }
  auto db = Database::open(path, /*create=*/false);
  ASSERT_TRUE(static_cast<bool>(db)) << llvm::toString(db.takeError());
  checkBasicRecords(**db);
}

TEST(Database, MigratesVersionOne) {
  std::string path = tempPath("v1");
  {
    sqlite3 *raw;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    // The version-1 schema exactly as dltune 0.1 wrote it.
    const char *v1 =
        "PRAGMA application_id = 1684829301;"
        "CREATE TABLE devices(id INTEGER PRIMARY KEY, fingerprint TEXT UNIQUE NOT NULL, "
        "name TEXT, json TEXT);"
        "CREATE TABLE tasks(id INTEGER PRIMARY KEY, hash TEXT UNIQUE NOT NULL, op_kind TEXT, "
        "target TEXT, shapes TEXT, element_types TEXT, space TEXT, source TEXT);"
        "CREATE TABLE records(id INTEGER PRIMARY KEY, task_id INTEGER NOT NULL, device_id "
        "INTEGER NOT NULL, config TEXT NOT NULL, status TEXT NOT NULL, time_ms REAL, min_ms "
        "REAL, max_ms REAL, stddev_ms REAL, repeats INTEGER, noisy INTEGER, error TEXT, "
        "build_s REAL, run_s REAL, source TEXT, created_at REAL, UNIQUE(task_id, device_id, config));"
        "INSERT INTO devices VALUES(1, 'fp', 'cpu', '{}');"
        "INSERT INTO tasks VALUES(1, 'h', 'linalg.matmul', 'cpu', '', '', '', 'dltune');"
        "INSERT INTO records(task_id, device_id, config, status, time_ms) VALUES(1, 1, 'a=1', 'ok', 3.0);"
        "PRAGMA user_version = 1;";
    ASSERT_EQ(sqlite3_exec(raw, v1, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
  }
  auto db = Database::open(path, false);
  ASSERT_TRUE(static_cast<bool>(db)) << llvm::toString(db.takeError());
  EXPECT_EQ((*db)->getSchemaVersion(), Database::kSchemaVersion);
  auto records = llvm::cantFail((*db)->getRecords(1));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].timeMs, 3.0);
  EXPECT_FALSE(records[0].energyJ.has_value());
  EXPECT_EQ(records[0].generator, ""); // unknown: measured before schema 3
  llvm::cantFail((*db)->setBaseline(1, 1, 9.0)); // the v2 table exists
  // The v3 tables exist and work on the migrated file.
  llvm::cantFail((*db)->commitConfirmations(1, 1, {{"a=1", 3, 2.5, 2.4, 2.6, "g", 0}}));
  EXPECT_EQ(llvm::cantFail((*db)->forget({"h", "", 0, 0}, "test")), 1);
  // The v8 column: a metered record is kept, and replaced, with its energy.
  MeasureRecord metered;
  metered.config = "a=2";
  metered.timeMs = 2.0;
  metered.candidateEnergyJ = 4.5;
  ASSERT_TRUE(llvm::cantFail((*db)->commitRecord(1, 1, metered)));
  auto after = llvm::cantFail((*db)->getRecords(1));
  ASSERT_EQ(after.size(), 1u);
  ASSERT_TRUE(after[0].candidateEnergyJ.has_value());
  EXPECT_EQ(*after[0].candidateEnergyJ, 4.5);
  EXPECT_EQ(llvm::cantFail((*db)->forget({"h", "", 0, 0}, "test")), 1);
  auto replaced = llvm::cantFail((*db)->getReplacedRecords(1));
  ASSERT_EQ(replaced.size(), 2u);
  EXPECT_FALSE(replaced[0].candidateEnergyJ.has_value());
  ASSERT_TRUE(replaced[1].candidateEnergyJ.has_value());
  EXPECT_EQ(*replaced[1].candidateEnergyJ, 4.5);
  // The v6 tables too.
  int64_t study = llvm::cantFail((*db)->createStudy({0, "s", "{}", {{"m", "module {}", {}}}, 0}));
  llvm::cantFail((*db)->updateStudyWorker(study, {"w", 1, "tuning", "m", 0, 0, ""}));
  EXPECT_EQ(llvm::cantFail((*db)->listStudyWorkers(study)).size(), 1u);
}

TEST(Database, RefusesForeignFilesWithoutTouchingThem) {
  std::string text = tempPath("text");
  {
    std::ofstream f(text);
    f << "this is not a database, just some text that is long enough to look like a "
         "file header of some kind\n";
  }
  std::string before = slurp(text);
  auto db = Database::open(text);
  ASSERT_FALSE(static_cast<bool>(db));
  EXPECT_NE(llvm::toString(db.takeError()).find("is not a dltune database"), std::string::npos);
  EXPECT_EQ(slurp(text), before);

  std::string other = tempPath("other");
  {
    sqlite3 *raw;
    ASSERT_EQ(sqlite3_open(other.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE t(x); INSERT INTO t VALUES(1);", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
  }
  std::string otherBefore = slurp(other);
  auto db2 = Database::open(other);
  ASSERT_FALSE(static_cast<bool>(db2));
  EXPECT_NE(llvm::toString(db2.takeError()).find("another program"), std::string::npos);
  EXPECT_EQ(slurp(other), otherBefore);

  auto missing = Database::open(tempPath("missing"), /*create=*/false);
  ASSERT_FALSE(static_cast<bool>(missing));
  llvm::consumeError(missing.takeError());
}

TEST(Database, UnknownStatusIsAnErrorNotACompileError) {
  std::string path = tempPath("status");
  int64_t t;
  {
    auto db = llvm::cantFail(Database::open(path));
    t = llvm::cantFail(db->getOrCreateTask(task("st")));
    int64_t d = llvm::cantFail(db->getOrCreateDevice({0, "fp1", "cpu", "{}"}));
    llvm::cantFail(db->commitRecord(t, d, okRecord("a=1", 2.0)));
  }
  // A status this version does not know (a newer writer, a hand edit).
  sqlite3 *raw;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "UPDATE records SET status = 'exploded'", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  auto db = llvm::cantFail(Database::open(path, /*create=*/false));
  auto records = db->getRecords(t);
  ASSERT_FALSE(static_cast<bool>(records));
  EXPECT_EQ(llvm::toString(records.takeError()),
            "record of configuration 'a=1': unknown measurement status 'exploded' (known: ok, "
            "invalid_config, compile_error, compile_timeout, runtime_crash, run_timeout, "
            "wrong_result, out_of_memory)");
}

TEST(PostgresUrl, SelectsTheServerAndNeverShowsThePassword) {
  EXPECT_TRUE(isPostgresUrl("postgresql://h/db"));
  EXPECT_TRUE(isPostgresUrl("postgres://h/db"));
  EXPECT_FALSE(isPostgresUrl("tuning.db"));
  EXPECT_FALSE(isPostgresUrl("postgresql.db"));
  EXPECT_EQ(redactDatabaseUrl("postgresql://tuner:s3cr@t@dbhost:5432/dltune"),
            "postgresql://tuner:***@dbhost:5432/dltune");
  EXPECT_EQ(redactDatabaseUrl("postgresql://tuner@dbhost/dltune"),
            "postgresql://tuner@dbhost/dltune");
  EXPECT_EQ(redactDatabaseUrl("postgresql:///dltune"), "postgresql:///dltune");
  EXPECT_EQ(redactDatabaseUrl("postgresql://h/db?user=u&password=pw&sslmode=require"),
            "postgresql://h/db?user=u&password=***&sslmode=require");
  EXPECT_EQ(redactDatabaseUrl("postgresql://u:pw@h"), "postgresql://u:***@h");
  // Connecting to nothing fails with the redacted URL in the message.
  llvm::Expected<std::unique_ptr<Database>> db =
      Database::open("postgresql://u:hunter2@127.0.0.1:1/none?connect_timeout=2");
  ASSERT_FALSE(static_cast<bool>(db));
  std::string message = llvm::toString(db.takeError());
  EXPECT_NE(message.find("cannot connect to the database 'postgresql://u:***@127.0.0.1:1/none"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos);
}
