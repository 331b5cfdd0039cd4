//===- ProcessMeasurerTest.cpp - Classifying worker outcomes --------------===//

#include "dltune/Execution/ProcessMeasurer.h"
#include "dltune/Tuning/Process/WorkerProtocol.h"

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

TEST(ClassifyWorkerResult, GpuBuildsCarryPtxasResources) {
  const char *resources = R"("gpu_resources":[{"barriers":1,"kernel":"k","registers":40,)"
                          R"("shared_bytes":8192,"threads_per_block":256}])";
  MeasureRecord ok = classifyWorkerResult(
      exited(worker::kOk, std::string("{\"built\":\"c.so\",") + resources + "}\n"), true);
  EXPECT_EQ(ok.status, MeasureStatus::Ok);
  ASSERT_EQ(ok.gpuResources.size(), 1u);
  EXPECT_EQ(ok.gpuResources[0].registers, 40);
  EXPECT_EQ(ok.gpuResources[0].sharedBytes, 8192);
  // Over the device's limits: invalid, with the message and the usage.
  MeasureRecord over = classifyWorkerResult(
      exited(worker::kInvalidConfig,
             std::string("{\"error\":\"kernel 'k' exceeds the device's limits: ...\",") +
                 resources + "}\n"),
      true);
  EXPECT_EQ(over.status, MeasureStatus::InvalidConfig);
  EXPECT_EQ(over.error, "kernel 'k' exceeds the device's limits: ...");
  EXPECT_EQ(over.gpuResources.size(), 1u);
  // A malformed report fails the build with a message, never silently.
  MeasureRecord bad = classifyWorkerResult(
      exited(worker::kOk, "{\"built\":\"c.so\",\"gpu_resources\":{}}\n"), true);
  EXPECT_EQ(bad.status, MeasureStatus::CompileError);
  EXPECT_EQ(bad.error, "malformed build report: GPU resources: expected a JSON array");
}
