//===- FeasibilityClassifier.h - p(configuration runs) ----------*- C++ -*-===//
//
// Failed configurations (score 0) carry no throughput, so the GP cost
// models regress log throughput on the feasible rows only and learn
// feasibility apart: an L2-regularised logistic regression on the
// standardised features, fitted by Newton's method. With only feasible
// rows it predicts 1 everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_COSTMODEL_FEASIBILITYCLASSIFIER_H
#define DLTUNE_TUNING_COSTMODEL_FEASIBILITYCLASSIFIER_H

#include <Eigen/Dense>
#include <nlohmann/json_fwd.hpp>

namespace mlir::dltune {

class FeasibilityClassifier {
public:
  /// `feasible[i]` is 1 or 0. L2 strength 1 on the weights (not the bias)
  /// keeps separable data from driving them to infinity.
  void fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &feasible);
  Eigen::VectorXd probability(const Eigen::MatrixXd &x) const;

  nlohmann::json toJson() const;
  bool fromJson(const nlohmann::json &j, Eigen::Index features);

private:
  Eigen::VectorXd weights;
  double bias = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COSTMODEL_FEASIBILITYCLASSIFIER_H
