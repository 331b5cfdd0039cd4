//===- DeviceMean.h - Log-time offset explained by device features -*- C++ -*-===//
//
// Most of a kernel's log-time on an unseen device is its overall speed: the
// same configurations run ~2x faster on an RTX 3090 than on the devices of
// its history. Trees and stationary GPs revert to the training mean away
// from the training devices, so they cannot say so. A linear mean function
// in the device features can: each training device's mean log-time over
// its rows is regressed on its features (ridge, the penalty chosen by
// leave-one-device-out error), and models learn the rest.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_DEVICEMEAN_H
#define DLTUNE_TUNING_TRANSFER_DEVICEMEAN_H

#include <cstddef>
#include <vector>

namespace mlir::dltune {

class DeviceMean {
public:
  /// Fits on rows with device features `devices` (one vector per row, all
  /// the same length) and log-times. Rows with equal features are one
  /// device; each device counts once, whatever its row count. With one
  /// device the mean is its mean log-time.
  static DeviceMean fit(const std::vector<std::vector<float>> &devices,
                        const std::vector<double> &logTimes);
  /// The mean log-time predicted for a device.
  double predict(const std::vector<float> &device) const;

  /// Ridge penalty used (on standardised features): chosen by
  /// leave-one-device-out error with >= 3 devices, 1 with 2, 0 with 1.
  double getPenalty() const { return penalty; }
  size_t getDeviceCount() const { return deviceCount; }

private:
  double intercept = 0, penalty = 0;
  size_t deviceCount = 0;
  std::vector<double> featureMean, featureScale, weights;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_DEVICEMEAN_H
