//===- GaussianProcessKernel.h - ARD stationary kernels ---------*- C++ -*-===//
//
// The two kernels the Gaussian-process cost models use, both with one
// lengthscale per input dimension (ARD) and a signal variance, held in log
// space so that every real vector is a valid kernel. backward() turns the
// gradient of an objective with respect to a kernel matrix into gradients
// with respect to both input sets and the hyper-parameters, so the deep GP
// can backpropagate through inducing inputs and propagated samples alike.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_GAUSSIANPROCESS_GAUSSIANPROCESSKERNEL_H
#define DLTUNE_TUNING_GAUSSIANPROCESS_GAUSSIANPROCESSKERNEL_H

#include "llvm/ADT/StringRef.h"

#include <Eigen/Dense>

#include <optional>

namespace mlir::dltune {

enum class KernelKind { Rbf, Matern52 };

llvm::StringRef kernelKindName(KernelKind kind);
std::optional<KernelKind> parseKernelKind(llvm::StringRef name);

struct ArdKernel {
  KernelKind kind = KernelKind::Rbf;
  Eigen::VectorXd logLengthscales;
  double logVariance = 0;

  double variance() const { return std::exp(logVariance); }
  /// K[i][j] = k(a.row(i), b.row(j)).
  Eigen::MatrixXd matrix(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b) const;
  /// Adds to the outputs the gradient of an objective whose gradient with
  /// respect to K = matrix(a, b) is gK. gA/gB may be null (not wanted).
  void backward(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b, const Eigen::MatrixXd &gK,
                Eigen::MatrixXd *gA, Eigen::MatrixXd *gB, Eigen::VectorXd &gLogLengthscales,
                double &gLogVariance) const;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_GAUSSIANPROCESS_GAUSSIANPROCESSKERNEL_H
