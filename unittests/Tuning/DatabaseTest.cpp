//===- DatabaseTest.cpp - Tuning database tests ---------------------------===//

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Transfer/DatabaseHistory.h"

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
    int64_t t = llvm::cantFail((*db)->getOrCreateTask(task("aa")));
    EXPECT_EQ(llvm::cantFail((*db)->getOrCreateTask(task("aa"))), t);
    int64_t d = llvm::cantFail((*db)->getOrCreateDevice({0, "fp1", "cpu", "{}"}));
    EXPECT_TRUE(llvm::cantFail((*db)->commitRecord(t, d, okRecord("a=1", 2.0))));
    EXPECT_TRUE(llvm::cantFail((*db)->commitRecord(t, d, okRecord("a=2", 1.5))));
    // The same config again is ignored: never re-measured, never overwritten.
    EXPECT_FALSE(llvm::cantFail((*db)->commitRecord(t, d, okRecord("a=2", 0.1))));
    MeasureRecord crash;
    crash.config = "a=3";
    crash.status = MeasureStatus::RuntimeCrash;
    crash.error = "signal 11";
    EXPECT_TRUE(llvm::cantFail((*db)->commitRecord(t, d, crash)));
    MeasureRecord fast = okRecord("a=4", 0.5);
    fast.energyJ = 0.25;
    EXPECT_TRUE(llvm::cantFail((*db)->commitRecord(t, d, fast)));
    llvm::cantFail((*db)->setBaseline(t, d, 40.0));
  }
  auto db = Database::open(path, /*create=*/false);
  ASSERT_TRUE(static_cast<bool>(db)) << llvm::toString(db.takeError());
  auto tasks = llvm::cantFail((*db)->listTasks());
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].opKind, "linalg.matmul");
  auto records = llvm::cantFail((*db)->getRecords(tasks[0].id));
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[1].timeMs, 1.5);
  EXPECT_EQ(records[2].status, MeasureStatus::RuntimeCrash);
  EXPECT_EQ(records[2].error, "signal 11");
  EXPECT_TRUE(std::isnan(records[2].timeMs));
  auto best = llvm::cantFail((*db)->getBest(tasks[0].id));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, "a=4");
  ASSERT_TRUE(best->energyJ.has_value());
  EXPECT_EQ(*best->energyJ, 0.25);
  auto base = llvm::cantFail((*db)->getBaseline(tasks[0].id, 1));
  ASSERT_TRUE(base.has_value());
  EXPECT_EQ(*base, 40.0);
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

TEST(Database, NoisyAndCutOffRecordsNeverWinUnconfirmed) {
  std::string path = tempPath("best");
  auto db = llvm::cantFail(Database::open(path));
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  MeasureRecord noisy = okRecord("a=1", 1.0);
  noisy.noisy = true;
  MeasureRecord cut = okRecord("a=2", 0.5);
  cut.cutOff = true;
  cut.repeats = 1;
  llvm::cantFail(db->commitRecord(t, d, noisy));
  llvm::cantFail(db->commitRecord(t, d, cut));
  llvm::cantFail(db->commitRecord(t, d, okRecord("a=3", 2.0)));
  auto best = llvm::cantFail(db->getBest(t, d));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, "a=3");
  EXPECT_FALSE(best->confirmed);
  // A confirmation decides: its fastest candidate, with its own figures.
  llvm::cantFail(db->commitConfirmations(
      t, d, {{"a=3", 3, 2.1, 2.0, 2.2, "g", 0}, {"a=1", 3, 1.2, 1.1, 1.3, "g", 0}}));
  best = llvm::cantFail(db->getBest(t, d));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, "a=1");
  EXPECT_TRUE(best->confirmed);
  EXPECT_EQ(best->timeMs, 1.2);
  EXPECT_EQ(best->minMs, 1.1);
  EXPECT_EQ(best->repeats, 3);
  // Any device (0) sees the latest confirmation too.
  EXPECT_EQ(llvm::cantFail(db->getBest(t, 0))->config, "a=1");
  // A later confirmation run replaces the earlier one.
  llvm::cantFail(db->commitConfirmations(t, d, {{"a=3", 4, 2.0, 1.9, 2.1, "g", 1e12}}));
  EXPECT_EQ(llvm::cantFail(db->getBest(t, d))->config, "a=3");
  EXPECT_EQ(llvm::cantFail(db->getLatestConfirmations(t, d)).size(), 1u);
}

TEST(Database, ForgetMovesRecordsAsideAndKeepsThem) {
  std::string path = tempPath("forget");
  auto db = llvm::cantFail(Database::open(path));
  int64_t t1 = llvm::cantFail(db->getOrCreateTask(task("t1")));
  int64_t t2 = llvm::cantFail(db->getOrCreateTask(task("t2")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  MeasureRecord crash;
  crash.config = "a=9";
  crash.status = MeasureStatus::RuntimeCrash;
  crash.error = "segfault";
  llvm::cantFail(db->commitRecord(t1, d, okRecord("a=1", 1.0)));
  llvm::cantFail(db->commitRecord(t1, d, crash));
  llvm::cantFail(db->commitRecord(t2, d, okRecord("a=1", 1.0)));
  llvm::cantFail(db->commitConfirmations(t1, d, {{"a=1", 3, 1.0, 1.0, 1.0, "g", 0}}));
  // By status: only the crash of t1 moves; its confirmation goes with it.
  EXPECT_EQ(llvm::cantFail(db->forget({"", "runtime_crash", 0, 0}, "retry")), 1);
  EXPECT_EQ(llvm::cantFail(db->getRecords(t1)).size(), 1u);
  EXPECT_TRUE(llvm::cantFail(db->getLatestConfirmations(t1, d)).empty());
  auto replaced = llvm::cantFail(db->getReplacedRecords(t1));
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_EQ(replaced[0].config, "a=9");
  EXPECT_EQ(replaced[0].error, "segfault");
  // The config can be measured again now.
  MeasureRecord again = okRecord("a=9", 0.5);
  EXPECT_TRUE(llvm::cantFail(db->commitRecord(t1, d, again)));
  // By task: t2 only.
  EXPECT_EQ(llvm::cantFail(db->forget({"t2", "", 0, 0}, "remeasure")), 1);
  EXPECT_TRUE(llvm::cantFail(db->getRecords(t2)).empty());
  EXPECT_EQ(llvm::cantFail(db->getRecords(t1)).size(), 2u);
  // By age: nothing is older than a day.
  EXPECT_EQ(llvm::cantFail(db->forget({"", "", 86400, 0}, "old")), 0);
}

TEST(Database, RecordsCarryTheirGenerator) {
  std::string path = tempPath("generator");
  auto db = llvm::cantFail(Database::open(path));
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  MeasureRecord r = okRecord("a=1", 1.0);
  r.generator = "dltune 9; LLVM 99; schedules 9";
  r.cutOff = true;
  GpuKernelResources k;
  k.kernel = "main_kernel";
  k.registers = 40;
  k.sharedBytes = 8192;
  r.gpuResources = {k};
  llvm::cantFail(db->commitRecord(t, d, r));
  auto back = llvm::cantFail(db->getRecords(t));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].generator, r.generator);
  EXPECT_TRUE(back[0].cutOff);
  ASSERT_EQ(back[0].gpuResources.size(), 1u);
  EXPECT_EQ(back[0].gpuResources[0].kernel, "main_kernel");
  EXPECT_EQ(back[0].gpuResources[0].registers, 40);
  EXPECT_EQ(back[0].gpuResources[0].sharedBytes, 8192);
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

TEST(DatabaseHistory, SimilarTasksBecomeSourcesInTheirOwnSpace) {
  std::string path = tempPath("history");
  auto db = llvm::cantFail(Database::open(path));
  SearchSpace space = llvm::cantFail(SearchSpace::create({{"a", {1, 2, 4}}, {"b", {1, 2}}}, {}, {}));
  auto make = [&](const std::string &hash, const std::string &kind, const std::string &target) {
    TaskRecord t = task(hash);
    t.opKind = kind;
    t.target = target;
    t.space = space.getCanonicalString();
    t.id = llvm::cantFail(db->getOrCreateTask(t));
    return t;
  };
  TaskRecord self = make("aa", "linalg.matmul 8x8", "cpu");
  TaskRecord sibling = make("bb", "linalg.matmul + addf", "cpu");
  TaskRecord other = make("cc", "linalg.conv_2d_nhwc_hwcf", "cpu");
  TaskRecord gpu = make("dd", "linalg.matmul", "gpu");
  TaskRecord few = make("ee", "linalg.matmul", "cpu");
  int64_t d = llvm::cantFail(db->getOrCreateDevice({0, "fp1", "cpu", "{}"}));
  const char *configs[] = {"a=1,b=1", "a=2,b=1", "a=4,b=1", "a=1,b=2", "a=2,b=2"};
  for (const TaskRecord *t : {&self, &sibling, &other, &gpu})
    for (int i = 0; i < 5; ++i)
      llvm::cantFail(db->commitRecord(t->id, d, okRecord(configs[i], 1.0 + i)));
  MeasureRecord crash;
  crash.config = "a=4,b=2";
  crash.status = MeasureStatus::RuntimeCrash;
  llvm::cantFail(db->commitRecord(sibling.id, d, crash));
  MeasureRecord foreign = okRecord("a=3,b=1", 0.5); // not in the space: skipped
  llvm::cantFail(db->commitRecord(sibling.id, d, foreign));
  llvm::cantFail(db->commitRecord(few.id, d, okRecord("a=1,b=1", 1.0)));

  EXPECT_EQ(getTaskOpName("linalg.matmul + addf 8x8"), "linalg.matmul");
  std::vector<std::string> names;
  auto sources = llvm::cantFail(loadSimilarTaskHistory(*db, self, 5, names));
  // Only the sibling: not itself, not another op, not another target, not
  // a task with fewer than 5 ok records.
  ASSERT_EQ(sources.size(), 1u);
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(names[0].substr(0, 2), "bb");
  EXPECT_EQ(sources[0].entries.size(), 6u); // 5 ok + the crash
  EXPECT_EQ(sources[0].knobs.size(), 2u);
  const RecordedMeasurement *m = sources[0].find({4, 1});
  ASSERT_NE(m, nullptr);
  EXPECT_DOUBLE_EQ(m->timeMs, 3.0);
  const RecordedMeasurement *c = sources[0].find({4, 2});
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->status, MeasureStatus::RuntimeCrash);
}
