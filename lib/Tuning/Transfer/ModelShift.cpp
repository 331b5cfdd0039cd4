//===- ModelShift.cpp - LMS and NLMS: a map of the source model's output --===//

#include "dltune/Tuning/Transfer/ModelShift.h"

#include "dltune/Tuning/Support/Error.h"

#include "llvm/Support/FormatVariadic.h"

#include <Eigen/Dense>

#include <cmath>
#include <numeric>

using namespace mlir::dltune;

llvm::Expected<LinearShift> mlir::dltune::fitLinearShift(llvm::ArrayRef<double> source,
                                                         llvm::ArrayRef<double> target) {
  if (source.size() != target.size() || source.empty())
    return makeError("linear shift: " + llvm::Twine(source.size()) + " source predictions, " +
                     llvm::Twine(target.size()) + " target labels");
  Eigen::Index n = static_cast<Eigen::Index>(source.size());
  Eigen::MatrixXd design(n, 2);
  Eigen::VectorXd labels(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!std::isfinite(source[i]) || !std::isfinite(target[i]))
      return makeError("linear shift: row " + llvm::Twine(i) + " is not finite");
    design(i, 0) = 1;
    design(i, 1) = source[i];
    labels(i) = target[i];
  }
  LinearShift shift;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(design);
  // The default threshold treats a source spread below ~1e-15 of the
  // intercept column as none: constant predictions.
  if (qr.rank() < 2) {
    shift.slope = 0;
    shift.intercept = labels.mean();
    return shift;
  }
  Eigen::Vector2d coefficients = qr.solve(labels);
  shift.intercept = coefficients(0);
  shift.slope = coefficients(1);
  return shift;
}

ShiftedCostModel::ShiftedCostModel(std::shared_ptr<const CostModel> source, ShiftKind kind,
                                   uint64_t seed)
    : source(std::move(source)), kind(kind), seed(seed) {}

namespace {
/// The source model's predictions as a one-column feature matrix (the
/// forest's input).
FeatureMatrix asColumn(const std::vector<double> &values) {
  FeatureMatrix column;
  column.cols = 1;
  column.data.assign(values.begin(), values.end());
  return column;
}
} // namespace

llvm::Error ShiftedCostModel::fit(const FeatureMatrix &x, const std::vector<double> &y) {
  if (x.rows() != y.size() || y.empty())
    return makeError(getName() + " fit: " + llvm::Twine(x.rows()) + " rows, " +
                     llvm::Twine(y.size()) + " labels");
  llvm::Expected<std::vector<double>> sourcePrediction = source->predict(x);
  if (!sourcePrediction)
    return sourcePrediction.takeError();
  if (kind == ShiftKind::Linear) {
    llvm::Expected<LinearShift> shift = fitLinearShift(*sourcePrediction, y);
    if (!shift)
      return shift.takeError();
    linear = *shift;
  } else {
    forest = createRandomForestCostModel(seed, kNonLinearShiftTrees);
    if (llvm::Error e = forest->fit(asColumn(*sourcePrediction), y))
      return e;
  }
  fitted = true;
  return llvm::Error::success();
}

llvm::Expected<std::vector<double>> ShiftedCostModel::predict(const FeatureMatrix &x) const {
  if (!fitted)
    return makeError(getName() + " predict: the shift is not fitted");
  llvm::Expected<std::vector<double>> sourcePrediction = source->predict(x);
  if (!sourcePrediction)
    return sourcePrediction.takeError();
  if (kind == ShiftKind::NonLinear)
    return forest->predict(asColumn(*sourcePrediction));
  std::vector<double> shifted = std::move(*sourcePrediction);
  for (double &value : shifted)
    value = linear.intercept + linear.slope * value;
  return shifted;
}

llvm::Error ShiftedCostModel::save(const std::string &) const {
  return makeError(getName() + ": a shifted model is refitted from its source, not saved");
}

llvm::Error ShiftedCostModel::load(const std::string &) {
  return makeError(getName() + ": a shifted model is refitted from its source, not loaded");
}

std::string ShiftedCostModel::describe() const {
  if (!fitted)
    return getName().str() + ": not fitted";
  if (kind == ShiftKind::NonLinear)
    return llvm::formatv("nlms: {0}-tree forest on the source prediction", kNonLinearShiftTrees)
        .str();
  return llvm::formatv("lms: target = {0:f3} {1} {2:f3} x source", linear.intercept,
                       linear.slope < 0 ? "-" : "+", std::abs(linear.slope))
      .str();
}
