//===- TunerOptionsTest.cpp - What tuner options reach the scheduler ------===//

#include "dltune/Execution/TunerOptions.h"

#include "gtest/gtest.h"

using namespace mlir::dltune;

TEST(TunerOptionsTest, DynaTuneOptionsReachTheScheduler) {
  ModuleTunerOptions o;
  SchedulerOptions so = getSchedulerOptions(o);
  // By default the spread reward and the paper's C.
  EXPECT_TRUE(so.gapReward);
  EXPECT_EQ(so.ucbC, 2);
  o.scheduler = "dynatune";
  o.curveReward = true;
  o.ucbC = 0.5;
  o.probeShare = 1;
  o.shareCap = true;
  o.seed = 7;
  so = getSchedulerOptions(o);
  EXPECT_FALSE(so.gapReward);
  EXPECT_EQ(so.ucbC, 0.5);
  EXPECT_EQ(so.probeShare, 1);
  EXPECT_TRUE(so.shareCap);
  EXPECT_EQ(so.seed, 7u);
  EXPECT_EQ(llvm::toString(validateTunerOptions(o)), "");
  // The same options refused for another scheduler.
  o.scheduler = "gradient";
  o.probeShare = 0.5;
  o.shareCap = false;
  EXPECT_EQ(llvm::toString(validateTunerOptions(o)),
            "ucb-c and curve-reward apply to scheduler dynatune only");
}
