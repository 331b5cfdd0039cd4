//===- DatabaseContractTest.cpp - What every Database implementation does -===//
//
// One suite over every implementation of `Database` (the SQLite file, the
// in-memory SQLite of tests and fuzzers, createMemoryDatabase, and a
// PostgreSQL server where one is given: ctest's postgres-contract runs this
// suite inside pg_virtualenv with DLTUNE_TEST_POSTGRES=1), so they cannot
// drift: ids, order, first-record-stands, best records,
// confirmations, forget into replaced records, baselines, claims with
// expiry and transactions. What only the file does (migration, foreign
// files, full disks, locks) is DatabaseTest.cpp and DatabaseSafetyTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Transfer/DatabaseHistory.h"

#include "DatabaseTestSupport.h"

#include "gtest/gtest.h"

#include <set>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "llvm/Support/Path.h"

using namespace mlir::dltune;

using namespace mlir::dltune::testing;

namespace {
struct Implementation {
  const char *name;
  /// The database of one test; file-backed ones keep it at `path`.
  std::function<llvm::Expected<std::unique_ptr<Database>>(const std::string &path)> open;
  /// Whether opening `path` again reaches the same records (another process).
  bool sharedByPath;
  /// Opens `path` again (another connection); unset: `open`.
  std::function<llvm::Expected<std::unique_ptr<Database>>(const std::string &path)> reopen;
  /// Why the implementation cannot be tested here ("" when it can).
  std::function<std::string()> unavailable = [] { return std::string(); };
};

/// A fresh database on the PostgreSQL server of the environment (PGHOST,
/// PGUSER, ... as pg_virtualenv sets them), named after the test's path.
std::string getPostgresName(const std::string &path) {
  std::string name = "dltune_";
  for (char c : llvm::sys::path::filename(path))
    name += std::isalnum(static_cast<unsigned char>(c)) ? std::tolower(c) : '_';
  return name.substr(0, 63);
}

llvm::Expected<std::unique_ptr<Database>> reopenPostgres(const std::string &path) {
  return Database::open("postgresql:///" + getPostgresName(path));
}

llvm::Expected<std::unique_ptr<Database>> openFreshPostgres(const std::string &path) {
  std::string name = getPostgresName(path);
  std::string cmd = "dropdb --if-exists " + name + " && createdb " + name;
  if (std::system(cmd.c_str()) != 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot create " + name);
  return Database::open("postgresql:///" + name);
}

void PrintTo(const Implementation &implementation, std::ostream *os) {
  *os << implementation.name;
}

class DatabaseContract : public ::testing::TestWithParam<Implementation> {
protected:
  void SetUp() override {
    if (std::string why = GetParam().unavailable(); !why.empty())
      GTEST_SKIP() << why;
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');
    path = tempPath("contract_" + name);
    llvm::Expected<std::unique_ptr<Database>> opened = GetParam().open(path);
    ASSERT_TRUE(static_cast<bool>(opened)) << llvm::toString(opened.takeError());
    db = std::move(*opened);
  }

  /// A second handle on the same records: another connection to the file
  /// where there is one, else the database itself.
  Database &sharer() {
    if (!GetParam().sharedByPath)
      return *db;
    if (!second)
      second = llvm::cantFail(GetParam().reopen ? GetParam().reopen(path) : GetParam().open(path));
    return *second;
  }

  std::string path;
  std::unique_ptr<Database> db, second;
};

/// `best` is the confirmed figures of `c`.
void expectConfirmedBest(const std::optional<MeasureRecord> &best, const Confirmation &c) {
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, c.config);
  EXPECT_TRUE(best->confirmed);
  EXPECT_EQ(best->timeMs, c.medianMs);
  EXPECT_EQ(best->minMs, c.minMs);
  EXPECT_EQ(best->maxMs, c.maxMs);
  EXPECT_EQ(best->repeats, c.rounds);
}

MeasureRecord failure(const std::string &config, MeasureStatus status,
                      const std::string &error) {
  MeasureRecord r;
  r.config = config;
  r.status = status;
  r.error = error;
  return r;
}
} // namespace

INSTANTIATE_TEST_SUITE_P(
    Implementations, DatabaseContract,
    ::testing::Values(
        Implementation{"Sqlite", [](const std::string &path) { return Database::open(path); },
                       true},
        Implementation{"SqliteInMemory",
                       [](const std::string &) { return Database::openInMemory(); }, false},
        Implementation{"Memory",
                       [](const std::string &)
                           -> llvm::Expected<std::unique_ptr<Database>> {
                         return createMemoryDatabase();
                       },
                       false},
        Implementation{"Postgres", openFreshPostgres, true, reopenPostgres,
                       [] {
                         const char *on = std::getenv("DLTUNE_TEST_POSTGRES");
                         return on && std::string(on) == "1"
                                    ? std::string()
                                    : std::string("no PostgreSQL server (ctest runs these as "
                                                  "postgres-contract inside pg_virtualenv)");
                       }}),
    [](const ::testing::TestParamInfo<Implementation> &info) { return info.param.name; });

TEST_P(DatabaseContract, FirstRecordStands) {
  EXPECT_EQ(db->getSchemaVersion(), Database::kSchemaVersion);
  writeBasicRecords(*db);
  checkBasicRecords(*db);
}

TEST_P(DatabaseContract, IdsFollowCreationAndTasksKeepTheirFirstFields) {
  EXPECT_TRUE(llvm::cantFail(db->listTasks()).empty());
  EXPECT_EQ(llvm::cantFail(db->getOrCreateTask(task("t1"))), 1);
  TaskRecord second = task("t2");
  second.id = 77; // ignored: the database gives the id
  second.source = "autotvm";
  EXPECT_EQ(llvm::cantFail(db->getOrCreateTask(second)), 2);
  TaskRecord again = task("t1");
  again.opKind = "linalg.conv";
  EXPECT_EQ(llvm::cantFail(db->getOrCreateTask(again)), 1);
  auto tasks = llvm::cantFail(db->listTasks());
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].id, 1);
  EXPECT_EQ(tasks[0].opKind, "linalg.matmul");
  EXPECT_EQ(tasks[1].id, 2);
  EXPECT_EQ(tasks[1].source, "autotvm");
  auto found = llvm::cantFail(db->findTask("t2"));
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->id, 2);
  EXPECT_EQ(found->shapes, "8x8;8x8;8x8");
  EXPECT_FALSE(llvm::cantFail(db->findTask("none")).has_value());

  EXPECT_EQ(llvm::cantFail(db->getOrCreateDevice({0, "fpA", "cpu", "{\"a\":1}"})), 1);
  EXPECT_EQ(llvm::cantFail(db->getOrCreateDevice({0, "fpB", "gpu", "{}"})), 2);
  EXPECT_EQ(llvm::cantFail(db->getOrCreateDevice({0, "fpA", "other", "{}"})), 1);
  auto devices = llvm::cantFail(db->listDevices());
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].name, "cpu");
  EXPECT_EQ(devices[0].json, "{\"a\":1}");
  EXPECT_EQ(devices[1].fingerprint, "fpB");
}

TEST_P(DatabaseContract, UnknownTasksAndDevicesAreErrors) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  auto expectError = [](llvm::Error e) {
    EXPECT_TRUE(static_cast<bool>(e));
    llvm::consumeError(std::move(e));
  };
  expectError(db->commitRecord(t + 1, d, okRecord("a=1", 1.0)).takeError());
  expectError(db->commitRecord(t, d + 1, okRecord("a=1", 1.0)).takeError());
  expectError(db->setBaseline(t, d + 1, 1.0));
  expectError(db->commitConfirmations(t + 1, d, {{"a=1", 3, 1.0, 1.0, 1.0, "g", 0}}));
  expectError(db->claim(t + 1, d, {"a=1"}, "A", 600).takeError());
  expectError(db->addTaskNote(t + 1, d, {"note", "x", 0}));
  expectError(db->addModelLatency(d + 1, {"m.mlir", "main", 1, 1, true, 0}));
  // Nothing of the failed calls stays; reading what does not exist is no error.
  EXPECT_TRUE(llvm::cantFail(db->getRecords(t)).empty());
  EXPECT_TRUE(llvm::cantFail(db->getRecords(t + 1)).empty());
  EXPECT_FALSE(llvm::cantFail(db->getBest(t + 1)).has_value());
  EXPECT_FALSE(llvm::cantFail(db->getBaseline(t, d + 1)).has_value());
  EXPECT_TRUE(llvm::cantFail(db->getLatestConfirmations(t + 1, d)).empty());
}

TEST_P(DatabaseContract, TaskNotesReadBackOldestFirstPerTaskAndDevice) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t u = llvm::cantFail(db->getOrCreateTask(task("u")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  int64_t e = llvm::cantFail(db->getOrCreateDevice({0, "fpB", "gpu", "{}"}));
  llvm::cantFail(db->addTaskNote(t, d, {"warning", "second", 200}));
  llvm::cantFail(db->addTaskNote(t, d, {"note", "first", 100}));
  llvm::cantFail(db->addTaskNote(u, d, {"note", "other task", 150}));
  llvm::cantFail(db->addTaskNote(t, e, {"failed", "other device", 150}));
  // A note without a time is stamped now.
  llvm::cantFail(db->addTaskNote(t, d, {"note", "now", 0}));
  std::vector<TaskNote> notes = llvm::cantFail(sharer().listTaskNotes(t, d));
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0].message, "first");
  EXPECT_EQ(notes[0].kind, "note");
  EXPECT_EQ(notes[1].message, "second");
  EXPECT_EQ(notes[1].kind, "warning");
  EXPECT_EQ(notes[2].message, "now");
  EXPECT_GT(notes[2].createdAt, 1.7e9);
  ASSERT_EQ(llvm::cantFail(db->listTaskNotes(t, e)).size(), 1u);
  EXPECT_EQ(llvm::cantFail(db->listTaskNotes(u, d))[0].message, "other task");
  EXPECT_TRUE(llvm::cantFail(db->listTaskNotes(u, e)).empty());
}

TEST_P(DatabaseContract, ModelLatenciesReadBackOldestFirstPerDevice) {
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  int64_t e = llvm::cantFail(db->getOrCreateDevice({0, "fpB", "gpu", "{}"}));
  llvm::cantFail(db->addModelLatency(d, {"b.mlir", "main", 4.0, 2.0, false, 300}));
  llvm::cantFail(db->addModelLatency(d, {"a.mlir", "forward", 3.0, NAN, true, 200}));
  llvm::cantFail(db->addModelLatency(e, {"c.mlir", "main", 1.0, 0.5, true, 0}));
  std::vector<ModelLatency> onD = llvm::cantFail(sharer().listModelLatencies(d));
  ASSERT_EQ(onD.size(), 2u);
  EXPECT_EQ(onD[0].model, "a.mlir");
  EXPECT_EQ(onD[0].entry, "forward");
  EXPECT_EQ(onD[0].defaultMs, 3.0);
  EXPECT_TRUE(std::isnan(onD[0].tunedMs));
  EXPECT_TRUE(onD[0].checked);
  EXPECT_EQ(onD[1].model, "b.mlir");
  EXPECT_FALSE(onD[1].checked);
  EXPECT_EQ(onD[1].createdAt, 300);
  std::vector<ModelLatency> onE = llvm::cantFail(db->listModelLatencies(e));
  ASSERT_EQ(onE.size(), 1u);
  EXPECT_GT(onE[0].createdAt, 1.7e9); // stamped now
}

TEST_P(DatabaseContract, RecordsReadBackAsStored) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  MeasureRecord r = okRecord("a=1", 2.0);
  r.stddevMs = 0.125;
  r.noisy = true;
  r.buildSeconds = 1.5;
  r.runSeconds = 0.25;
  r.source = "replay";
  r.createdAt = 1234.5;
  r.generator = "g1";
  r.energyJ = NAN;   // no figure: stored as none
  r.candidateEnergyJ = 7.25;
  r.anchorMs = 3.0;  // anchored timing is not stored
  r.confirmed = true; // only getBest says so
  llvm::cantFail(db->commitRecord(t, d, r));
  MeasureRecord late = failure("a=2", MeasureStatus::CompileTimeout, "");
  llvm::cantFail(db->commitRecord(t, d, late));
  auto back = llvm::cantFail(db->getRecords(t, d));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].config, "a=1");
  EXPECT_EQ(back[0].status, MeasureStatus::Ok);
  EXPECT_EQ(back[0].timeMs, 2.0);
  EXPECT_EQ(back[0].minMs, 1.8);
  EXPECT_EQ(back[0].maxMs, 2.2);
  EXPECT_EQ(back[0].stddevMs, 0.125);
  EXPECT_EQ(back[0].repeats, 5);
  EXPECT_TRUE(back[0].noisy);
  EXPECT_FALSE(back[0].cutOff);
  EXPECT_EQ(back[0].buildSeconds, 1.5);
  EXPECT_EQ(back[0].runSeconds, 0.25);
  EXPECT_EQ(back[0].source, "replay");
  EXPECT_EQ(back[0].createdAt, 1234.5);
  EXPECT_EQ(back[0].generator, "g1");
  EXPECT_FALSE(back[0].energyJ.has_value());
  ASSERT_TRUE(back[0].candidateEnergyJ.has_value());
  EXPECT_EQ(*back[0].candidateEnergyJ, 7.25);
  EXPECT_FALSE(back[1].candidateEnergyJ.has_value()); // not metered
  EXPECT_TRUE(std::isnan(back[0].anchorMs));
  EXPECT_FALSE(back[0].confirmed);
  EXPECT_EQ(back[1].status, MeasureStatus::CompileTimeout);
  EXPECT_TRUE(std::isnan(back[1].timeMs));
  EXPECT_EQ(back[1].source, "measured");
  EXPECT_GT(back[1].createdAt, 1e9); // stamped when committed
  EXPECT_TRUE(llvm::cantFail(db->getRecords(t, d + 1)).empty());
}

TEST_P(DatabaseContract, RecordsComeInCommitOrderPerDevice) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d1 = llvm::cantFail(db->getOrCreateDevice({0, "fp1", "cpu", "{}"}));
  int64_t d2 = llvm::cantFail(db->getOrCreateDevice({0, "fp2", "cpu", "{}"}));
  llvm::cantFail(db->commitRecord(t, d1, okRecord("c=3", 3.0)));
  llvm::cantFail(db->commitRecord(t, d2, okRecord("c=3", 1.0))); // its own device
  llvm::cantFail(db->commitRecord(t, d1, okRecord("c=1", 2.0)));
  llvm::cantFail(db->commitRecord(t, d1, okRecord("c=2", 2.0)));
  auto configs = [&](int64_t device) {
    std::vector<std::string> out;
    for (const MeasureRecord &r : llvm::cantFail(db->getRecords(t, device)))
      out.push_back(r.config);
    return out;
  };
  EXPECT_EQ(configs(d1), (std::vector<std::string>{"c=3", "c=1", "c=2"}));
  EXPECT_EQ(configs(0), (std::vector<std::string>{"c=3", "c=3", "c=1", "c=2"}));
  // Equal times: the first committed wins; any device: the fastest anywhere.
  EXPECT_EQ(llvm::cantFail(db->getBest(t, d1))->config, "c=1");
  EXPECT_EQ(llvm::cantFail(db->getBest(t, 0))->timeMs, 1.0);
  // A forgotten and re-measured config comes after the others.
  EXPECT_EQ(llvm::cantFail(db->forget({"t", "", 0, d1}, "again")), 3);
  llvm::cantFail(db->commitRecord(t, d1, okRecord("c=2", 2.0)));
  llvm::cantFail(db->commitRecord(t, d1, okRecord("c=3", 2.5)));
  EXPECT_EQ(configs(d1), (std::vector<std::string>{"c=2", "c=3"}));
  EXPECT_EQ(configs(d2), (std::vector<std::string>{"c=3"}));
}

TEST_P(DatabaseContract, LatestConfirmationRunPerDevice) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d1 = llvm::cantFail(db->getOrCreateDevice({0, "fp1", "cpu", "{}"}));
  int64_t d2 = llvm::cantFail(db->getOrCreateDevice({0, "fp2", "cpu", "{}"}));
  MeasureRecord stored = okRecord("a=2", 5.0);
  stored.generator = "g-record";
  llvm::cantFail(db->commitRecord(t, d1, stored));
  // Run at 100 on d1: an untimed candidate, two with one median.
  llvm::cantFail(db->commitConfirmations(t, d1,
                                         {{"a=1", 3, NAN, NAN, NAN, "g", 100},
                                          {"a=2", 3, 2.0, 1.9, 2.1, "g", 100},
                                          {"a=3", 3, 2.0, 1.8, 2.2, "g", 100},
                                          {"a=4", 3, 1.0, 0.9, 1.1, "g", 50}}));
  llvm::cantFail(db->commitConfirmations(t, d2, {{"b=1", 5, 7.0, 6.0, 8.0, "h", 200}}));
  auto latest = llvm::cantFail(db->getLatestConfirmations(t, d1));
  ASSERT_EQ(latest.size(), 2u);
  EXPECT_EQ(latest[0].config, "a=2"); // equal medians: the first committed
  EXPECT_EQ(latest[1].config, "a=3");
  EXPECT_EQ(latest[0].rounds, 3);
  EXPECT_EQ(latest[0].createdAt, 100);
  EXPECT_EQ(latest[0].generator, "g");
  auto any = llvm::cantFail(db->getLatestConfirmations(t, 0));
  ASSERT_EQ(any.size(), 1u);
  EXPECT_EQ(any[0].config, "b=1");
  // The confirmed best keeps its stored record's other fields.
  auto best = llvm::cantFail(db->getBest(t, d1));
  expectConfirmedBest(best, latest[0]);
  EXPECT_EQ(best->generator, "g-record");
  EXPECT_EQ(best->source, "measured");
  // A confirmed config without a record (any device): its figures alone.
  best = llvm::cantFail(db->getBest(t, 0));
  expectConfirmedBest(best, any[0]);
  EXPECT_EQ(best->status, MeasureStatus::Ok);
  EXPECT_EQ(best->source, "measured");
  EXPECT_EQ(best->generator, "");
}

TEST_P(DatabaseContract, ForgetByDeviceAgeAndErrorText) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t u = llvm::cantFail(db->getOrCreateTask(task("u")));
  int64_t d1 = llvm::cantFail(db->getOrCreateDevice({0, "fp1", "cpu", "{}"}));
  int64_t d2 = llvm::cantFail(db->getOrCreateDevice({0, "fp2", "cpu", "{}"}));
  MeasureRecord old = okRecord("a=1", 1.0);
  old.createdAt = 1000; // long ago
  llvm::cantFail(db->commitRecord(t, d1, old));
  llvm::cantFail(db->commitRecord(t, d1, okRecord("a=2", 2.0)));
  llvm::cantFail(
      db->commitRecord(t, d2, failure("a=1", MeasureStatus::CompileError, "disk quota hit")));
  llvm::cantFail(
      db->commitRecord(u, d2, failure("a=1", MeasureStatus::CompileError, "bad width")));
  llvm::cantFail(db->commitConfirmations(t, d1, {{"a=2", 3, 2.0, 2.0, 2.0, "g", 0}}));
  llvm::cantFail(db->commitConfirmations(t, d2, {{"a=9", 3, 9.0, 9.0, 9.0, "g", 0}}));
  // A task nobody has: nothing moves.
  EXPECT_EQ(llvm::cantFail(db->forget({"nope", "", 0, 0}, "x")), 0);
  // By age: the old record only; d1's confirmation goes, d2's stays.
  EXPECT_EQ(llvm::cantFail(db->forget({"", "", 3600, 0}, "old")), 1);
  EXPECT_TRUE(llvm::cantFail(db->getLatestConfirmations(t, d1)).empty());
  EXPECT_EQ(llvm::cantFail(db->getLatestConfirmations(t, d2)).size(), 1u);
  EXPECT_EQ(llvm::cantFail(db->getBest(t, d1))->config, "a=2");
  // By error text, on one device: only the matching text moves.
  ForgetFilter byText{"", "compile_error", 0, d2};
  byText.errorContains = {"quota", "read-only"};
  EXPECT_EQ(llvm::cantFail(db->forget(byText, "environment")), 1);
  EXPECT_EQ(llvm::cantFail(db->getRecords(u)).size(), 1u);
  // Replaced records are kept per task, oldest first, and can be measured again.
  auto replaced = llvm::cantFail(db->getReplacedRecords(t));
  ASSERT_EQ(replaced.size(), 2u);
  EXPECT_EQ(replaced[0].createdAt, 1000);
  EXPECT_EQ(replaced[1].error, "disk quota hit");
  EXPECT_TRUE(llvm::cantFail(db->getReplacedRecords(u)).empty());
  EXPECT_TRUE(llvm::cantFail(db->commitRecord(t, d2, okRecord("a=1", 4.0))));
  // Forgetting it again keeps both replaced copies.
  EXPECT_EQ(llvm::cantFail(db->forget({"t", "", 0, d2}, "again")), 1);
  EXPECT_EQ(llvm::cantFail(db->getReplacedRecords(t)).size(), 3u);
}

TEST_P(DatabaseContract, BaselinesAreReplaced) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  EXPECT_FALSE(llvm::cantFail(db->getBaseline(t, d)).has_value());
  llvm::cantFail(db->setBaseline(t, d, 40.0));
  llvm::cantFail(db->setBaseline(t, d, 30.0));
  EXPECT_EQ(llvm::cantFail(db->getBaseline(t, d)), std::optional<double>(30.0));
}

TEST_P(DatabaseContract, ClaimsAreDevicesOwnAndReleasedByOwner) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d1 = llvm::cantFail(db->getOrCreateDevice({0, "fp1", "cpu", "{}"}));
  int64_t d2 = llvm::cantFail(db->getOrCreateDevice({0, "fp2", "cpu", "{}"}));
  using C = ClaimOutcome;
  llvm::cantFail(db->commitRecord(t, d1, okRecord("x=1", 1.0)));
  // Measured on another device is not measured here.
  EXPECT_EQ(llvm::cantFail(db->claim(t, d2, {"x=1", "x=2", "x=2"}, "A", 600)),
            (std::vector<C>{C::Claimed, C::Claimed, C::Claimed}));
  EXPECT_EQ(llvm::cantFail(db->claim(t, d1, {"x=1", "x=2"}, "B", 600)),
            (std::vector<C>{C::Measured, C::Claimed}));
  llvm::cantFail(db->releaseClaims("nobody"));
  EXPECT_EQ(llvm::cantFail(db->claim(t, d2, {"x=2"}, "B", 600)), (std::vector<C>{C::Taken}));
  llvm::cantFail(db->releaseClaims("A"));
  EXPECT_EQ(llvm::cantFail(db->claim(t, d2, {"x=2"}, "B", 600)), (std::vector<C>{C::Claimed}));
  EXPECT_EQ(llvm::cantFail(db->claim(t, d1, {"x=2"}, "A", 600)), (std::vector<C>{C::Taken}));
}

TEST_P(DatabaseContract, TransactionsRollBackOnErrorAndNestedOnesJoin) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  llvm::cantFail(db->commitRecord(t, d, okRecord("a=0", 1.0)));
  llvm::Error e = db->transaction([&]() -> llvm::Error {
    EXPECT_EQ(llvm::cantFail(db->getOrCreateTask(task("new"))), 2);
    EXPECT_TRUE(llvm::cantFail(db->commitRecord(t, d, okRecord("a=1", 0.5))));
    llvm::cantFail(db->setBaseline(t, d, 9.0));
    EXPECT_EQ(llvm::cantFail(db->claim(t, d, {"a=2"}, "A", 600)),
              (std::vector<ClaimOutcome>{ClaimOutcome::Claimed}));
    EXPECT_EQ(llvm::cantFail(db->forget({"t", "", 0, 0}, "inner")), 2);
    // A nested transaction joins: its success commits nothing yet.
    llvm::cantFail(db->transaction([&]() -> llvm::Error {
      return llvm::Error::success();
    }));
    llvm::cantFail(db->commitConfirmations(t, d, {{"a=1", 3, 0.5, 0.5, 0.5, "g", 0}}));
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "import failed");
  });
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_EQ(llvm::toString(std::move(e)), "import failed");
  // Everything inside is undone; what was committed before stays.
  EXPECT_FALSE(llvm::cantFail(db->findTask("new")).has_value());
  EXPECT_EQ(llvm::cantFail(db->listTasks()).size(), 1u);
  auto records = llvm::cantFail(db->getRecords(t));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].config, "a=0");
  EXPECT_TRUE(llvm::cantFail(db->getReplacedRecords(t)).empty());
  EXPECT_FALSE(llvm::cantFail(db->getBaseline(t, d)).has_value());
  EXPECT_TRUE(llvm::cantFail(db->getLatestConfirmations(t, d)).empty());
  EXPECT_EQ(llvm::cantFail(db->claim(t, d, {"a=2"}, "B", 600)),
            (std::vector<ClaimOutcome>{ClaimOutcome::Claimed}));
  // The next task gets a new id (SQLite reuses the undone one's; a
  // PostgreSQL sequence does not roll back: ids are opaque, not counts).
  int64_t later = llvm::cantFail(db->getOrCreateTask(task("later")));
  EXPECT_GT(later, t);
  EXPECT_EQ(llvm::cantFail(db->findTask("later"))->id, later);
  EXPECT_EQ(llvm::cantFail(db->listTasks()).size(), 2u);
  // A transaction that succeeds keeps all of it.
  llvm::cantFail(db->transaction([&]() -> llvm::Error {
    llvm::Expected<bool> first = db->commitRecord(t, d, okRecord("a=3", 3.0));
    if (!first)
      return first.takeError();
    return db->transaction([&]() -> llvm::Error {
      llvm::Expected<bool> second = db->commitRecord(t, d, okRecord("a=4", 4.0));
      return second ? llvm::Error::success() : second.takeError();
    });
  }));
  EXPECT_EQ(llvm::cantFail(db->getRecords(t)).size(), 3u);
}

TEST_P(DatabaseContract, UnconfirmedNoisyRecordsCompeteByTheirSlowestRepeat) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("t")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  // Noisy, median 1.0 but a repeat at 2.5: it cannot be trusted to beat 2.0.
  MeasureRecord noisy = okRecord("a=1", 1.0);
  noisy.noisy = true;
  noisy.maxMs = 2.5;
  MeasureRecord cut = okRecord("a=2", 0.5);
  cut.cutOff = true;
  cut.repeats = 1;
  // Noisy without a slowest repeat: never the best unconfirmed.
  MeasureRecord unknown = okRecord("a=4", 0.1);
  unknown.noisy = true;
  unknown.maxMs = NAN;
  llvm::cantFail(db->commitRecord(t, d, noisy));
  llvm::cantFail(db->commitRecord(t, d, cut));
  llvm::cantFail(db->commitRecord(t, d, unknown));
  llvm::cantFail(db->commitRecord(t, d, okRecord("a=3", 2.0)));
  auto best = llvm::cantFail(db->getBest(t, d));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, "a=3");
  EXPECT_FALSE(best->confirmed);
  // Noisy, but even its slowest repeat (1.5) beats the clean 2.0: it wins,
  // with its median as its time.
  MeasureRecord fastNoisy = okRecord("a=5", 0.9);
  fastNoisy.noisy = true;
  fastNoisy.maxMs = 1.5;
  llvm::cantFail(db->commitRecord(t, d, fastNoisy));
  best = llvm::cantFail(db->getBest(t, d));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, "a=5");
  EXPECT_DOUBLE_EQ(best->timeMs, 0.9);
  // A confirmation decides: its fastest candidate, with its own figures.
  llvm::cantFail(db->commitConfirmations(
      t, d, {{"a=3", 3, 2.1, 2.0, 2.2, "g", 0}, {"a=1", 3, 1.2, 1.1, 1.3, "g", 0}}));
  best = llvm::cantFail(db->getBest(t, d));
  expectConfirmedBest(best, {"a=1", 3, 1.2, 1.1, 1.3, "g", 0});
  // Any device (0) sees the latest confirmation too.
  EXPECT_EQ(llvm::cantFail(db->getBest(t, 0))->config, "a=1");
  // A later confirmation run replaces the earlier one.
  llvm::cantFail(db->commitConfirmations(t, d, {{"a=3", 4, 2.0, 1.9, 2.1, "g", 1e12}}));
  EXPECT_EQ(llvm::cantFail(db->getBest(t, d))->config, "a=3");
  EXPECT_EQ(llvm::cantFail(db->getLatestConfirmations(t, d)).size(), 1u);
}

TEST_P(DatabaseContract, ForgetMovesRecordsAsideAndKeepsThem) {
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

TEST_P(DatabaseContract, RecordsCarryTheirGenerator) {
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

TEST_P(DatabaseContract, SimilarTasksBecomeTransferSourcesInTheirOwnSpace) {
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
  auto sources = llvm::cantFail(loadTaskHistory(*db, self, d, 5));
  // Only the sibling: not itself on its own device, not another op, not
  // another target, not a task with fewer than 5 ok records.
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0].task.hash, "bb");
  EXPECT_EQ(sources[0].device.id, d);
  EXPECT_EQ(sources[0].name.substr(0, 2), "bb");
  EXPECT_NE(sources[0].name.find(" on cpu"), std::string::npos);
  const KernelTunerCache &records = sources[0].records;
  EXPECT_EQ(records.entries.size(), 6u); // 5 ok + the crash
  EXPECT_EQ(records.knobs.size(), 2u);
  const RecordedMeasurement *m = records.find({4, 1});
  ASSERT_NE(m, nullptr);
  EXPECT_DOUBLE_EQ(m->timeMs, 3.0);
  const RecordedMeasurement *c = records.find({4, 2});
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->status, MeasureStatus::RuntimeCrash);

  // The same task measured on another device is a source of its own, with
  // that device's record; the sibling on the second device is another.
  int64_t d2 = llvm::cantFail(db->getOrCreateDevice({0, "fp2", "other cpu", "{\"cores\":64}"}));
  for (int i = 0; i < 5; ++i) {
    llvm::cantFail(db->commitRecord(self.id, d2, okRecord(configs[i], 10.0 - i)));
    llvm::cantFail(db->commitRecord(sibling.id, d2, okRecord(configs[i], 2.0)));
  }
  sources = llvm::cantFail(loadTaskHistory(*db, self, d, 5));
  ASSERT_EQ(sources.size(), 3u);
  std::set<std::pair<std::string, int64_t>> seen;
  for (const TaskHistorySource &s : sources) {
    seen.insert({s.task.hash, s.device.id});
    if (s.task.hash == "aa") {
      EXPECT_EQ(s.device.json, "{\"cores\":64}");
      EXPECT_DOUBLE_EQ(s.records.find({1, 1})->timeMs, 10.0); // its own times
    }
  }
  EXPECT_EQ(seen, (std::set<std::pair<std::string, int64_t>>{{"aa", d2}, {"bb", d}, {"bb", d2}}));
  // Excluding no device (a database of another machine): every pair.
  EXPECT_EQ(llvm::cantFail(loadTaskHistory(*db, self, 0, 5)).size(), 4u);
}
TEST_P(DatabaseContract, ClaimsSplitTheWorkAndExpire) {
  // Two handles on one store: another process's connection to the file.
  Database *a = db.get();
  Database *b = &sharer();
  int64_t t = llvm::cantFail(a->getOrCreateTask(task("h")));
  int64_t d = llvm::cantFail(a->getOrCreateDevice(testDevice()));
  using C = ClaimOutcome;
  EXPECT_EQ(llvm::cantFail(a->claim(t, d, {"x=1", "x=2"}, "A", 600)),
            (std::vector<C>{C::Claimed, C::Claimed}));
  EXPECT_EQ(llvm::cantFail(b->claim(t, d, {"x=1", "x=3"}, "B", 600)),
            (std::vector<C>{C::Taken, C::Claimed}));
  ASSERT_TRUE(llvm::cantFail(a->commitRecord(t, d, okRecord("x=2", 1.0))));
  EXPECT_EQ(llvm::cantFail(b->claim(t, d, {"x=2"}, "B", 600)), (std::vector<C>{C::Measured}));
  // Renewing one's own claim is fine; a released (or expired) claim is free.
  EXPECT_EQ(llvm::cantFail(a->claim(t, d, {"x=1"}, "A", 600)), (std::vector<C>{C::Claimed}));
  llvm::cantFail(a->releaseClaims("A"));
  EXPECT_EQ(llvm::cantFail(b->claim(t, d, {"x=1"}, "B", -1)), (std::vector<C>{C::Claimed}));
  EXPECT_EQ(llvm::cantFail(a->claim(t, d, {"x=1"}, "A", 600)), (std::vector<C>{C::Claimed}))
      << "an expired claim (its owner was killed) is taken over";
}

TEST_P(DatabaseContract, NonPositiveTimesNeverWin) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("h")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  llvm::cantFail(db->commitRecord(t, d, okRecord("a=1", 0.0)));
  llvm::cantFail(db->commitRecord(t, d, okRecord("a=2", 2.0)));
  auto best = llvm::cantFail(db->getBest(t, d));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, "a=2");
}

TEST_P(DatabaseContract, EnvironmentFailuresAreForgottenByTheirText) {
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("h")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  MeasureRecord full;
  full.config = "a=1";
  full.status = MeasureStatus::CompileError;
  full.error = "linking the kernel failed\nNo space left on device: 3 MB free";
  MeasureRecord own = full;
  own.config = "a=2";
  own.error = "invalid vector width";
  llvm::cantFail(db->commitRecord(t, d, full));
  llvm::cantFail(db->commitRecord(t, d, own));
  EXPECT_TRUE(isEnvironmentFailure(full));
  EXPECT_FALSE(isEnvironmentFailure(own));
  ForgetFilter f{"h", "", 0, d};
  f.errorContains = getEnvironmentFailureMarkers();
  EXPECT_EQ(llvm::cantFail(db->forget(f, "environment")), 1);
  auto left = llvm::cantFail(db->getRecords(t));
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].config, "a=2");
}


TEST_P(DatabaseContract, StudiesKeepTheirModelsAndWorkers) {
  auto expectError = [](llvm::Error e) {
    EXPECT_TRUE(static_cast<bool>(e));
    llvm::consumeError(std::move(e));
  };
  Study s;
  s.name = "night";
  s.options = R"({"trials":12})";
  s.models = {{"b.mlir", "module {}", {{"h1", 2}, {"h2", 1}}}, {"a.mlir", "module {} // a", {}}};
  s.createdAt = 100;
  int64_t id = llvm::cantFail(db->createStudy(s));
  EXPECT_GT(id, 0);
  // Another process sees it, models in registration order, tasks intact.
  std::optional<Study> found = llvm::cantFail(sharer().findStudy("night"));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, id);
  EXPECT_EQ(found->options, s.options);
  EXPECT_EQ(found->createdAt, 100);
  ASSERT_EQ(found->models.size(), 2u);
  EXPECT_EQ(found->models[0].name, "b.mlir");
  EXPECT_EQ(found->models[0].module, "module {}");
  EXPECT_EQ(found->models[0].tasks, (std::vector<std::pair<std::string, int64_t>>{{"h1", 2},
                                                                                  {"h2", 1}}));
  EXPECT_TRUE(found->models[1].tasks.empty());
  EXPECT_FALSE(llvm::cantFail(db->findStudy("day")));
  // A name is registered once; a model named twice is refused whole.
  expectError(sharer().createStudy(s).takeError());
  Study twice = s;
  twice.name = "twice";
  twice.models[1].name = "b.mlir";
  expectError(db->createStudy(twice).takeError());
  // A task hash the stored "hash count" lines cannot hold, or a count
  // below 1, is refused before anything is written.
  for (std::pair<std::string, int64_t> bad :
       {std::pair<std::string, int64_t>{"h 1", 1}, {"h\n1", 1}, {"", 1}, {"h3", 0}}) {
    Study damaged = s;
    damaged.name = "damaged";
    damaged.models[1].tasks = {bad};
    llvm::Expected<int64_t> refused = db->createStudy(damaged);
    ASSERT_FALSE(static_cast<bool>(refused)) << bad.first;
    EXPECT_NE(llvm::toString(refused.takeError()).find("the study 'damaged'"), std::string::npos);
    EXPECT_FALSE(llvm::cantFail(db->findStudy("damaged")));
  }
  EXPECT_FALSE(llvm::cantFail(db->findStudy("twice")));
  Study other = s;
  other.name = "day";
  other.createdAt = 200;
  llvm::cantFail(db->createStudy(other));
  std::vector<Study> all = llvm::cantFail(db->listStudies());
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "night");
  EXPECT_EQ(all[1].name, "day");

  // A worker's row is replaced by its later reports; its start stays.
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  StudyWorker w{"host:1", d, "tuning", "b.mlir", 10, 11, ""};
  llvm::cantFail(db->updateStudyWorker(id, w));
  llvm::cantFail(db->updateStudyWorker(id, {"host:2", d, "tuning", "b.mlir", 12, 12, ""}));
  w.state = "failed";
  w.model = "a.mlir";
  w.startedAt = 50;
  w.updatedAt = 30;
  w.message = "disk full";
  llvm::cantFail(sharer().updateStudyWorker(id, w));
  std::vector<StudyWorker> workers = llvm::cantFail(db->listStudyWorkers(id));
  ASSERT_EQ(workers.size(), 2u);
  EXPECT_EQ(workers[0].owner, "host:1");
  EXPECT_EQ(workers[0].state, "failed");
  EXPECT_EQ(workers[0].model, "a.mlir");
  EXPECT_EQ(workers[0].startedAt, 10);
  EXPECT_EQ(workers[0].updatedAt, 30);
  EXPECT_EQ(workers[0].message, "disk full");
  EXPECT_EQ(workers[0].deviceId, d);
  EXPECT_EQ(workers[1].owner, "host:2");
  EXPECT_TRUE(llvm::cantFail(db->listStudyWorkers(all[1].id)).empty());
  expectError(db->updateStudyWorker(id + 100, w));
}

TEST_P(DatabaseContract, StudyIntervalsAndStopsKeepTheFirstWord) {
  Study s;
  s.name = "suspending";
  s.options = "{}";
  s.models = {{"a.mlir", "module {}", {{"h1", 1}}}, {"b.mlir", "module {} // b", {{"h2", 1}}},
              {"c.mlir", "module {} // c", {{"h3", 1}}}};
  int64_t id = llvm::cantFail(db->createStudy(s));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  DeviceRecord otherDevice = testDevice();
  otherDevice.fingerprint = "other";
  int64_t d2 = llvm::cantFail(db->getOrCreateDevice(otherDevice));

  // The first worker to finish an interval keeps its figure; a NaN latency
  // (a task without a best yet) is kept as such.
  EXPECT_TRUE(llvm::cantFail(db->addStudyInterval(id, d, {1, 1, 2.5, 40, 100})));
  EXPECT_FALSE(llvm::cantFail(sharer().addStudyInterval(id, d, {1, 1, 9.0, 41, 101})));
  EXPECT_TRUE(llvm::cantFail(sharer().addStudyInterval(id, d, {1, 0, NAN, 0, 99})));
  EXPECT_TRUE(llvm::cantFail(db->addStudyInterval(id, d, {0, 1, 3.0, 40, 102})));
  EXPECT_TRUE(llvm::cantFail(db->addStudyInterval(id, d2, {1, 1, 7.0, 40, 103})));
  std::vector<StudyInterval> intervals = llvm::cantFail(db->listStudyIntervals(id, d));
  ASSERT_EQ(intervals.size(), 3u);
  EXPECT_EQ(intervals[0].position, 0);
  EXPECT_EQ(intervals[1].position, 1);
  EXPECT_EQ(intervals[1].interval, 0);
  EXPECT_TRUE(std::isnan(intervals[1].latencyMs));
  EXPECT_EQ(intervals[2].interval, 1);
  EXPECT_EQ(intervals[2].latencyMs, 2.5);
  EXPECT_EQ(intervals[2].measured, 40);
  EXPECT_EQ(intervals[2].createdAt, 100);
  EXPECT_EQ(llvm::cantFail(db->listStudyIntervals(id, d2)).size(), 1u);

  // A model stops once; one suspension per synchronisation and device;
  // `done` at that interval is still kept.
  EXPECT_TRUE(llvm::cantFail(db->stopStudyModel(id, d, {1, "suspended", 3, "plateau", 200})));
  EXPECT_FALSE(llvm::cantFail(sharer().stopStudyModel(id, d, {1, "done", 4, "budget", 201})));
  EXPECT_FALSE(llvm::cantFail(sharer().stopStudyModel(id, d, {2, "suspended", 3, "plateau", 0})));
  EXPECT_TRUE(llvm::cantFail(db->stopStudyModel(id, d, {0, "done", 3, "budget spent", 0})));
  EXPECT_TRUE(llvm::cantFail(db->stopStudyModel(id, d2, {2, "suspended", 3, "plateau", 0})));
  EXPECT_TRUE(llvm::cantFail(db->stopStudyModel(id, d, {2, "suspended", 4, "plateau", 0})));
  std::vector<StudyModelStop> stops = llvm::cantFail(sharer().listStudyModelStops(id, d));
  ASSERT_EQ(stops.size(), 3u);
  EXPECT_EQ(stops[0].position, 0);
  EXPECT_EQ(stops[0].state, "done");
  EXPECT_GT(stops[0].createdAt, 0);
  EXPECT_EQ(stops[1].position, 1);
  EXPECT_EQ(stops[1].state, "suspended");
  EXPECT_EQ(stops[1].interval, 3);
  EXPECT_EQ(stops[1].reason, "plateau");
  EXPECT_EQ(stops[1].createdAt, 200);
  EXPECT_EQ(stops[2].interval, 4);
  EXPECT_EQ(llvm::cantFail(db->listStudyModelStops(id, d2)).size(), 1u);

  // Refused: another state, a negative interval, an unknown study.
  auto refused = [](llvm::Expected<bool> r) {
    EXPECT_FALSE(static_cast<bool>(r));
    if (!r)
      llvm::consumeError(r.takeError());
  };
  refused(db->stopStudyModel(id, d2, {0, "paused", 1, "", 0}));
  refused(db->stopStudyModel(id, d2, {0, "done", -1, "", 0}));
  refused(db->stopStudyModel(id + 100, d, {0, "done", 1, "", 0}));
  refused(db->addStudyInterval(id + 100, d, {0, 1, 1.0, 1, 0}));
  EXPECT_EQ(llvm::cantFail(db->listStudyModelStops(id, d2)).size(), 1u);
}
