//===- LearningCurve.h - Bayesian log-power learning curves -----*- C++ -*-===//
//
// DynaTune's belief model of a task's tuning progress: the "log power"
// curve of Domhan et al. (IJCAI'15),
//   f(x) = a / (1 + (x / e^b)^c),   c < 0,
// (increasing, saturating at a) fitted to the speedup over the untuned
// latency after each measurement x, with Gaussian noise of deviation s.
// The posterior of (a, b, c, log s) is sampled with the affine-invariant
// ensemble sampler, started in a small ball around the least-squares fit;
// the prior is uniform on a box and "the curve does not predict less than
// the best already seen" (the paper's constraint), optionally times a
// Gaussian on (b, c) from a similar task's curve.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TASKSCHEDULER_LEARNINGCURVE_H
#define DLTUNE_TUNING_TASKSCHEDULER_LEARNINGCURVE_H

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::dltune {

/// a, b, c, log s.
using CurveParams = std::array<double, 4>;

double logPowerCurve(const CurveParams &p, double x);

/// A Gaussian prior on (b, c) learnt from another task's posterior.
struct CurvePrior {
  double meanB = 0, sdB = 1, meanC = -1, sdC = 1;
};

struct CurveFitOptions {
  int walkers = 10;
  int steps = 500;
  int samples = 200; // posterior samples kept, from the second half of the chain
  uint64_t seed = 0;
  /// Points of the trace the likelihood sees at most (evenly spaced, the
  /// last always kept): bounds the cost of long traces.
  size_t maxPoints = 64;
  /// The prior box's upper bound on c (the paper's box: c < 0). Below -1
  /// the curve saturates at least as fast as 1 - 1/x; closer to 0 it allows
  /// a slow power-law rise that never flattens (see DynaTuneScheduler.cpp).
  double maxShape = -0.01;
  /// Prior: the curve at `notBelowAt` is at least the last observed y.
  std::optional<double> notBelowAt;
  std::optional<CurvePrior> prior;
};

struct CurvePosterior {
  std::vector<CurveParams> samples;
  CurveParams leastSquares{};
  double acceptanceFraction = 0;

  CurveParams mean() const;
  CurveParams stddev() const;
  /// The curve at x under every posterior sample.
  std::vector<double> predict(double x) const;
};

/// Fits the curve to points (x[i], y[i]), x increasing and positive.
/// Needs at least 2 points.
CurvePosterior fitLearningCurve(llvm::ArrayRef<double> x, llvm::ArrayRef<double> y,
                                const CurveFitOptions &options);

/// The index where the last segment of a best-so-far trace starts: the
/// point after the last step that improves y by more than `jump` (DynaTune
/// fits each segment on its own), moved back so that the segment holds at
/// least `minPoints` points.
size_t lastSegmentStart(llvm::ArrayRef<double> y, double jump = 0.2, size_t minPoints = 5);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TASKSCHEDULER_LEARNINGCURVE_H
