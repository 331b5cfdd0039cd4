//===- ModelEvaluation.h - How well a cost model predicts an unseen space -*- C++ -*-===//
//
// What `dltune model-eval` measures: a model is trained on recorded history
// (other devices or tasks, matched by knob names) plus a few random target
// configurations, and predicts the log-time of the target's remaining valid
// configurations. Error, rank and calibration metrics are computed here so
// that they are tested apart from the tool.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_COSTMODEL_MODELEVALUATION_H
#define DLTUNE_TUNING_COSTMODEL_MODELEVALUATION_H

#include "dltune/Tuning/FeatureExtractor/FeatureExtractor.h"
#include "dltune/Tuning/Transfer/KnobMatching.h"
#include "dltune/Tuning/Transfer/PredictiveCalibration.h"

#include <optional>

namespace mlir::dltune {

/// Metrics of predicted against true log-time (natural log of ms).
struct PredictionMetrics {
  /// Root mean squared error of log-time.
  double rmse = 0;
  /// Mean absolute percentage error of the time exp(predicted log-time), in
  /// percent (log-time itself crosses 0 at 1 ms, so a percentage of it means
  /// nothing).
  double mape = 0;
  double spearman = 0, kendall = 0;
  /// Share of the truly best 1% of configurations (at least one) that are
  /// also among the predicted best 1%.
  double top1Recall = 0;
  /// Only for models with a variance: mean Gaussian negative log predictive
  /// density of the true log-time, and the share of true values inside the
  /// central 90% predictive interval.
  std::optional<double> nll, coverage90;
};

/// `predictedVariance` is empty for models without a variance; otherwise one
/// per row (clamped below at 1e-12 for the density).
PredictionMetrics computePredictionMetrics(const std::vector<double> &trueLogTime,
                                           const std::vector<double> &predictedLogTime,
                                           const std::vector<double> &predictedVariance);

/// Share of the `fraction` best (lowest) true values, at least one, found
/// among as many best predicted ones.
double topFractionRecall(const std::vector<double> &trueLogTime,
                         const std::vector<double> &predictedLogTime, double fraction);

/// A cost model used as a regressor of log-time.
class LogTimeRegressor {
public:
  virtual ~LogTimeRegressor() = default;
  virtual llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &logTimes) = 0;
  /// `variance` is left empty by models without one; for the Gaussian
  /// processes it is the predictive variance (observation noise included).
  virtual llvm::Error predict(const FeatureMatrix &x, std::vector<double> &mean,
                              std::vector<double> &variance) const = 0;
};

/// "dgp", "gp" (the GP cost models' latent log-throughput, negated), "xgb"
/// (XGBoost squared-error regression on log-time), "rf" (random forest on
/// log-time, with its trees' spread as variance). `dgpIterations`,
/// `dgpInducing` and `dgpHidden` > 0 override the deep GP's Adam steps,
/// inducing points and inner width (DeepGPOptions).
llvm::Expected<std::unique_ptr<LogTimeRegressor>>
createLogTimeRegressor(llvm::StringRef model, uint64_t seed, int dgpIterations = 0,
                       int dgpInducing = 0, int dgpHidden = 0);

/// One model-eval case: trains `model` on `history` plus `targetSamples`
/// random configurations of `target` (drawn with `seed`), and scores it on
/// the rest of `target`. Configs of both are in the extractor's knob order.
/// Rows with context (device features) give the model those as inputs;
/// with `deviceMean` the model also learns log-time relative to a
/// DeviceMean fitted on the training rows.
struct ModelEvalCase {
  PredictionMetrics metrics;
  /// With `calibrate`: the metrics after PredictiveCalibration, and the
  /// calibration fitted on the target samples.
  std::optional<PredictionMetrics> calibrated;
  PredictiveCalibration calibration;
  size_t trainRows = 0, testRows = 0;
  double fitSeconds = 0;
  /// With a device mean: its prediction for the target's first test row.
  std::optional<double> targetDeviceMean;
};
struct ModelEvalOptions {
  /// > 0: the deep GP's Adam steps, inducing points, inner width.
  int dgpIterations = 0, dgpInducing = 0, dgpHidden = 0;
  bool deviceMean = false;
  /// The transfer case: train on the history only; the target samples are
  /// the first measurements of the new device, used to calibrate the
  /// model's predictions (PredictiveCalibration), not to train it. Scores
  /// both the uncalibrated and the calibrated predictions on the rest.
  bool calibrate = false;
};
llvm::Expected<ModelEvalCase> evaluateModelOnTarget(llvm::StringRef model,
                                                    const TimedConfigs &history,
                                                    const TimedConfigs &target,
                                                    const FeatureExtractor &features,
                                                    size_t targetSamples, uint64_t seed,
                                                    const ModelEvalOptions &options = {});

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COSTMODEL_MODELEVALUATION_H
