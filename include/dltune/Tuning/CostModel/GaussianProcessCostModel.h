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
#ifndef DLTUNE_TUNING_COSTMODEL_GAUSSIANPROCESSCOSTMODEL_H
#define DLTUNE_TUNING_COSTMODEL_GAUSSIANPROCESSCOSTMODEL_H

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/GaussianProcess/DeepGaussianProcess.h"
#include "dltune/Tuning/GaussianProcess/ExactGaussianProcess.h"

#include <cmath>

namespace mlir::dltune {

/// Whether a label is a feasible row's, one the GP regresses (failed
/// configurations are 0; the feasibility classifier sees every row).
inline bool isFeasibleLabel(double label) { return label > 0 && std::isfinite(label); }

/// "dgp" in createCostModel.
std::unique_ptr<CostModel> createDeepGPCostModel(const DeepGPOptions &options);
/// "gp" in createCostModel.
std::unique_ptr<CostModel> createExactGPCostModel(const ExactGPOptions &options);

/// The regressor inside a model made by the functions above (null for any
/// other model), e.g. for jitter reports or MAP adaptation.
const ProbabilisticRegressor *getGaussianProcessRegressor(const CostModel &model);

/// MAP adaptation (stage 2 of Sun et al.): a copy of a trained "dgp" cost
/// model whose deep GP maximises the target rows' expected log-likelihood
/// plus a Gaussian prior N(pretrained parameters, I / priorStrength) for
/// `iterations` Adam steps. The copy keeps the pretrained input
/// standardisation, target scale and feasibility classifier; its target mean
/// is shifted by the mean residual of the pretrained model on the feasible
/// target rows, so that a device that is uniformly faster or slower starts
/// at the prior rather than fighting it. With no feasible row the copy
/// predicts exactly as the pretrained model does. `warmStart`, an earlier
/// adaptation of the same pretrained model, is where Adam starts instead of
/// the pretrained parameters (a refit with more rows needs fewer steps from
/// there); the prior stays centred on the pretrained parameters.
llvm::Expected<std::unique_ptr<CostModel>>
adaptDeepGPCostModel(const CostModel &pretrained, const FeatureMatrix &x,
                     const std::vector<double> &y, double priorStrength, int iterations,
                     const CostModel *warmStart = nullptr);

/// Moments of log(label) for a feasible configuration (the feasibility
/// classifier left out), the standardisation undone; with `includeNoise`
/// the regressor's observation noise is added to the variance. Fails for
/// models not made by the functions above and for untrained ones.
llvm::Error predictLogLabel(const CostModel &model, const FeatureMatrix &x,
                            std::vector<double> &mean, std::vector<double> &variance,
                            bool includeNoise);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COSTMODEL_GAUSSIANPROCESSCOSTMODEL_H
