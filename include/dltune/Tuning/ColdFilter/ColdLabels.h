//===- ColdLabels.h - Which measured candidates were cold -------*- C++ -*-===//
//
// Trimmer calls a candidate cold when it is far slower than the search's
// progress: measuring it cost time and energy and taught the search
// little. The paper labels them against a LOESS trend of the measured
// latencies; the simpler rule compares each candidate with the best one
// measured before it. Both take times in measurement order, NaN for
// candidates that failed (those are never cold; a failure is its own
// label).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_COLDFILTER_COLDLABELS_H
#define DLTUNE_TUNING_COLDFILTER_COLDLABELS_H

#include <vector>

namespace mlir::dltune {

/// Cold: more than `factor` times the best time before it (the first ok
/// time never is).
std::vector<bool> labelColdByRunningBest(const std::vector<double> &timesMs, double factor);

/// The LOESS trend of `y` over its index: at each point a weighted linear
/// fit of its nearest ceil(span * n) points (at least 3), tricube weights
/// by distance (Cleveland 1979, one pass, no robustness iterations).
std::vector<double> getLoessTrend(const std::vector<double> &y, double span);

/// Cold: above the LOESS trend (`span`) of the ok times' logarithms by more
/// than log(1 + margin); margin 0 is the paper's "above the trend".
std::vector<bool> labelColdByTrend(const std::vector<double> &timesMs, double span,
                                   double margin);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COLDFILTER_COLDLABELS_H
