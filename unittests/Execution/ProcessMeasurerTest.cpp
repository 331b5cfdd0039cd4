//===- ProcessMeasurerTest.cpp - Classifying worker outcomes --------------===//

#include "dltune/Execution/ProcessMeasurer.h"
#include "dltune/Tuning/Process/WorkerProtocol.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <csignal>
#include <deque>
#include <sys/stat.h>

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

// A made-up worker (a shell script) and meter: each candidate's energy is
// its share of the batch's build reading, by build seconds, plus its own
// measurement's reading; a failed build pays its share too.
TEST(ProcessMeasurer, MetersEachCandidatesBuildShareAndMeasurement) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("dltune-energy", dir));
  std::string worker = (dir + "/worker.sh").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(worker, ec);
    ASSERT_FALSE(ec);
    // build: a=1 takes longer than a=2; a=3 fails. measure: a fixed report.
    os << "#!/bin/sh\n"
          "mode=$2; shift 2\n"
          "config=; out=\n"
          "while [ $# -gt 0 ]; do case $1 in --config) config=$2;; --out) out=$2;; esac; "
          "shift; done\n"
          "if [ \"$mode\" = build ]; then\n"
          "  case $config in a=1) sleep 0.3;; a=3) echo '{\"error\":\"no\"}'; exit 3;; esac\n"
          "  : > \"$out\"; exit 0\n"
          "fi\n"
          "echo '{\"median_ms\":2.0,\"min_ms\":1.95,\"max_ms\":2.05,\"stddev_ms\":0.01,"
          "\"repeats\":5}'\n";
  }
  ASSERT_EQ(::chmod(worker.c_str(), 0755), 0);
  SearchSpace space = llvm::cantFail(SearchSpace::create({{"a", {1, 2, 3}}}, {}, {}));
  ProcessMeasurerOptions options;
  options.workerPath = worker;
  options.kernelPath = (dir + "/kernel.mlir").str();
  options.referencePath = (dir + "/reference.bin").str();
  options.workDir = dir.str().str();
  options.jobs = 3;
  // Readings in call order: before the builds, after them (30 J), then
  // before and after each measurement (5 J for a=1, 7 J for a=2).
  auto readings = std::make_shared<std::deque<double>>(std::deque<double>{99, 30, 99, 5, 99, 7});
  options.readEnergyJoules = [readings]() -> std::optional<double> {
    if (readings->empty())
      return std::nullopt;
    double j = readings->front();
    readings->pop_front();
    return j;
  };
  ProcessMeasurer measurer(space, options);
  std::vector<MeasureRecord> records = measurer.measure({{1}, {2}, {3}});
  llvm::sys::fs::remove_directories(dir);
  ASSERT_EQ(records.size(), 3u);
  ASSERT_TRUE(records[0].isOk()) << records[0].error;
  ASSERT_TRUE(records[1].isOk()) << records[1].error;
  EXPECT_EQ(records[2].status, MeasureStatus::CompileError);
  EXPECT_TRUE(readings->empty());
  double seconds =
      records[0].buildSeconds + records[1].buildSeconds + records[2].buildSeconds;
  ASSERT_GT(records[0].buildSeconds, records[1].buildSeconds);
  for (const MeasureRecord &r : records)
    ASSERT_TRUE(r.candidateEnergyJ.has_value()) << r.config;
  EXPECT_NEAR(*records[0].candidateEnergyJ, 30 * records[0].buildSeconds / seconds + 5, 1e-9);
  EXPECT_NEAR(*records[1].candidateEnergyJ, 30 * records[1].buildSeconds / seconds + 7, 1e-9);
  EXPECT_NEAR(*records[2].candidateEnergyJ, 30 * records[2].buildSeconds / seconds, 1e-9);
  // The batch's readings are all accounted for, none twice.
  EXPECT_NEAR(*records[0].candidateEnergyJ + *records[1].candidateEnergyJ +
                  *records[2].candidateEnergyJ,
              42, 1e-9);
}

TEST(ProcessMeasurer, SplitsParallelBuildsBySeconds) {
  std::vector<double> shares = splitBySeconds({3, 1, 0});
  ASSERT_EQ(shares.size(), 3u);
  EXPECT_DOUBLE_EQ(shares[0], 0.75);
  EXPECT_DOUBLE_EQ(shares[1], 0.25);
  EXPECT_DOUBLE_EQ(shares[2], 0.0);
  // No seconds known (every build failed to start): equal shares.
  EXPECT_EQ(splitBySeconds({0, 0}), (std::vector<double>{0.5, 0.5}));
}
