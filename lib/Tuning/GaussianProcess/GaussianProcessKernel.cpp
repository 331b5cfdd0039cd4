//===- GaussianProcessKernel.cpp - ARD RBF and Matern-5/2 kernels ---------===//
//
// Both kernels are functions of the scaled squared distance
// r2 = sum_j ((a_j - b_j) / l_j)^2, so one backward pass serves both:
// only dk/dr2 differs.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/GaussianProcess/GaussianProcessKernel.h"

#include <cmath>

using namespace mlir::dltune;
using Eigen::MatrixXd;
using Eigen::VectorXd;

llvm::StringRef mlir::dltune::kernelKindName(KernelKind kind) {
  return kind == KernelKind::Rbf ? "rbf" : "matern52";
}

std::optional<KernelKind> mlir::dltune::parseKernelKind(llvm::StringRef name) {
  if (name == "rbf")
    return KernelKind::Rbf;
  if (name == "matern52")
    return KernelKind::Matern52;
  return std::nullopt;
}

namespace {
MatrixXd scaled(const MatrixXd &x, const VectorXd &logLengthscales) {
  return x * (-logLengthscales.array()).exp().matrix().asDiagonal();
}

/// Squared distances by the expansion |a|^2 + |b|^2 - 2ab (one GEMM);
/// rounding can make it slightly negative, hence the clamp.
MatrixXd squaredDistances(const MatrixXd &as, const MatrixXd &bs) {
  MatrixXd r2 = -2.0 * as * bs.transpose();
  r2.colwise() += as.rowwise().squaredNorm();
  r2.rowwise() += bs.rowwise().squaredNorm().transpose();
  return r2.cwiseMax(0.0);
}

const double kSqrt5 = std::sqrt(5.0);
} // namespace

MatrixXd ArdKernel::matrix(const MatrixXd &a, const MatrixXd &b) const {
  MatrixXd r2 = squaredDistances(scaled(a, logLengthscales), scaled(b, logLengthscales));
  double s2 = variance();
  if (kind == KernelKind::Rbf)
    return s2 * (-0.5 * r2.array()).exp().matrix();
  Eigen::ArrayXXd r = r2.array().sqrt();
  return (s2 * (1.0 + kSqrt5 * r + (5.0 / 3.0) * r2.array()) * (-kSqrt5 * r).exp()).matrix();
}

void ArdKernel::backward(const MatrixXd &a, const MatrixXd &b, const MatrixXd &gK, MatrixXd *gA,
                         MatrixXd *gB, VectorXd &gLogLengthscales, double &gLogVariance) const {
  MatrixXd as = scaled(a, logLengthscales), bs = scaled(b, logLengthscales);
  Eigen::ArrayXXd r2 = squaredDistances(as, bs).array();
  double s2 = variance();
  Eigen::ArrayXXd k, dkdr2;
  if (kind == KernelKind::Rbf) {
    k = s2 * (-0.5 * r2).exp();
    dkdr2 = -0.5 * k;
  } else {
    Eigen::ArrayXXd r = r2.sqrt(), e = (-kSqrt5 * r).exp();
    k = s2 * (1.0 + kSqrt5 * r + (5.0 / 3.0) * r2) * e;
    // d/dr2 of the Matern-5/2 form: finite at r = 0, so no special case.
    dkdr2 = -s2 * (5.0 / 6.0) * (1.0 + kSqrt5 * r) * e;
  }
  gLogVariance += (gK.array() * k).sum();
  MatrixXd g = (gK.array() * dkdr2).matrix();
  // r2 = sum_j (as_j - bs_j)^2 in scaled coordinates.
  MatrixXd gAs = 2.0 * (g.rowwise().sum().asDiagonal() * as - g * bs);
  MatrixXd gBs = 2.0 * (g.colwise().sum().transpose().asDiagonal() * bs - g.transpose() * as);
  // as_j = a_j / l_j, so d as_j / d log l_j = -as_j.
  gLogLengthscales -= (gAs.array() * as.array()).colwise().sum().matrix().transpose() +
                      (gBs.array() * bs.array()).colwise().sum().matrix().transpose();
  VectorXd invL = (-logLengthscales.array()).exp();
  if (gA)
    *gA += gAs * invL.asDiagonal();
  if (gB)
    *gB += gBs * invL.asDiagonal();
}
