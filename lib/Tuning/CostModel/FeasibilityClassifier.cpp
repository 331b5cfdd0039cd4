//===- FeasibilityClassifier.cpp - Logistic regression by Newton steps ----===//

#include "dltune/Tuning/CostModel/FeasibilityClassifier.h"

#include "Support/EigenJson.h"

using namespace mlir::dltune;
using Eigen::MatrixXd;
using Eigen::VectorXd;

static VectorXd sigmoid(const VectorXd &z) { return (1.0 / (1.0 + (-z.array()).exp())).matrix(); }

void FeasibilityClassifier::fit(const MatrixXd &x, const VectorXd &feasible) {
  Eigen::Index d = x.cols();
  weights = VectorXd::Zero(d);
  bias = 0;
  if (feasible.minCoeff() > 0.5) {
    // Only feasible rows: a large bias gives p = 1 to machine precision.
    bias = 40;
    return;
  }
  MatrixXd xb(x.rows(), d + 1);
  xb << x, VectorXd::Ones(x.rows());
  VectorXd theta = VectorXd::Zero(d + 1);
  const double l2 = 1.0;
  for (int it = 0; it < 50; ++it) {
    VectorXd p = sigmoid(xb * theta);
    VectorXd g = xb.transpose() * (feasible - p);
    g.head(d) -= l2 * theta.head(d);
    MatrixXd h = xb.transpose() * (p.array() * (1 - p.array())).matrix().asDiagonal() * xb;
    h.diagonal().head(d).array() += l2;
    h.diagonal().array() += 1e-9; // The bias alone is unregularised.
    VectorXd step = h.ldlt().solve(g);
    theta += step;
    if (step.norm() < 1e-10)
      break;
  }
  weights = theta.head(d);
  bias = theta[d];
}

VectorXd FeasibilityClassifier::probability(const MatrixXd &x) const {
  return sigmoid((x * weights).array() + bias);
}

nlohmann::json FeasibilityClassifier::toJson() const {
  return {{"weights", vectorToJson(weights)}, {"bias", bias}};
}

bool FeasibilityClassifier::fromJson(const nlohmann::json &j, Eigen::Index features) {
  VectorXd w;
  double b = 0;
  if (!j.is_object() || !j.contains("weights") || !vectorFromJson(j["weights"], w) ||
      w.size() != features || !numberFromJson(j, "bias", b))
    return false;
  weights = w;
  bias = b;
  return true;
}
