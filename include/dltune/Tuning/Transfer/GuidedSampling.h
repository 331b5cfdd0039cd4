//===- GuidedSampling.h - OpML'19 guided sampling (GS) -----------*- C++ -*-===//
//
// Guided sampling (Iqbal et al., OpML'19, after Jamshidi et al., FSE 2018):
// a stepwise linear regression with pairwise interaction terms, fitted on
// the SOURCE measurements, names the knobs and knob pairs that matter; the
// first target measurements are then chosen to vary exactly those knobs,
// and the target learner is trained on target measurements only.
//
// The stepwise regression (the paper gives the shape, not the numbers; the
// defaults below are ours, see docs/cost-models.md):
//   - terms: one per knob (main effect) and one per knob pair (the product
//     of the two standardised knob values); every column is centred and
//     scaled, and the label centred, so the intercept is implicit;
//   - hierarchy, as R's step() (the paper's public code) keeps it: an
//     interaction is in the model only with both its main effects - a
//     forward move adds an interaction together with any missing parent,
//     and a main effect is not eliminated while an interaction uses it;
//   - forward selection: the move with the largest gain in R^2 per term it
//     adds is taken while that gain is at least minRSquaredGain (per term,
//     so that an interaction does not enter on its parents' gain);
//   - backward elimination after every forward move: the least significant
//     removable term (two-sided t-test on its coefficient) is dropped while
//     its p-value exceeds maxPValue; a dropped term does not come back
//     (which also makes the search finite);
//   - finally terms with |coefficient| < minAbsCoefficient are excluded
//     (the paper's 1e-12) and the rest refitted.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_GUIDEDSAMPLING_H
#define DLTUNE_TUNING_TRANSFER_GUIDEDSAMPLING_H

#include "dltune/Tuning/Replay/KernelTunerCache.h"

#include <Eigen/Dense>

#include <random>

namespace mlir::dltune {

/// A main effect (first == second) or the interaction of two knobs, by
/// knob index.
struct RegressionTerm {
  size_t first = 0, second = 0;
  bool isInteraction() const { return first != second; }
  bool operator==(const RegressionTerm &other) const {
    return first == other.first && second == other.second;
  }
};

struct StepwiseOptions {
  /// A forward move must explain at least this share of the variance per
  /// term it adds.
  double minRSquaredGain = 0.01;
  /// Backward elimination drops a term whose p-value is above this.
  double maxPValue = 0.05;
  /// The paper's cut for negligible terms.
  double minAbsCoefficient = 1e-12;
};

struct StepwiseRegression {
  /// Retained terms, in the order they entered.
  std::vector<RegressionTerm> terms;
  /// Per term: coefficient on the standardised column (label units per
  /// standard deviation) and its two-sided p-value.
  std::vector<double> coefficients, pValues;
  double rSquared = 0;
  size_t rows = 0;

  /// Knobs that appear in a retained term, ascending.
  std::vector<size_t> getInfluentialKnobs() const;
  /// "a, b, a:b" (or "none").
  std::string formatTerms(llvm::ArrayRef<Knob> knobs) const;
};

/// `knobValues` has one row per measurement and one column per knob;
/// constant columns take no part. Errors: mismatched sizes, fewer than 3
/// rows, non-finite values.
llvm::Expected<StepwiseRegression> fitStepwiseRegression(const Eigen::MatrixXd &knobValues,
                                                         const Eigen::VectorXd &labels,
                                                         const StepwiseOptions &options = {});

/// Student's t two-sided p-value of `t` with `degreesOfFreedom` (> 0).
double studentTTwoSidedPValue(double t, double degreesOfFreedom);

/// GS on recorded history: every source's ok measurements, matched to the
/// target knobs by name, labelled with log time minus that source's mean
/// log time (so each device contributes relative times, and multiplicative
/// knob effects become additive). `notes` gets the dropped knobs.
llvm::Expected<StepwiseRegression>
fitGuidedSamplingRegression(llvm::ArrayRef<KernelTunerCache> sources,
                            llvm::ArrayRef<std::string> names, llvm::ArrayRef<Knob> targetKnobs,
                            std::vector<std::string> &notes, const StepwiseOptions &options = {});

/// Up to `count` distinct valid configurations that vary the influential
/// knobs. In rounds, each retained term in entry order gets one block: a
/// random valid base configuration whose term knobs run through all their
/// candidate values (the product for an interaction) while the other knobs
/// keep the base's values (the paper's code holds them at one default; a
/// fresh random base per block keeps a constrained space from running
/// dry); the block's valid, new configurations are taken in random order.
/// Without terms, or once blocks stop yielding new ones, random valid
/// configurations fill up.
std::vector<Config> sampleGuidedConfigs(const SearchSpace &space, const StepwiseRegression &model,
                                        size_t count, std::mt19937_64 &rng);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_GUIDEDSAMPLING_H
