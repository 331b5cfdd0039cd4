//===- StudySettingsTest.cpp - What a study fixes for its workers ---------===//

#include "dltune/Execution/StudySettings.h"

#include "gtest/gtest.h"

#include <functional>
#include <vector>

using namespace mlir::dltune;

TEST(StudySettings, TheStudysPartRoundTripsAndTheWorkersOwnStays) {
  StudySettings study;
  study.tuner.trials = 123;
  study.tuner.strategy = "random";
  study.tuner.timeBudgetSeconds = 2.5;
  study.tuner.curveReward = true;
  study.tuner.seed = ~uint64_t(0) - 5; // above 2^63
  study.tuner.jobs = 7;                // a worker's own: not stored
  study.tuner.dbPath = "study.db";     // likewise
  study.threads = 3;
  study.winograd = false;
  study.tf32 = true;
  std::string json = encodeStudySettings(study);
  EXPECT_EQ(json.find("\"jobs\":"), std::string::npos);
  EXPECT_EQ(json.find("\"db\":"), std::string::npos);

  StudySettings worker;
  worker.tuner.jobs = 2;
  worker.tuner.dbPath = "postgresql:///x";
  worker.tuner.trials = 5;
  StudySettings joined = llvm::cantFail(decodeStudySettings(json, worker));
  EXPECT_EQ(joined.tuner.trials, 123);
  EXPECT_EQ(joined.tuner.strategy, "random");
  EXPECT_EQ(joined.tuner.timeBudgetSeconds, 2.5);
  EXPECT_TRUE(joined.tuner.curveReward);
  EXPECT_EQ(joined.tuner.seed, ~uint64_t(0) - 5);
  EXPECT_EQ(joined.threads, 3);
  EXPECT_FALSE(joined.winograd);
  EXPECT_TRUE(joined.tf32);
  EXPECT_EQ(joined.tuner.jobs, 2u);
  EXPECT_EQ(joined.tuner.dbPath, "postgresql:///x");
  EXPECT_TRUE(isWorkerOption("jobs"));
  EXPECT_FALSE(isWorkerOption("trials"));
}

TEST(StudySettings, DamagedOptionsAreRefused) {
  for (const char *bad : {"", "[]", "{\"trials\": \"many\"}", "{\"trials\": 1.5}",
                          "{\"jobs\": 3}", "{\"unknown\": 1}", "{\"threads\": -1}",
                          "{\"winograd\": 1}", "{\"confirm-top\": -1}"}) {
    llvm::Expected<StudySettings> s = decodeStudySettings(bad, StudySettings());
    EXPECT_FALSE(static_cast<bool>(s)) << bad;
    if (!s)
      EXPECT_NE(llvm::toString(s.takeError()).find("the study's options are damaged"),
                std::string::npos);
  }
}

TEST(StudySettings, SuspensionRoundTripsAndIsAbsentWhenOff) {
  StudySettings study;
  study.tuner.scheduler = "round-robin";
  // Off: the options read as a study's before suspension existed.
  EXPECT_EQ(encodeStudySettings(study).find("suspend"), std::string::npos);
  study.suspension.enabled = true;
  study.suspension.plateauIntervals = 3;
  study.suspension.minImprovement = 0.02;
  study.suspension.intervalTrials = 40;
  std::string json = encodeStudySettings(study);
  StudySettings worker;
  worker.suspension.plateauIntervals = 9; // the study's word counts, not the worker's
  StudySettings joined = llvm::cantFail(decodeStudySettings(json, worker));
  EXPECT_TRUE(joined.suspension.enabled);
  EXPECT_EQ(joined.suspension.plateauIntervals, 3);
  EXPECT_EQ(joined.suspension.minImprovement, 0.02);
  EXPECT_EQ(joined.suspension.intervalTrials, 40);
  // A study without suspension turns a worker's off.
  worker.suspension.enabled = true;
  StudySettings plain;
  plain.tuner.scheduler = "round-robin";
  EXPECT_FALSE(llvm::cantFail(decodeStudySettings(encodeStudySettings(plain), worker))
                   .suspension.enabled);

  // Settings that cannot work are refused when made and when read back.
  for (auto change : std::vector<std::function<void(StudySettings &)>>{
           [](StudySettings &s) { s.tuner.scheduler.clear(); },
           [](StudySettings &s) { s.suspension.plateauIntervals = 0; },
           [](StudySettings &s) { s.suspension.minImprovement = 1; },
           [](StudySettings &s) { s.suspension.minImprovement = -0.1; },
           [](StudySettings &s) { s.suspension.intervalTrials = -1; }}) {
    StudySettings bad = study;
    change(bad);
    llvm::Error e = validateStudySuspension(bad);
    EXPECT_TRUE(static_cast<bool>(e));
    llvm::consumeError(std::move(e));
    llvm::Expected<StudySettings> read =
        decodeStudySettings(encodeStudySettings(bad), StudySettings());
    EXPECT_FALSE(static_cast<bool>(read));
    if (!read)
      llvm::consumeError(read.takeError());
  }
  llvm::cantFail(validateStudySuspension(study));
}
