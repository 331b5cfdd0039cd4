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

} // namespace mlir::dltune::testing

#endif // DLTUNE_UNITTESTS_TUNING_DATABASETESTSUPPORT_H
