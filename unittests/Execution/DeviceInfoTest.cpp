//===- DeviceInfoTest.cpp - Device fingerprints ---------------------------===//

#include "dltune/Execution/DeviceInfo.h"

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

TEST(EnergyMeter, EitherReadsOrSaysItCannot) {
  EnergyMeter m;
  std::optional<double> j = m.readJoulesSinceLast();
  EXPECT_EQ(j.has_value(), m.isAvailable());
  if (j) {
    EXPECT_GE(*j, 0.0);
  }
}
