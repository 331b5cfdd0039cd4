//===- GaussianProcessCostModel.h - GP regressors as cost models -*- C++
//-*-===//
//
// Wraps a ProbabilisticRegressor (deep or exact GP) into the CostModel
// interface. Labels are normalised throughput with 0 for failed
// configurations; the wrapper
//   - standardises the features (all rows) and regresses the standardised
//     log throughput of the feasible rows,
//   - learns p(feasible) with a FeasibilityClassifier on all rows,
//   - predicts the moments of score = Bernoulli(p) x LogNormal(m, v):
//     mean = p exp(m + v/2), variance = p exp(2m + 2v) - mean^2,
//     with (m, v) the regressor's latent moments of log throughput.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_GAUSSIANPROCESSCOSTMODEL_H
#define DLTUNE_TUNING_GAUSSIANPROCESSCOSTMODEL_H

#include "dltune/Tuning/CostModel.h"
#include "dltune/Tuning/DeepGaussianProcess.h"
#include "dltune/Tuning/ExactGaussianProcess.h"

namespace mlir::dltune {

/// "dgp" in createCostModel.
std::unique_ptr<CostModel> createDeepGPCostModel(const DeepGPOptions &options);
/// "gp" in createCostModel.
std::unique_ptr<CostModel> createExactGPCostModel(const ExactGPOptions &options);

/// The regressor inside a model made by the functions above (null for any
/// other model), e.g. for jitter reports or MAP adaptation.
const ProbabilisticRegressor *getGaussianProcessRegressor(const CostModel &model);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_GAUSSIANPROCESSCOSTMODEL_H
