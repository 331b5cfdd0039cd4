//===- DatabaseTestSupport.h - Helpers of the database tests ----*- C++ -*-===//
#ifndef DLTUNE_UNITTESTS_TUNING_DATABASETESTSUPPORT_H
#define DLTUNE_UNITTESTS_TUNING_DATABASETESTSUPPORT_H

#include "dltune/Tuning/Database/Database.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace mlir::dltune::testing {

/// A database path of this test process, with no file (or log) left there.
inline std::string tempPath(const std::string &name) {
  std::string p = ::testing::TempDir() + "/dltune_" + name + "_" + std::to_string(::getpid());
  for (const char *suffix : {"", "-wal", "-shm"})
    std::remove((p + suffix).c_str());
  return p;
}

inline std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline MeasureRecord okRecord(const std::string &config, double ms) {
  MeasureRecord r;
  r.config = config;
  r.timeMs = ms;
  r.minMs = ms * 0.9;
  r.maxMs = ms * 1.1;
  r.repeats = 5;
  return r;
}

inline TaskRecord task(const std::string &hash) {
  TaskRecord t;
  t.hash = hash;
  t.opKind = "linalg.matmul";
  t.target = "cpu";
  t.shapes = "8x8;8x8;8x8";
  t.elementTypes = "f32;f32;f32";
  return t;
}

/// The device the tests record on.
inline DeviceRecord testDevice() { return {0, "fp", "cpu", "{}"}; }

/// One task's records, a duplicate among them, and a baseline: what
/// checkBasicRecords expects to read back (from the same database, or from
/// the file reopened).
inline void writeBasicRecords(Database &db) {
  int64_t t = llvm::cantFail(db.getOrCreateTask(task("aa")));
  EXPECT_EQ(llvm::cantFail(db.getOrCreateTask(task("aa"))), t);
  int64_t d = llvm::cantFail(db.getOrCreateDevice({0, "fp1", "cpu", "{}"}));
  EXPECT_TRUE(llvm::cantFail(db.commitRecord(t, d, okRecord("a=1", 2.0))));
  EXPECT_TRUE(llvm::cantFail(db.commitRecord(t, d, okRecord("a=2", 1.5))));
  // The same config again is ignored: never re-measured, never overwritten.
  EXPECT_FALSE(llvm::cantFail(db.commitRecord(t, d, okRecord("a=2", 0.1))));
  MeasureRecord crash;
  crash.config = "a=3";
  crash.status = MeasureStatus::RuntimeCrash;
  crash.error = "signal 11";
  EXPECT_TRUE(llvm::cantFail(db.commitRecord(t, d, crash)));
  MeasureRecord fast = okRecord("a=4", 0.5);
  fast.energyJ = 0.25;
  EXPECT_TRUE(llvm::cantFail(db.commitRecord(t, d, fast)));
  llvm::cantFail(db.setBaseline(t, d, 40.0));
}

inline void checkBasicRecords(Database &db) {
  auto tasks = llvm::cantFail(db.listTasks());
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].opKind, "linalg.matmul");
  auto records = llvm::cantFail(db.getRecords(tasks[0].id));
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[1].timeMs, 1.5);
  EXPECT_EQ(records[2].status, MeasureStatus::RuntimeCrash);
  EXPECT_EQ(records[2].error, "signal 11");
  EXPECT_TRUE(std::isnan(records[2].timeMs));
  auto best = llvm::cantFail(db.getBest(tasks[0].id));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->config, "a=4");
  ASSERT_TRUE(best->energyJ.has_value());
  EXPECT_EQ(*best->energyJ, 0.25);
  auto base = llvm::cantFail(db.getBaseline(tasks[0].id, 1));
  ASSERT_TRUE(base.has_value());
  EXPECT_EQ(*base, 40.0);
}

} // namespace mlir::dltune::testing

#endif // DLTUNE_UNITTESTS_TUNING_DATABASETESTSUPPORT_H
