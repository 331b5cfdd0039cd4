//===- ModelShift.h - A source model shifted onto a target -------*- C++ -*-===//
//
// The model-shift transfer strategies of OpML'19 (Iqbal et al., after
// Jamshidi et al., SEAMS 2017): a model trained on the source environment
// predicts f_s(c); a map g fitted on target measurements translates that
// prediction, so the target model is g(f_s(c)).
//   - LMS (linear model shift): g(f) = a + b f, ordinary least squares.
//   - NLMS (non-linear model shift): g is a random forest on the one input
//     f (16 trees, as the paper's public code).
// The source model is never changed; only g is fitted, on every fit().
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_MODELSHIFT_H
#define DLTUNE_TUNING_TRANSFER_MODELSHIFT_H

#include "dltune/Tuning/CostModel/CostModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>

namespace mlir::dltune {

enum class ShiftKind { Linear, NonLinear };

/// target ~ intercept + slope * source.
struct LinearShift {
  double intercept = 0, slope = 1;
};

/// Least squares by column-pivoting QR. A constant `source` (or a single
/// row) has no slope to fit: slope 0, intercept the mean of `target`.
/// Errors: different lengths, no rows, non-finite values.
llvm::Expected<LinearShift> fitLinearShift(llvm::ArrayRef<double> source,
                                           llvm::ArrayRef<double> target);

/// Trees of the NLMS forest (the OpML'19 code's RandomForestRegressor).
inline constexpr int kNonLinearShiftTrees = 16;

/// The cost model g(f_s(x)). fit() predicts the rows with `source` and
/// fits g on (prediction, label); predict() applies g to the source's
/// predictions. Errors of the source model's predict() pass through.
class ShiftedCostModel : public CostModel {
public:
  ShiftedCostModel(std::shared_ptr<const CostModel> source, ShiftKind kind, uint64_t seed);

  llvm::StringRef getName() const override {
    return kind == ShiftKind::Linear ? "lms" : "nlms";
  }
  bool isTrained() const override { return fitted; }
  llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &y) override;
  llvm::Expected<std::vector<double>> predict(const FeatureMatrix &x) const override;
  /// A shift is refitted from its source model, never saved on its own.
  llvm::Error save(const std::string &path) const override;
  llvm::Error load(const std::string &path) override;

  /// The fitted map in words, for the transfer log: "target = 0.1 + 0.9 x
  /// source" or "16-tree forest on the source prediction".
  std::string describe() const;
  /// The fitted LMS coefficients (Linear only).
  const LinearShift &getLinearShift() const { return linear; }

private:
  std::shared_ptr<const CostModel> source;
  ShiftKind kind;
  uint64_t seed;
  bool fitted = false;
  LinearShift linear;
  std::unique_ptr<CostModel> forest;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_MODELSHIFT_H
