//===- ExactGaussianProcess.h - Full GP regression --------------*- C++ -*-===//
//
// The single-layer reference for the deep GP: exact GP regression with an
// ARD kernel (Matern-5/2 by default), a zero mean on standardised targets
// and Gaussian noise, hyper-parameters chosen by maximising the marginal
// likelihood with NLopt's L-BFGS from several starts. Cost is cubic in the
// rows, so at most maxTrainPoints rows (a seeded random subset) are used.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_GAUSSIANPROCESS_EXACTGAUSSIANPROCESS_H
#define DLTUNE_TUNING_GAUSSIANPROCESS_EXACTGAUSSIANPROCESS_H

#include "dltune/Tuning/GaussianProcess/GaussianProcessKernel.h"
#include "dltune/Tuning/CostModel/ProbabilisticRegressor.h"

namespace mlir::dltune {

struct ExactGPOptions {
  KernelKind kernel = KernelKind::Matern52;
  /// L-BFGS runs: one from a fixed start, the rest from random ones.
  int restarts = 4;
  int maxEvaluations = 150;
  size_t maxTrainPoints = 500;
  uint64_t seed = 0;
  /// Lower bound of the noise variance (standardised targets).
  double minNoiseVariance = 1e-6;
};

class ExactGaussianProcess : public ProbabilisticRegressor {
public:
  explicit ExactGaussianProcess(ExactGPOptions options = {}) : options(options) {}

  llvm::Error fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y) override;
  llvm::Error predict(const Eigen::MatrixXd &x, Eigen::VectorXd &mean,
                      Eigen::VectorXd &variance) const override;

  /// Keeps the data and factorises at the given hyper-parameters
  /// [log lengthscales..., log signal variance, log noise variance]
  /// without optimising them.
  llvm::Error condition(const Eigen::MatrixXd &x, const Eigen::VectorXd &y,
                        const Eigen::VectorXd &hyperparameters);
  /// -log p(y | X, h) on the kept data, and its gradient when wanted.
  llvm::Expected<double> negativeLogMarginalLikelihood(const Eigen::VectorXd &hyperparameters,
                                                       Eigen::VectorXd *gradient) const;
  const Eigen::VectorXd &getHyperparameters() const { return hyper; }
  /// Marginal-likelihood evaluations that failed (Cholesky beyond jitter)
  /// during the last fit; the optimiser saw them as +huge.
  size_t getFailedEvaluations() const { return failedEvaluations; }

  double getNoiseVariance() const override {
    return hyper.size() ? std::exp(hyper[hyper.size() - 1]) : 0;
  }
  nlohmann::json toJson() const override;
  llvm::Error fromJson(const nlohmann::json &j) override;

private:
  ArdKernel kernelAt(const Eigen::VectorXd &hyperparameters) const;

  ExactGPOptions options;
  Eigen::MatrixXd trainX, cholesky;
  Eigen::VectorXd trainY, alpha, hyper;
  size_t failedEvaluations = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_GAUSSIANPROCESS_EXACTGAUSSIANPROCESS_H
