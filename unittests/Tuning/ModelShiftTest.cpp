//===- ModelShiftTest.cpp - LMS and NLMS recover known shifts -------------===//

#include "dltune/Tuning/Transfer/ModelShift.h"
#include "dltune/Tuning/Transfer/TransferCostModel.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::dltune;

namespace {
/// A source model whose prediction is a known function of the two
/// features: what a model pretrained on the source device would say.
class KnownSourceModel : public CostModel {
public:
  llvm::StringRef getName() const override { return "known"; }
  bool isTrained() const override { return true; }
  llvm::Error fit(const FeatureMatrix &, const std::vector<double> &) override {
    return llvm::Error::success();
  }
  llvm::Expected<std::vector<double>> predict(const FeatureMatrix &x) const override {
    std::vector<double> out;
    for (size_t r = 0; r < x.rows(); ++r)
      out.push_back(sourcePrediction(x.row(r)[0], x.row(r)[1]));
    return out;
  }
  llvm::Error save(const std::string &) const override { return llvm::Error::success(); }
  llvm::Error load(const std::string &) override { return llvm::Error::success(); }

  /// In [0.1, 1], smooth in both knobs.
  static double sourcePrediction(double a, double b) {
    return 0.1 + 0.9 * (0.6 * a / 11 + 0.4 * (1 - (b - 5) * (b - 5) / 36));
  }
};

/// A 12 x 12 grid of two knobs and the source prediction of every row.
struct Grid {
  FeatureMatrix x;
  std::vector<double> source;
};

Grid makeGrid() {
  Grid g;
  g.x.cols = 2;
  for (int a = 0; a < 12; ++a)
    for (int b = 0; b < 12; ++b) {
      g.x.append({static_cast<float>(a), static_cast<float>(b)});
      g.source.push_back(KnownSourceModel::sourcePrediction(a, b));
    }
  return g;
}

/// The target device's label of every row: `shift` of the source's.
std::vector<double> shiftedTarget(const Grid &grid, const std::function<double(double)> &shift) {
  std::vector<double> target;
  for (double s : grid.source)
    target.push_back(shift(s));
  return target;
}

/// Every `stride`-th row, as the target rows measured before a fit.
FeatureMatrix everyNth(const FeatureMatrix &x, size_t stride) {
  FeatureMatrix out;
  out.cols = x.cols;
  for (size_t r = 0; r < x.rows(); r += stride)
    out.append(std::vector<float>(x.row(r), x.row(r) + x.cols));
  return out;
}

std::vector<double> everyNth(const std::vector<double> &y, size_t stride) {
  std::vector<double> out;
  for (size_t r = 0; r < y.size(); r += stride)
    out.push_back(y[r]);
  return out;
}

double rmse(const std::vector<double> &a, const std::vector<double> &b) {
  double squared = 0;
  for (size_t i = 0; i < a.size(); ++i)
    squared += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(squared / a.size());
}

std::shared_ptr<const CostModel> knownSource() { return std::make_shared<KnownSourceModel>(); }
} // namespace

TEST(LinearShift, RecoversInterceptAndSlopeUnderNoise) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> source(0, 1);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<double> s, t;
  for (int i = 0; i < 200; ++i) {
    s.push_back(source(rng));
    t.push_back(2 + 0.5 * s.back() + noise(rng));
  }
  llvm::Expected<LinearShift> shift = fitLinearShift(s, t);
  ASSERT_TRUE(static_cast<bool>(shift)) << llvm::toString(shift.takeError());
  EXPECT_NEAR(shift->intercept, 2, 0.01);
  EXPECT_NEAR(shift->slope, 0.5, 0.01);
}

TEST(LinearShift, ConstantSourceGivesTheMeanAndRejectsBadInput) {
  llvm::Expected<LinearShift> flat = fitLinearShift({0.3, 0.3, 0.3}, {1, 2, 6});
  ASSERT_TRUE(static_cast<bool>(flat)) << llvm::toString(flat.takeError());
  EXPECT_EQ(flat->slope, 0);
  EXPECT_NEAR(flat->intercept, 3, 1e-12);
  llvm::Expected<LinearShift> mismatched = fitLinearShift({1, 2}, {1});
  EXPECT_FALSE(static_cast<bool>(mismatched));
  llvm::consumeError(mismatched.takeError());
  llvm::Expected<LinearShift> notFinite = fitLinearShift({1, NAN}, {1, 2});
  EXPECT_FALSE(static_cast<bool>(notFinite));
  llvm::consumeError(notFinite.takeError());
}

TEST(LinearModelShift, RecoversAKnownShiftOfTheSourceModel) {
  // The target device: target = 2 + 0.5 * source on every configuration.
  Grid grid = makeGrid();
  std::vector<double> target = shiftedTarget(grid, [](double s) { return 2 + 0.5 * s; });
  ShiftedCostModel lms(knownSource(), ShiftKind::Linear, /*seed=*/0);
  EXPECT_FALSE(lms.isTrained());
  // 12 measured target rows.
  ASSERT_FALSE(static_cast<bool>(lms.fit(everyNth(grid.x, 12), everyNth(target, 12))));
  EXPECT_NEAR(lms.getLinearShift().intercept, 2, 1e-9);
  EXPECT_NEAR(lms.getLinearShift().slope, 0.5, 1e-9);
  EXPECT_EQ(lms.describe(), "lms: target = 2.000 + 0.500 x source");
  // It predicts every target row, the unmeasured ones included.
  llvm::Expected<std::vector<double>> predicted = lms.predict(grid.x);
  ASSERT_TRUE(static_cast<bool>(predicted)) << llvm::toString(predicted.takeError());
  for (size_t i = 0; i < target.size(); ++i)
    EXPECT_NEAR((*predicted)[i], target[i], 1e-9) << "row " << i;
}

TEST(NonLinearModelShift, FitsAMonotoneNonLinearShiftBetterThanLinear) {
  // target = exp(4 * source): monotone, far from linear.
  Grid grid = makeGrid();
  std::vector<double> target = shiftedTarget(grid, [](double s) { return std::exp(4 * s); });
  FeatureMatrix measuredX = everyNth(grid.x, 3);
  std::vector<double> measuredY = everyNth(target, 3);
  ShiftedCostModel lms(knownSource(), ShiftKind::Linear, 0);
  ShiftedCostModel nlms(knownSource(), ShiftKind::NonLinear, 0);
  ASSERT_FALSE(static_cast<bool>(lms.fit(measuredX, measuredY)));
  ASSERT_FALSE(static_cast<bool>(nlms.fit(measuredX, measuredY)));
  EXPECT_EQ(nlms.describe(), "nlms: 16-tree forest on the source prediction");
  llvm::Expected<std::vector<double>> linear = lms.predict(grid.x);
  llvm::Expected<std::vector<double>> forest = nlms.predict(grid.x);
  ASSERT_TRUE(linear && forest);
  double linearError = rmse(*linear, target), forestError = rmse(*forest, target);
  EXPECT_LT(forestError, 0.5 * linearError)
      << "nlms rmse " << forestError << ", lms rmse " << linearError;
  // Both are shifts of the source, not models of the knobs: rows with the
  // same source prediction get the same target prediction.
  FeatureMatrix twins;
  twins.cols = 2;
  twins.append({3, 2});
  twins.append({3, 8}); // (b - 5)^2 is 9 for both
  llvm::Expected<std::vector<double>> twinPrediction = nlms.predict(twins);
  ASSERT_TRUE(static_cast<bool>(twinPrediction));
  EXPECT_EQ((*twinPrediction)[0], (*twinPrediction)[1]);
}

TEST(ShiftedTransferCostModel, KeepsTheShiftWhenItTransfers) {
  Grid grid = makeGrid();
  std::vector<double> target = shiftedTarget(grid, [](double s) { return 2 + 0.5 * s; });
  TransferOptions options;
  options.mode = TransferMode::LinearShift;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<CostModel> model = createTransferCostModel(knownSource(), options, log);
  ASSERT_FALSE(static_cast<bool>(model->fit(everyNth(grid.x, 4), everyNth(target, 4))));
  ASSERT_EQ(log->size(), 1u);
  EXPECT_TRUE(log->front().usedTransfer) << log->front().reason;
  EXPECT_NE(log->front().reason.find("lms: target = 2.000 + 0.500 x source"), std::string::npos)
      << log->front().reason;
  llvm::Expected<std::vector<double>> predicted = model->predict(grid.x);
  ASSERT_TRUE(static_cast<bool>(predicted));
  EXPECT_LT(rmse(*predicted, target), 1e-6);
}

TEST(ShiftedTransferCostModel, FallsBackWhenTheSourceSaysNothing) {
  // A pattern over both knobs unrelated to the source's ranking: no map of
  // the source prediction ranks held-out rows, a model of the knobs does.
  Grid grid = makeGrid();
  std::vector<double> target;
  for (size_t r = 0; r < grid.x.rows(); ++r) {
    double a = grid.x.row(r)[0], b = grid.x.row(r)[1];
    target.push_back(1 + std::sin(1.7 * a) * std::cos(0.9 * b) + 0.05 * a * b);
  }
  for (TransferMode mode : {TransferMode::LinearShift, TransferMode::NonLinearShift}) {
    TransferOptions options;
    options.mode = mode;
    options.targetOnlyModel = "rf";
    auto log = std::make_shared<TransferLog>();
    std::unique_ptr<CostModel> model = createTransferCostModel(knownSource(), options, log);
    ASSERT_FALSE(static_cast<bool>(model->fit(grid.x, target)));
    ASSERT_EQ(log->size(), 1u);
    EXPECT_FALSE(log->front().usedTransfer) << log->front().reason;
    EXPECT_GT(log->front().targetOnlyRho, log->front().transferRho);
  }
}

TEST(ShiftedTransferCostModel, FewRowsAreShiftedWithoutACheck) {
  Grid grid = makeGrid();
  std::vector<double> target = shiftedTarget(grid, [](double s) { return 1 - s; });
  TransferOptions options;
  options.mode = TransferMode::LinearShift;
  auto log = std::make_shared<TransferLog>();
  std::unique_ptr<CostModel> model = createTransferCostModel(knownSource(), options, log);
  ASSERT_FALSE(static_cast<bool>(model->fit(everyNth(grid.x, 16), everyNth(target, 16))));
  ASSERT_EQ(log->size(), 1u);
  EXPECT_TRUE(std::isnan(log->front().transferRho));
  EXPECT_EQ(log->front().reason,
            "too few rows to hold out; lms: target = 1.000 - 1.000 x source without a check");
}
