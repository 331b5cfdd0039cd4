//===- PredictiveCalibrationTest.cpp - Mean shift and conformal scale -----===//

#include "dltune/Tuning/Transfer/PredictiveCalibration.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::dltune;

namespace {
/// A model that is off by `shift` and claims sd `claimed` where the truth
/// scatters with sd `actual`.
void sample(size_t n, double shift, double claimed, double actual, uint64_t seed,
            std::vector<double> &y, std::vector<double> &mean, std::vector<double> &var) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, actual);
  std::uniform_real_distribution<double> where(-2, 2);
  y.clear();
  mean.clear();
  var.clear();
  for (size_t i = 0; i < n; ++i) {
    double m = where(rng);
    mean.push_back(m);
    var.push_back(claimed * claimed);
    y.push_back(m + shift + noise(rng));
  }
}

double coverage90(const std::vector<double> &y, const std::vector<double> &mean,
                  const std::vector<double> &var) {
  size_t in = 0;
  for (size_t i = 0; i < y.size(); ++i)
    in += std::fabs(y[i] - mean[i]) <= 1.6448536 * std::sqrt(var[i]);
  return double(in) / double(y.size());
}
} // namespace

TEST(PredictiveCalibration, ShiftsAndWidensAnOverconfidentModel) {
  std::vector<double> y, mean, var;
  sample(200, 1.0, 0.1, 0.5, 1, y, mean, var);
  PredictiveCalibration c = PredictiveCalibration::fit(y, mean, var);
  EXPECT_EQ(c.rows, 200u);
  EXPECT_FALSE(c.scaleFromMaximum);
  EXPECT_NEAR(c.meanShift, 1.0, 0.1);
  EXPECT_NEAR(c.scale, 5.0, 0.8); // 0.5 / 0.1
  // On fresh rows of the same device: 90% intervals hold about 90%
  // (conformal bounds err on the wide side; 200 calibration rows leave a few
  // percent of sampling noise).
  sample(4000, 1.0, 0.1, 0.5, 2, y, mean, var);
  EXPECT_LT(coverage90(y, mean, var), 0.05);
  c.apply(mean, var);
  double after = coverage90(y, mean, var);
  EXPECT_GE(after, 0.87);
  EXPECT_LE(after, 0.96);
}

TEST(PredictiveCalibration, AWellCalibratedModelIsLeftAlmostAsItIs) {
  std::vector<double> y, mean, var;
  sample(2000, 0.0, 0.3, 0.3, 3, y, mean, var);
  PredictiveCalibration c = PredictiveCalibration::fit(y, mean, var);
  EXPECT_NEAR(c.meanShift, 0.0, 0.03);
  EXPECT_NEAR(c.scale, 1.0, 0.08);
}

TEST(PredictiveCalibration, FewRowsModelsWithoutVarianceAndBadRows) {
  std::vector<double> y = {1.0, 2.0, 3.5, NAN, 0.5}, mean = {0.0, 1.0, 2.0, 0.0, 0.0};
  std::vector<double> var = {1.0, 1.0, 1.0, 1.0, 0.0}; // the last variance is unusable
  PredictiveCalibration c = PredictiveCalibration::fit(y, mean, var);
  EXPECT_EQ(c.rows, 3u); // NaN and zero variance left out
  EXPECT_DOUBLE_EQ(c.meanShift, 1.0); // residuals 1, 1, 1.5
  // 3 rows give no finite 90% conformal bound: the largest score stands in.
  EXPECT_TRUE(c.scaleFromMaximum);
  EXPECT_NEAR(c.scale, 0.5 / 1.6448536, 1e-6);
  // Without a variance: the shift only.
  PredictiveCalibration shiftOnly = PredictiveCalibration::fit(y, mean, {});
  EXPECT_EQ(shiftOnly.rows, 4u);
  EXPECT_DOUBLE_EQ(shiftOnly.meanShift, 1.0); // residuals 1, 1, 1.5, 0.5
  EXPECT_DOUBLE_EQ(shiftOnly.scale, 1.0);
  std::vector<double> m = {0.0}, none;
  shiftOnly.apply(m, none);
  EXPECT_DOUBLE_EQ(m[0], 1.0);
  EXPECT_TRUE(none.empty());
  // Nothing usable: no correction.
  PredictiveCalibration empty = PredictiveCalibration::fit({}, {}, {});
  EXPECT_EQ(empty.rows, 0u);
  EXPECT_DOUBLE_EQ(empty.meanShift, 0.0);
  EXPECT_DOUBLE_EQ(empty.scale, 1.0);
}
