//===- ProbabilisticRegressor.h - Regression with a predictive variance -*- C++
//-*-===//
//
// What the Gaussian-process cost model needs from its regressor: fit on
// standardised inputs and targets, predict a mean and a variance of the
// latent function, and serialise itself. The deep GP and the exact GP both
// implement it, so the cost-model wrapper (log target, standardisation,
// feasibility) is written once.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_COSTMODEL_PROBABILISTICREGRESSOR_H
#define DLTUNE_TUNING_COSTMODEL_PROBABILISTICREGRESSOR_H

#include "dltune/Tuning/GaussianProcess/CheckedCholesky.h"

#include <nlohmann/json_fwd.hpp>

namespace mlir::dltune {

class ProbabilisticRegressor {
public:
  virtual ~ProbabilisticRegressor() = default;
  virtual llvm::Error fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y) = 0;
  /// Mean and variance of the latent function (observation noise excluded).
  virtual llvm::Error predict(const Eigen::MatrixXd &x, Eigen::VectorXd &mean,
                              Eigen::VectorXd &variance) const = 0;
  /// Observation noise variance on the standardised targets (0: unknown).
  virtual double getNoiseVariance() const { return 0; }
  virtual nlohmann::json toJson() const = 0;
  virtual llvm::Error fromJson(const nlohmann::json &j) = 0;
  /// Every Cholesky that needed jitter since construction (predict() counts
  /// too, so one regressor is not for concurrent predictions).
  const JitterReport &getJitterReport() const { return jitter; }

protected:
  mutable JitterReport jitter;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COSTMODEL_PROBABILISTICREGRESSOR_H
