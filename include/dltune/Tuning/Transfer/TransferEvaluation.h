//===- TransferEvaluation.h - OpML'19's comparison of transfer strategies -*- C++ -*-===//
//
// Iqbal, Kotthoff and Jamshidi, "Transfer Learning for Performance Modeling
// of Deep Neural Network Systems" (OpML 2019) compare four ways of carrying
// a performance model from a source environment to a target one by the
// MAPE of its predictions over the target space at a small measuring budget
// (2.44% of the target space):
//   dm   the source model as is (no target measurement);
//   lms  the source model, shifted by a linear map fitted on n random target
//        measurements;
//   nlms the same shift as a random forest of the source prediction;
//   gs   a stepwise regression on the source names the influential options;
//        n target configurations that vary them are measured and the learner
//        is trained on those alone.
// `cold` (the learner on n random target measurements) is the baseline
// every transfer must beat. Here the learners are dltune's cost models on
// log-time; bench/opml19_eval.py runs the paper's (scikit-learn's regression
// tree and 8-unit MLP) on the same splits.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_TRANSFEREVALUATION_H
#define DLTUNE_TUNING_TRANSFER_TRANSFEREVALUATION_H

#include "dltune/Tuning/CostModel/ModelEvaluation.h"
#include "dltune/Tuning/Transfer/GuidedSampling.h"

#include <optional>

namespace mlir::dltune {

enum class TransferStrategyKind { Cold, Direct, LinearShift, NonLinearShift, GuidedSampling };

/// "cold", "dm", "lms", "nlms", "gs".
std::optional<TransferStrategyKind> parseTransferStrategyKind(llvm::StringRef name);
llvm::StringRef getTransferStrategyName(TransferStrategyKind kind);

struct TransferEvalCase {
  /// On the target rows the strategy did not measure.
  PredictionMetrics metrics;
  /// Indices (into the target rows) of the configurations it measured.
  std::vector<size_t> measuredRows;
  size_t testRows = 0;
  /// lms: the fitted map, "target = a + b x source" in log-time.
  std::string shift;
};

/// One case: `model` ("dgp", "gp", "xgb", "rf") trained as `kind` says on
/// `history` (already matched to the target's knobs) and `samples` target
/// rows drawn with `seed`. gs needs `guided` (fitGuidedSamplingRegression on
/// the sources) and the target's `space`; rows it proposes that the target
/// did not record are replaced by random ones. Configs are in `features`'
/// knob order.
llvm::Expected<TransferEvalCase>
evaluateTransferStrategy(TransferStrategyKind kind, llvm::StringRef model,
                         const TimedConfigs &history, const StepwiseRegression *guided,
                         const SearchSpace &space, const TimedConfigs &target,
                         const FeatureExtractor &features, size_t samples, uint64_t seed,
                         int dgpIterations = 0);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_TRANSFEREVALUATION_H
