//===- SurveyRule.h - Trimmer's survey-tuning stop rule ----------*- C++ -*-===//
//
// Survey tuning (Trimmer, Section IV-C) tunes every task in turn, one batch
// of measurements each (an epoch), and after each epoch looks at the model
// latency f and the tuning time O spent so far. It stops when the rate of
// latency reduction per second of tuning has fallen too much:
//   x_t = w2 * df_t / dO_t                                  (Eq. 3)
//   stop = w1 * (x_t + x_{t-1}) / x_{t-1} <= phi            (Eq. 2)
// with phi = -0.25; w2 = -1 when df_t and dO_t are both negative, w1 = -1
// when x_t and x_{t-1} are both positive or x_t < 0 < x_{t-1}, else 1.
// As printed, Eq. 2 never stops a search whose latency keeps falling (with
// both rates negative the ratio is 1 + x_t / x_{t-1} >= 1 > phi): the sum
// reads as a typo for the difference, (x_t - x_{t-1}) / x_{t-1}, which is
// the relative change of the rate and stops once it has slowed by more
// than 25%, as the text describes. Both are implemented; the difference is
// the default (docs/trimmer.md shows both on recorded models).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TASKSCHEDULER_SURVEYRULE_H
#define DLTUNE_TUNING_TASKSCHEDULER_SURVEYRULE_H

namespace mlir::dltune {

/// Eq. 3: the epoch's latency change per second of tuning (negative while
/// the model gets faster); 0 for an epoch that took no time.
double getSurveyRate(double latencyChangeMs, double secondsChange);

/// Eq. 2 with the previous epoch's rate; `printed` selects the sum as
/// printed, else the difference. After an epoch without progress (a
/// previous rate of 0) the difference stops unless this epoch made
/// progress; the printed rule, undefined there, does not stop.
bool shouldStopSurvey(double rate, double previousRate, double phi, bool printed);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TASKSCHEDULER_SURVEYRULE_H
