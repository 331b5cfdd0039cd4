//===- PredictiveCalibration.h - Recalibrating a transferred model -*- C++ -*-===//
//
// A model pretrained on other devices is confident about a new one that it
// has never seen: the new device's overall speed shifts every log-time, and
// the predictive intervals, sized for the history's noise, cover far fewer
// configurations than they claim (docs/cost-models.md). After the first
// measurements of the new task or device, this fits two corrections from
// the model's out-of-sample residuals on them:
//   - a mean shift, the median residual (robust to the few configurations
//     a new device runs very differently);
//   - a scale on the predictive standard deviation from split conformal
//     prediction: the ceil((n + 1) * coverage)-th smallest standardised
//     absolute residual, after the shift, divided by the normal quantile of
//     the same coverage, so that the calibrated central interval holds the
//     next measurement with the stated probability when configurations are
//     exchangeable.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_PREDICTIVECALIBRATION_H
#define DLTUNE_TUNING_TRANSFER_PREDICTIVECALIBRATION_H

#include <cstddef>
#include <vector>

namespace mlir::dltune {

struct PredictiveCalibration {
  /// Added to predicted log-times.
  double meanShift = 0;
  /// Multiplies predicted standard deviations (variances by its square).
  double scale = 1;
  size_t rows = 0;
  /// Fewer than ceil(1 / (1 - coverage)) - 1 rows give no finite conformal
  /// bound; the largest residual stands in, and this says so.
  bool scaleFromMaximum = false;

  /// From predictions of log-times the model was not trained on: `variance`
  /// may be empty (a model without one: the shift only). Rows with a
  /// non-finite value or a variance <= 0 are left out.
  static PredictiveCalibration fit(const std::vector<double> &trueLogTime,
                                   const std::vector<double> &mean,
                                   const std::vector<double> &variance, double coverage = 0.9);
  /// Shifts `mean` and scales `variance` (when not empty) in place.
  void apply(std::vector<double> &mean, std::vector<double> &variance) const;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_PREDICTIVECALIBRATION_H
