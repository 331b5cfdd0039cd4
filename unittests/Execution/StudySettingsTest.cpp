//===- StudySettingsTest.cpp - What a study fixes for its workers ---------===//

#include "dltune/Execution/StudySettings.h"

#include "gtest/gtest.h"

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
