//===- DeviceFeaturesTest.cpp - Device specs, the device mean, and their use -===//

#include "dltune/Tuning/Transfer/DeviceMean.h"
#include "dltune/Tuning/Device/DeviceSpecs.h"
#include "dltune/Tuning/CostModel/ModelEvaluation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::dltune;

TEST(DeviceSpecs, FoundByCacheNameAliasOrFileStem) {
  std::optional<DeviceSpec> byName = findDeviceSpec("NVIDIA GeForce RTX 3090");
  ASSERT_TRUE(byName);
  EXPECT_EQ(byName->vendor, "nvidia");
  // The file stem of a cache whose device_name is empty.
  std::optional<DeviceSpec> byStem = findDeviceSpec("RTX_3090");
  ASSERT_TRUE(byStem);
  EXPECT_EQ(byStem->name, byName->name);
  std::optional<DeviceSpec> amd = findDeviceSpec("mi250x");
  ASSERT_TRUE(amd);
  EXPECT_EQ(amd->vendor, "amd");
  EXPECT_FALSE(findDeviceSpec("Imaginary GPU 9000"));
  EXPECT_FALSE(findDeviceSpec(""));
  EXPECT_FALSE(findDeviceSpec("--"));
}

TEST(DeviceSpecs, FeaturesAreLogsAndAVendorFlag) {
  DeviceSpec spec{"x", {}, 1024, 512, 64, 2048, 4, "nvidia"};
  std::vector<float> f = getDeviceFeatures(spec);
  ASSERT_EQ(f.size(), getDeviceFeatureNames().size());
  EXPECT_FLOAT_EQ(f[0], 10);
  EXPECT_FLOAT_EQ(f[1], 9);
  EXPECT_FLOAT_EQ(f[2], 6);
  EXPECT_FLOAT_EQ(f[3], 11);
  EXPECT_FLOAT_EQ(f[4], 2);
  EXPECT_FLOAT_EQ(f[5], 1);
  spec.vendor = "amd";
  EXPECT_FLOAT_EQ(getDeviceFeatures(spec)[5], 0);
}

static std::string writeTemp(const std::string &text) {
  llvm::SmallString<128> path;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("specs", "json", path));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  os << text;
  return path.str().str();
}

TEST(DeviceSpecs, UserFileAddsDevicesAndIsChecked) {
  std::string good = writeTemp(R"({"Lab GPU": {"fp32_gflops": 5000, "memory_gbs": 300,
      "compute_units": 20, "clock_mhz": 1500, "l2_mb": 2, "vendor": "NVIDIA",
      "aliases": ["lab_gpu_v1"]}})");
  llvm::Expected<std::vector<DeviceSpec>> specs = loadDeviceSpecs(good);
  ASSERT_TRUE(static_cast<bool>(specs)) << llvm::toString(specs.takeError());
  std::optional<DeviceSpec> found = findDeviceSpec("LAB-GPU-V1", *specs);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->vendor, "nvidia");
  EXPECT_EQ(found->fp32Gflops, 5000);

  std::string missing = writeTemp(R"({"Lab GPU": {"fp32_gflops": 5000}})");
  llvm::Expected<std::vector<DeviceSpec>> bad = loadDeviceSpecs(missing);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("memory_gbs is missing"), std::string::npos);
  std::string zero = writeTemp(R"({"G": {"fp32_gflops": 0, "memory_gbs": 1, "compute_units": 1,
      "clock_mhz": 1, "l2_mb": 1, "vendor": "amd"}})");
  bad = loadDeviceSpecs(zero);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("fp32_gflops must be positive"),
            std::string::npos);
  bad = loadDeviceSpecs(writeTemp("[1, 2]"));
  ASSERT_FALSE(static_cast<bool>(bad));
  llvm::consumeError(bad.takeError());
  bad = loadDeviceSpecs(writeTemp("{"));
  ASSERT_FALSE(static_cast<bool>(bad));
  llvm::consumeError(bad.takeError());
}

// Devices whose mean log-time is exactly 3 - log(peak): the fit predicts an
// unseen fifth device from its features alone.
TEST(DeviceMean, ExtrapolatesALinearLawToAnUnseenDevice) {
  std::vector<std::vector<float>> rows;
  std::vector<double> logs;
  double peaks[] = {1, 2, 4, 8};
  for (double peak : peaks)
    for (int i = 0; i < 10; ++i) { // 10 rows around each device's mean
      rows.push_back({static_cast<float>(std::log(peak)), 1.0f});
      logs.push_back(3 - std::log(peak) + (i % 2 ? 0.1 : -0.1));
    }
  DeviceMean mean = DeviceMean::fit(rows, logs);
  EXPECT_EQ(mean.getDeviceCount(), 4u);
  EXPECT_NEAR(mean.predict({static_cast<float>(std::log(2.0)), 1.0f}), 3 - std::log(2.0), 0.05);
  // Outside the training range: 16x the slowest device's peak.
  EXPECT_NEAR(mean.predict({static_cast<float>(std::log(16.0)), 1.0f}), 3 - std::log(16.0), 0.1);
  // The penalty was chosen by leave-one-device-out error: small for an
  // exact law.
  EXPECT_LE(mean.getPenalty(), 0.1);
}

TEST(DeviceMean, DevicesCountOnceAndOneDeviceGivesItsMean) {
  // Device A has 100 rows at log-time 0, device B 1 row at 2: the
  // intercept is the mean over devices, not rows.
  std::vector<std::vector<float>> rows(100, {0.0f});
  std::vector<double> logs(100, 0.0);
  rows.push_back({1.0f});
  logs.push_back(2.0);
  DeviceMean two = DeviceMean::fit(rows, logs);
  EXPECT_EQ(two.getDeviceCount(), 2u);
  EXPECT_NEAR(two.predict({0.5f}), 1.0, 1e-9);
  DeviceMean one = DeviceMean::fit({{1.0f}, {1.0f}}, {1.0, 3.0});
  EXPECT_NEAR(one.predict({5.0f}), 2.0, 1e-12);
}

/// The same 8x6 space on a device `speed` times faster, with `context`.
static TimedConfigs quadraticRowsOn(double speed, const std::vector<float> &context) {
  TimedConfigs rows;
  for (int64_t x = 1; x <= 8; ++x)
    for (int64_t y = 1; y <= 6; ++y) {
      rows.configs.push_back({x, y});
      rows.timesMs.push_back((1 + std::pow(x - 5.0, 2) + 0.5 * std::pow(y - 2.0, 2)) / speed);
    }
  rows.setContext(context);
  return rows;
}

// Three source devices and an unseen target that is 4x faster than the
// fastest of them, with the same ranking of configurations: trees see the
// device features but cannot extrapolate; with the device mean the
// prediction is close.
TEST(DeviceFeatures, DeviceMeanPredictsAnUnseenFasterDevice) {
  llvm::Expected<SearchSpace> space =
      SearchSpace::create({{"x", {1, 2, 3, 4, 5, 6, 7, 8}}, {"y", {1, 2, 3, 4, 5, 6}}}, {}, {});
  ASSERT_TRUE(static_cast<bool>(space));
  auto rowsOn = [](double speed) {
    return quadraticRowsOn(speed, {static_cast<float>(std::log2(speed)), 1.0f});
  };
  TimedConfigs history;
  for (double speed : {1.0, 2.0, 4.0})
    ASSERT_FALSE(static_cast<bool>(history.append(rowsOn(speed))));
  TimedConfigs target = rowsOn(16.0);
  std::unique_ptr<FeatureExtractor> features = createKnobFeatureExtractor(*space);
  ModelEvalOptions plain, withMean;
  withMean.deviceMean = true;
  llvm::Expected<ModelEvalCase> without =
      evaluateModelOnTarget("xgb", history, target, *features, 0, 1, plain);
  llvm::Expected<ModelEvalCase> with =
      evaluateModelOnTarget("xgb", history, target, *features, 0, 1, withMean);
  ASSERT_TRUE(static_cast<bool>(without)) << llvm::toString(without.takeError());
  ASSERT_TRUE(static_cast<bool>(with)) << llvm::toString(with.takeError());
  // 16x vs the nearest 4x: without a device mean the error is ~log(4).
  EXPECT_GT(without->metrics.rmse, 1.0);
  EXPECT_LT(with->metrics.rmse, 0.3);
  ASSERT_TRUE(with->targetDeviceMean);
  EXPECT_FALSE(without->targetDeviceMean);

  // Rows with and without device features do not mix.
  TimedConfigs bare = rowsOn(1.0);
  bare.context.clear();
  llvm::Error mixed = history.append(bare);
  EXPECT_TRUE(static_cast<bool>(mixed));
  llvm::consumeError(std::move(mixed));
  llvm::Expected<ModelEvalCase> noFeatures =
      evaluateModelOnTarget("xgb", bare, bare, *features, 0, 1, withMean);
  ASSERT_FALSE(static_cast<bool>(noFeatures));
  llvm::consumeError(noFeatures.takeError());
}

// Device features that are constant over the training rows (one training
// device) carry nothing a GP could learn: they must not make the unseen
// device's rows look far away, or its ranking is lost.
TEST(DeviceFeatures, ConstantTrainingFeaturesDoNotHideTheRanking) {
  llvm::Expected<SearchSpace> space =
      SearchSpace::create({{"x", {1, 2, 3, 4, 5, 6, 7, 8}}, {"y", {1, 2, 3, 4, 5, 6}}}, {}, {});
  ASSERT_TRUE(static_cast<bool>(space));
  auto rowsOn = [](double speed) {
    return quadraticRowsOn(speed, {static_cast<float>(std::log2(speed)), 3.0f, 1.0f});
  };
  std::unique_ptr<FeatureExtractor> features = createKnobFeatureExtractor(*space);
  llvm::Expected<ModelEvalCase> result =
      evaluateModelOnTarget("gp", rowsOn(1.0), rowsOn(4.0), *features, 0, 1, ModelEvalOptions{});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_GT(result->metrics.spearman, 0.9);
}
