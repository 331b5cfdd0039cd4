//===- DeviceInfoTest.cpp - Device fingerprints ---------------------------===//

#include "dltune/Execution/DeviceInfo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir::dltune;

TEST(DeviceInfo, CpuFingerprintIsStableAndFeaturesAreNamed) {
  DeviceInfo a = DeviceInfo::detect("cpu"), b = DeviceInfo::detect("cpu");
  EXPECT_GT(a.cores, 0);
  EXPECT_EQ(a.getFingerprint(), b.getFingerprint());
  EXPECT_EQ(a.getFingerprint().rfind("cpu-", 0), 0u);
  EXPECT_EQ(a.getFeatures().size(), DeviceInfo::getFeatureNames().size());
  EXPECT_EQ(a.getFeatures()[0], a.cores);
  EXPECT_NE(a.toJson().find("\"cores\""), std::string::npos);
  // Another core count is another device.
  DeviceInfo c = a;
  c.cores += 1;
  EXPECT_NE(c.getFingerprint(), a.getFingerprint());
  // Frequency readings move; they are not part of the fingerprint.
  c = a;
  c.frequencyMHz += 100;
  EXPECT_EQ(c.getFingerprint(), a.getFingerprint());
}

// Times measured with the caches flushed are another device's: the
// fingerprint, the name and the JSON say so, and the JSON reads back.
TEST(DeviceInfo, FlushedCachesAreADeviceOfTheirOwn) {
  DeviceInfo hot = DeviceInfo::detect("cpu");
  DeviceInfo cold = hot;
  cold.cachesFlushed = true;
  EXPECT_NE(cold.getFingerprint(), hot.getFingerprint());
  EXPECT_EQ(cold.getName(), hot.getName() + ", caches flushed");
  EXPECT_EQ(hot.toJson().find("timing"), std::string::npos);
  llvm::Expected<DeviceInfo> back = DeviceInfo::fromJson(cold.toJson());
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(back->cachesFlushed);
  EXPECT_EQ(back->getFingerprint(), cold.getFingerprint());
  back = DeviceInfo::fromJson(hot.toJson());
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_FALSE(back->cachesFlushed);
  llvm::Expected<DeviceInfo> bad = DeviceInfo::fromJson(R"({"timing": "lukewarm"})");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("'timing'"), std::string::npos);
}

TEST(EnergyMeter, EitherReadsOrSaysItCannot) {
  EnergyMeter m;
  std::optional<double> j = m.readJoulesSinceLast();
  EXPECT_EQ(j.has_value(), m.isAvailable());
  if (j) {
    EXPECT_GE(*j, 0.0);
  }
}

// RAPL through a made-up powercap tree: package domains summed, their
// subzones (intel-rapl:0:0, parts of package 0) and the platform domain
// (psys, which holds the packages) not counted again, and a counter that
// wrapped past its range read as the energy it counted.
TEST(EnergyMeter, SumsRaplPackagesAndSurvivesAWrap) {
  llvm::SmallString<128> root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("dltune-powercap", root));
  auto write = [&](const std::string &file, const std::string &text) {
    std::string path = (root + "/" + file).str();
    ASSERT_FALSE(llvm::sys::fs::create_directories(llvm::StringRef(path).rsplit('/').first));
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << text << "\n";
  };
  write("intel-rapl:0/energy_uj", "1000000");
  write("intel-rapl:0/max_energy_range_uj", "10000000");
  write("intel-rapl:0/intel-rapl:0:0/energy_uj", "500");
  write("intel-rapl:0:0/energy_uj", "500");
  write("intel-rapl:1/energy_uj", "2000000");
  write("intel-rapl:1/name", "package-1");
  write("intel-rapl:2/energy_uj", "7000000");
  write("intel-rapl:2/name", "psys");
  EnergyMeter meter(EnergyMeter::Source::Cpu, root.str().str());
  ASSERT_TRUE(meter.isAvailable());
  EXPECT_EQ(meter.getName(), "RAPL");
  write("intel-rapl:0/energy_uj", "3000000");       // +2 J
  write("intel-rapl:0:0/energy_uj", "900000");      // a subzone: not counted
  write("intel-rapl:1/energy_uj", "2500000");       // +0.5 J
  write("intel-rapl:2/energy_uj", "9000000");       // psys: not counted
  std::optional<double> j = meter.readJoulesSinceLast();
  ASSERT_TRUE(j.has_value());
  EXPECT_NEAR(*j, 2.5, 1e-9);
  write("intel-rapl:0/energy_uj", "1000000"); // wrapped: 10 J range, +8 J
  j = meter.readJoulesSinceLast();
  ASSERT_TRUE(j.has_value());
  EXPECT_NEAR(*j, 8.0, 1e-9);
  // A domain that cannot be read: no figure rather than a wrong one, and
  // the others keep their start (their energy is counted at the next read).
  write("intel-rapl:0/energy_uj", "2000000"); // +1 J
  llvm::sys::fs::remove((root + "/intel-rapl:1/energy_uj").str());
  EXPECT_FALSE(meter.readJoulesSinceLast().has_value());
  write("intel-rapl:1/energy_uj", "2500000");
  j = meter.readJoulesSinceLast();
  ASSERT_TRUE(j.has_value());
  EXPECT_NEAR(*j, 1.0, 1e-9);
  llvm::sys::fs::remove_directories(root);
  EXPECT_FALSE(EnergyMeter(EnergyMeter::Source::Cpu, root.str().str()).isAvailable());
}
