//===- DatabaseSafetyTest.cpp - Misuse, full disks and concurrency --------===//
//
// The database under what users and machines do to it: paths that would
// keep nothing, damaged versions, a full disk, several processes (here:
// connections) at once. What every implementation must do (claims,
// forgetting, best records) is DatabaseContractTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Database/SqliteDatabase.h"
#include "dltune/Tuning/Support/OutputFile.h"

#include "DatabaseTestSupport.h"

#include "gtest/gtest.h"

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace mlir::dltune;

using namespace mlir::dltune::testing;

namespace {
std::string errorOf(llvm::Expected<std::unique_ptr<Database>> db) {
  return db ? std::string() : llvm::toString(db.takeError());
}
} // namespace

TEST(DatabaseSafety, RefusesPathsThatKeepNothing) {
  EXPECT_NE(errorOf(Database::open(":memory:")).find("in-memory"), std::string::npos);
  EXPECT_NE(errorOf(Database::open("")).find("empty"), std::string::npos);
  EXPECT_NE(errorOf(Database::open("file:x.db?mode=memory")).find("in-memory"),
            std::string::npos);
  EXPECT_NE(errorOf(Database::open(::testing::TempDir())).find("directory"), std::string::npos);
  // Tests and fuzzers get one explicitly.
  auto memory = Database::openInMemory();
  ASSERT_TRUE(static_cast<bool>(memory)) << llvm::toString(memory.takeError());
  EXPECT_EQ((*memory)->getSchemaVersion(), Database::kSchemaVersion);
}

TEST(DatabaseSafety, RefusesDamagedVersionsUntouched) {
  for (int version : {0, -1}) {
    std::string path = tempPath("safety_version");
    {
      sqlite3 *raw;
      ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
      std::string sql = "PRAGMA application_id = 1684829301; CREATE TABLE devices(id);"
                        "PRAGMA user_version = " + std::to_string(version) + ";";
      ASSERT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
      sqlite3_close(raw);
    }
    std::string before = slurp(path);
    std::string error = errorOf(Database::open(path));
    EXPECT_NE(error.find("damaged"), std::string::npos) << version << ": " << error;
    EXPECT_EQ(slurp(path), before);
  }
}

TEST(DatabaseSafety, UnwritableDirectoryIsNotCalledAForeignFile) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root writes into read-only directories";
  std::string dir = tempPath("safety_rodir");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  {
    auto db = Database::open(dir + "/x.db");
    ASSERT_TRUE(static_cast<bool>(db));
  }
  std::remove((dir + "/x.db-wal").c_str());
  std::remove((dir + "/x.db-shm").c_str());
  ::chmod(dir.c_str(), 0500);
  std::string error = errorOf(Database::open(dir + "/x.db"));
  ::chmod(dir.c_str(), 0700);
  EXPECT_EQ(error.find("not a dltune database"), std::string::npos) << error;
  EXPECT_NE(error.find("writable"), std::string::npos) << error;
}

TEST(DatabaseSafety, FullDiskIsAnErrorAndKeepsWhatWasCommitted) {
  std::string path = tempPath("safety_full");
  auto db = llvm::cantFail(SqliteDatabase::open(path));
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("h")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  ASSERT_TRUE(llvm::cantFail(db->commitRecord(t, d, okRecord("a=1", 1.0))));
  llvm::cantFail(db->limitFileSize(0)); // as full as it is now
  bool failed = false;
  for (int i = 0; i < 200 && !failed; ++i) {
    MeasureRecord r = okRecord("a=" + std::to_string(i + 2), 2.0);
    r.error = std::string(4000, 'x'); // fills pages fast
    llvm::Expected<bool> inserted = db->commitRecord(t, d, r);
    if (!inserted) {
      std::string message = llvm::toString(inserted.takeError());
      EXPECT_NE(message.find("full"), std::string::npos) << message;
      failed = true;
    }
  }
  EXPECT_TRUE(failed) << "a capped database never reported a full disk";
  db.reset();
  auto reopened = llvm::cantFail(Database::open(path));
  auto records = llvm::cantFail(reopened->getRecords(t));
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records[0].config, "a=1");
}

TEST(DatabaseSafety, ConcurrentOpensOfANewFileCreateTheSchemaOnce) {
  for (int round = 0; round < 5; ++round) {
    std::string path = tempPath("safety_concurrent");
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 6; ++i)
      threads.emplace_back([&, i] {
        auto db = Database::open(path);
        if (!db) {
          ADD_FAILURE() << llvm::toString(db.takeError());
          ++failures;
          return;
        }
        int64_t t = llvm::cantFail((*db)->getOrCreateTask(task("h")));
        int64_t d = llvm::cantFail((*db)->getOrCreateDevice(testDevice()));
        llvm::Expected<bool> ok = (*db)->commitRecord(t, d, okRecord("a=" + std::to_string(i), 1));
        if (!ok) {
          ADD_FAILURE() << llvm::toString(ok.takeError());
          ++failures;
        }
      });
    for (std::thread &t : threads)
      t.join();
    EXPECT_EQ(failures.load(), 0);
    auto db = llvm::cantFail(Database::open(path));
    EXPECT_EQ(llvm::cantFail(db->getRecords(1)).size(), 6u);
  }
}

TEST(DatabaseSafety, WritersWaitForAHeldLock) {
  std::string path = tempPath("safety_lock");
  auto db = llvm::cantFail(Database::open(path));
  int64_t t = llvm::cantFail(db->getOrCreateTask(task("h")));
  int64_t d = llvm::cantFail(db->getOrCreateDevice(testDevice()));
  std::atomic<bool> locked{false};
  // Another process holds the write lock for longer than the old 5 s
  // timeout: the record waits, it is not dropped.
  std::thread holder([&] {
    sqlite3 *raw;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "BEGIN IMMEDIATE;", nullptr, nullptr, nullptr), SQLITE_OK);
    locked = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(6000));
    sqlite3_exec(raw, "COMMIT;", nullptr, nullptr, nullptr);
    sqlite3_close(raw);
  });
  while (!locked)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  llvm::Expected<bool> inserted = db->commitRecord(t, d, okRecord("a=1", 1.0));
  holder.join();
  ASSERT_TRUE(static_cast<bool>(inserted)) << llvm::toString(inserted.takeError());
  EXPECT_TRUE(*inserted);
}

TEST(OutputFile, AFailedWriteLeavesTheOldFile) {
  std::string path = tempPath("safety_out");
  { std::ofstream(path) << "precious\n"; }
  llvm::Error e = writeFileAtomically(path, [](std::ostream &os) -> llvm::Error {
    os << "half";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the export failed");
  });
  EXPECT_TRUE(static_cast<bool>(e));
  llvm::consumeError(std::move(e));
  EXPECT_EQ(slurp(path), "precious\n");
  llvm::cantFail(writeFileAtomically(path, [](std::ostream &os) -> llvm::Error {
    os << "new\n";
    return llvm::Error::success();
  }));
  EXPECT_EQ(slurp(path), "new\n");
  EXPECT_TRUE(isSameFile(path, path));
  EXPECT_FALSE(isSameFile(path, path + "-other"));
  // A file that does not exist yet (a database's -wal) is matched by name.
  std::string dir = path.substr(0, path.rfind('/'));
  std::string name = path.substr(path.rfind('/') + 1);
  EXPECT_TRUE(isSameFile(path + "-wal", dir + "/./" + name + "-wal"));
}

TEST(OutputFile, DeviceWriteErrorsAreErrors) {
  if (::access("/dev/full", W_OK) != 0)
    GTEST_SKIP() << "no /dev/full";
  llvm::Error e = writeFileAtomically("/dev/full", [](std::ostream &os) -> llvm::Error {
    os << std::string(1 << 16, 'x');
    return llvm::Error::success();
  });
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("No space left"), std::string::npos);
}

TEST(DatabaseSafety, ReadOnlyOpenReadsAndChangesNothing) {
  std::string path = tempPath("safety_readonly");
  {
    auto db = llvm::cantFail(Database::open(path));
    TaskRecord t;
    t.hash = "h";
    t.opKind = "linalg.matmul";
    int64_t task = llvm::cantFail(db->getOrCreateTask(t));
    int64_t device = llvm::cantFail(db->getOrCreateDevice({0, "fp", "cpu", "{}"}));
    MeasureRecord r;
    r.config = "x=1";
    r.timeMs = 1.5;
    llvm::cantFail(db->commitRecord(task, device, r));
  }
  std::string before = slurp(path);
  {
    auto db = llvm::cantFail(Database::openReadOnly(path));
    auto tasks = llvm::cantFail(db->listTasks());
    ASSERT_EQ(tasks.size(), 1u);
    auto records = llvm::cantFail(db->getRecords(tasks[0].id));
    ASSERT_EQ(records.size(), 1u);
    EXPECT_DOUBLE_EQ(records[0].timeMs, 1.5);
    // Writes fail instead of changing the file.
    TaskRecord other;
    other.hash = "other";
    llvm::Expected<int64_t> written = db->getOrCreateTask(other);
    EXPECT_FALSE(static_cast<bool>(written));
    if (!written)
      llvm::consumeError(written.takeError());
  }
  EXPECT_EQ(slurp(path), before);
  // An older schema is refused, not migrated; so are missing and empty files.
  std::string old = tempPath("safety_readonly_old");
  {
    sqlite3 *raw;
    ASSERT_EQ(sqlite3_open(old.c_str(), &raw), SQLITE_OK);
    const char *sql = "PRAGMA application_id = 1684829301; CREATE TABLE devices(id);"
                      "PRAGMA user_version = 1;";
    ASSERT_EQ(sqlite3_exec(raw, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
  }
  std::string oldBefore = slurp(old);
  EXPECT_NE(errorOf(Database::openReadOnly(old)).find("migrate it first"), std::string::npos);
  EXPECT_EQ(slurp(old), oldBefore);
  EXPECT_NE(errorOf(Database::openReadOnly(old + ".missing")).find("does not exist"),
            std::string::npos);
  std::string empty = tempPath("safety_readonly_empty");
  { std::ofstream(empty).flush(); }
  EXPECT_NE(errorOf(Database::openReadOnly(empty)).find("no dltune database"), std::string::npos);
}
