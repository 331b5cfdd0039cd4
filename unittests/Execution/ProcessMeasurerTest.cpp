//===- ProcessMeasurerTest.cpp - Classifying worker outcomes --------------===//

#include "dltune/Execution/ProcessMeasurer.h"
#include "dltune/Tuning/WorkerProtocol.h"

#include "gtest/gtest.h"

#include <csignal>

using namespace mlir::dltune;

static ChildResult exited(int code, std::string out = "", std::string err = "") {
  ChildResult r;
  r.exitCode = code;
  r.out = std::move(out);
  r.err = std::move(err);
  return r;
}

TEST(ClassifyWorkerResult, EveryFailureClass) {
  ChildResult timeout;
  timeout.timedOut = true;
  EXPECT_EQ(classifyWorkerResult(timeout, true).status, MeasureStatus::CompileTimeout);
  EXPECT_EQ(classifyWorkerResult(timeout, false).status, MeasureStatus::RunTimeout);
  ChildResult segv;
  segv.signal = SIGSEGV;
  MeasureRecord crash = classifyWorkerResult(segv, false);
  EXPECT_EQ(crash.status, MeasureStatus::RuntimeCrash);
  EXPECT_NE(crash.error.find("signal 11"), std::string::npos);
  EXPECT_EQ(classifyWorkerResult(segv, true).status, MeasureStatus::CompileError);
  ChildResult killed;
  killed.signal = SIGKILL;
  EXPECT_EQ(classifyWorkerResult(killed, false).status, MeasureStatus::OutOfMemory);
  EXPECT_EQ(classifyWorkerResult(exited(worker::kInvalidConfig), true).status,
            MeasureStatus::InvalidConfig);
  MeasureRecord cerr = classifyWorkerResult(
      exited(worker::kCompileError, "{\"error\":\"no vectorization\"}\n"), true);
  EXPECT_EQ(cerr.status, MeasureStatus::CompileError);
  EXPECT_EQ(cerr.error, "no vectorization");
  EXPECT_EQ(classifyWorkerResult(exited(worker::kWrongResult), false).status,
            MeasureStatus::WrongResult);
  EXPECT_EQ(classifyWorkerResult(exited(worker::kOutOfMemory), false).status,
            MeasureStatus::OutOfMemory);
  EXPECT_EQ(classifyWorkerResult(exited(42, "", "boom"), false).status,
            MeasureStatus::RuntimeCrash);
}

TEST(ClassifyWorkerResult, OkReadsTheTimingsAndFlagsNoise) {
  MeasureRecord ok = classifyWorkerResult(
      exited(0, "some log line\n{\"median_ms\":2.0,\"min_ms\":1.9,\"max_ms\":2.2,"
                "\"stddev_ms\":0.05,\"repeats\":20,\"energy_j\":0.5}\n"),
      false);
  EXPECT_TRUE(ok.isOk());
  EXPECT_EQ(ok.timeMs, 2.0);
  EXPECT_EQ(ok.repeats, 20);
  ASSERT_TRUE(ok.energyJ.has_value());
  EXPECT_EQ(*ok.energyJ, 0.5);
  EXPECT_FALSE(ok.noisy);
  MeasureRecord noisy = classifyWorkerResult(
      exited(0, "{\"median_ms\":2.0,\"min_ms\":1.0,\"max_ms\":5.0,\"stddev_ms\":1.0,"
                "\"repeats\":20}\n"),
      false);
  EXPECT_TRUE(noisy.noisy);
  MeasureRecord silent = classifyWorkerResult(exited(0, "not json"), false);
  EXPECT_EQ(silent.status, MeasureStatus::RuntimeCrash);
}
