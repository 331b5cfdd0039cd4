//===- TuningCostTest.cpp - Time and modelled energy of tuning ------------===//

#include "dltune/Tuning/Cost/TuningCost.h"

#include "gtest/gtest.h"

using namespace mlir::dltune;

namespace {
MeasureRecord rec(double at, const std::string &config, double ms, double build, double run,
                  MeasureStatus status = MeasureStatus::Ok) {
  MeasureRecord r;
  r.createdAt = at;
  r.config = config;
  r.status = status;
  r.timeMs = status == MeasureStatus::Ok ? ms : NAN;
  r.buildSeconds = build;
  r.runSeconds = run;
  return r;
}
} // namespace

TEST(TuningCost, ThreadsComeFromTheConfig) {
  EXPECT_EQ(getRecordThreads("tile_m=8,threads=4,unroll=2"), 4);
  EXPECT_EQ(getRecordThreads("tile_m=8"), 1);
  EXPECT_EQ(getRecordThreads("threads=0"), 1);
  EXPECT_EQ(getRecordThreads("threads=x"), 1);
  EXPECT_EQ(getRecordThreads(""), 1);
}

TEST(TuningCost, CountsColdAndFailedCandidatesInMeasurementOrder) {
  MeasureRecord imported = rec(0.5, "a=9", 1.0, 100, 100);
  imported.source = "imported"; // measured elsewhere: costs nothing here
  std::vector<MeasureRecord> records = {
      rec(4, "a=4", 5.0, 1, 1),
      rec(2, "a=2", 25.0, 1, 1), // 2.5x the best before it (10): cold
      rec(1, "a=1,threads=2", 10.0, 2, 1),
      imported,
      rec(5, "a=5", 9.0, 1, 1), // 1.8x the best before it (5): not cold
      rec(3, "a=3", 0, 3, 0, MeasureStatus::CompileError),
  };
  TuningCostOptions options;
  options.coldFactor = 2.0;
  options.power.busyWattsPerCore = 10.0;
  TaskCost c = summarizeTaskCost(records, 20.0, options);
  EXPECT_EQ(c.candidates, 5);
  EXPECT_EQ(c.failed, 1);
  EXPECT_EQ(c.cold, 1);
  EXPECT_DOUBLE_EQ(c.buildSeconds, 8.0);
  EXPECT_DOUBLE_EQ(c.runSeconds, 4.0);
  // 10 W x (build + run x threads): 40 + 20 + 30 + 20 + 20.
  EXPECT_DOUBLE_EQ(c.joules, 130.0);
  EXPECT_DOUBLE_EQ(c.coldJoules, 20.0);
  EXPECT_DOUBLE_EQ(c.coldSeconds, 2.0);
  EXPECT_DOUBLE_EQ(c.failedJoules, 30.0);
  EXPECT_DOUBLE_EQ(c.failedSeconds, 3.0);
  EXPECT_DOUBLE_EQ(c.firstMs, 10.0);
  EXPECT_DOUBLE_EQ(c.bestMs, 5.0);
  EXPECT_DOUBLE_EQ(c.getSavedMs(), 15.0);
  EXPECT_DOUBLE_EQ(c.getSecondsPerMsSaved(), 12.0 / 15.0);
  EXPECT_DOUBLE_EQ(c.getJoulesPerMsSaved(), 130.0 / 15.0);

  // A looser factor: 25 ms after 10 ms is no longer cold.
  options.coldFactor = 3.0;
  EXPECT_EQ(summarizeTaskCost(records, 20.0, options).cold, 0);
  // Without an untuned time, or with nothing saved, no cost per ms.
  EXPECT_TRUE(std::isnan(summarizeTaskCost(records, std::nullopt).getSecondsPerMsSaved()));
  EXPECT_TRUE(std::isnan(summarizeTaskCost(records, 4.0).getJoulesPerMsSaved()));
}

TEST(TuningCost, TotalsCompareLikeWithLike) {
  std::vector<MeasureRecord> fast = {rec(1, "a=1", 1.0, 1, 0)};   // 10 J
  std::vector<MeasureRecord> slow = {rec(1, "a=1", 6.0, 0.5, 0)}; // 5 J
  TaskCost a = summarizeTaskCost(fast, 4.0);         // saves 3 ms
  TaskCost b = summarizeTaskCost(slow, std::nullopt); // no untuned time
  TaskCost c = summarizeTaskCost(slow, 5.0);          // slower than untuned
  EXPECT_DOUBLE_EQ(a.getJoulesPerMsSaved(), 10.0 / 3.0);
  EXPECT_TRUE(std::isnan(b.getJoulesPerMsSaved()));
  EXPECT_TRUE(std::isnan(c.getJoulesPerMsSaved()));
  TaskCost total;
  total.add(a);
  total.add(b);
  EXPECT_EQ(total.candidates, 2);
  EXPECT_DOUBLE_EQ(total.joules, 15.0);
  // b's latency and its joules stay out of the saving.
  EXPECT_DOUBLE_EQ(total.untunedMs, 4.0);
  EXPECT_DOUBLE_EQ(total.bestMs, 1.0);
  EXPECT_DOUBLE_EQ(total.getJoulesPerMsSaved(), 10.0 / 3.0);
  // c counts with no saving (not a negative one) and its cost.
  total.add(c);
  EXPECT_DOUBLE_EQ(total.untunedMs, 9.0);
  EXPECT_DOUBLE_EQ(total.bestMs, 6.0);
  EXPECT_DOUBLE_EQ(total.getJoulesPerMsSaved(), 15.0 / 3.0);
}

TEST(TuningCost, SecondsLeftAtTheRateSoFar) {
  // 5 records over 8 s: one every 2 s; 10 more take 20 s.
  EXPECT_DOUBLE_EQ(estimateSecondsLeft({100, 102, 104, 106, 108}, 15), 20);
  // Order does not matter; a spent budget leaves nothing.
  EXPECT_DOUBLE_EQ(estimateSecondsLeft({108, 100, 104}, 5), 8);
  EXPECT_DOUBLE_EQ(estimateSecondsLeft({100, 102}, 2), 0);
  EXPECT_DOUBLE_EQ(estimateSecondsLeft({100, 102, 104}, 1), 0);
  // No rate yet.
  EXPECT_TRUE(std::isnan(estimateSecondsLeft({100}, 10)));
  EXPECT_TRUE(std::isnan(estimateSecondsLeft({}, 10)));
  EXPECT_TRUE(std::isnan(estimateSecondsLeft({100, 100}, 10)));
}

TEST(TuningCost, HypervolumeAsTheDeepGPPaperComputesIt) {
  // The paper's Table 1, MobileNet-v1 against AutoTVM: 31.14 h -> 10.06 h
  // of search (67.69% less), 0.8980 -> 0.7664 ms (14.65% less), HV 9.9168.
  CostComparison c = compareTuningOutcomes({10.06, 100, 0.7664}, {31.14, 400, 0.8980});
  EXPECT_NEAR(c.timeReduction, 67.69, 0.01);
  EXPECT_NEAR(c.latencyReduction, 14.65, 0.01);
  EXPECT_NEAR(c.getTimeHypervolume(), 9.9168, 0.005);
  EXPECT_DOUBLE_EQ(c.energyReduction, 75);
  EXPECT_NEAR(c.getEnergyHypervolume(), 75 * 14.654788 / 100, 1e-4);
  // More cost or a slower result: no hypervolume.
  CostComparison worse = compareTuningOutcomes({40, 100, 0.7}, {31.14, 100, 0.8980});
  EXPECT_LT(worse.timeReduction, 0);
  EXPECT_TRUE(std::isnan(worse.getTimeHypervolume()));
  EXPECT_TRUE(std::isnan(worse.getEnergyHypervolume())); // energy equal: no reduction
  CostComparison slower = compareTuningOutcomes({10, 50, 1.0}, {31.14, 100, 0.8980});
  EXPECT_TRUE(std::isnan(slower.getTimeHypervolume()));
}

TEST(TuningCost, MeteredJoulesReplaceTheModelWhereRecorded) {
  std::vector<MeasureRecord> records = {
      rec(1, "a=1", 10.0, 1, 1), // modelled: 10 W x 2 s = 20 J
      rec(2, "a=2", 30.0, 1, 1), // cold; metered below
      rec(3, "a=3", 0, 2, 0, MeasureStatus::CompileError), // failed; metered
  };
  records[1].candidateEnergyJ = 7.0;
  records[2].candidateEnergyJ = 3.0;
  TaskCost c = summarizeTaskCost(records, std::nullopt);
  EXPECT_EQ(c.meteredCandidates, 2);
  EXPECT_DOUBLE_EQ(c.joules, 20.0 + 7.0 + 3.0);
  EXPECT_DOUBLE_EQ(c.coldJoules, 7.0);
  EXPECT_DOUBLE_EQ(c.failedJoules, 3.0);
  // The model's figure for every candidate stays available.
  EXPECT_DOUBLE_EQ(c.modelledJoules, 20.0 + 20.0 + 20.0);
  // A damaged reading (negative, NaN) is not a measurement: modelled.
  records[1].candidateEnergyJ = -1.0;
  records[2].candidateEnergyJ = NAN;
  TaskCost damaged = summarizeTaskCost(records, std::nullopt);
  EXPECT_EQ(damaged.meteredCandidates, 0);
  EXPECT_DOUBLE_EQ(damaged.joules, 60.0);
  TaskCost total;
  total.add(c);
  total.add(damaged);
  EXPECT_EQ(total.meteredCandidates, 2);
  EXPECT_DOUBLE_EQ(total.modelledJoules, 120.0);
}
