//===- TransferCostModel.h - A pretrained model carried to a new target -*- C++ -*-===//
//
// The cost model a search strategy sees when tuning with transfer. It
// predicts with the model pretrained on history until target measurements
// come in; then, on every fit,
//   - dm:   direct model reuse (OpML'19): the pretrained model has done its
//           part (it chose the first measurements); a target-only model is
//           fitted on the target rows;
//   - map:  the deep GP is adapted by MAP (adaptDeepGPCostModel) to the
//           target rows;
//   - lms, nlms: the pretrained model shifted onto the target by a linear
//           map or a random forest of its prediction (ModelShift.h);
//   - gs:   guided sampling (GuidedSampling.h) chose the first
//           measurements; like dm, a target-only model is fitted (there may
//           be no pretrained model at all).
// map, lms and nlms run under the negative-transfer guard: the transferred
// model and a target-only model are both fitted on a random 75% of the
// target rows and ranked on the other 25% (Spearman); when the target-only
// model ranks clearly better the tuner falls back to it. Every decision is
// logged.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_TRANSFERCOSTMODEL_H
#define DLTUNE_TUNING_TRANSFER_TRANSFERCOSTMODEL_H

#include "dltune/Tuning/CostModel/CostModel.h"

#include <memory>
#include <random>

namespace mlir::dltune {

enum class TransferMode {
  None,
  DirectReuse,
  Map,
  LinearShift,
  NonLinearShift,
  GuidedSampling
};
/// "none", "dm", "map", "lms", "nlms", "gs"; nullopt for anything else.
std::optional<TransferMode> parseTransferMode(llvm::StringRef name);
/// The names parseTransferMode knows, for error messages.
inline constexpr const char *kKnownTransferModes = "none, dm, map, lms, nlms, gs";

struct TransferOptions {
  TransferMode mode = TransferMode::Map;
  /// Precision of the Gaussian prior on the deep GP's flat parameters.
  /// 0: chosen on the first adaptation by held-out likelihood among
  /// kPriorStrengthCandidates (see docs/cost-models.md).
  double priorStrength = 0;
  /// Adam steps of the first MAP adaptation (from the pretrained parameters).
  int adaptIterations = 300;
  /// Adam steps of every later one, which starts from an earlier adaptation
  /// (the prior stays on the pretrained parameters); 0: adaptIterations / 4.
  int refitIterations = 0;
  /// The target-only model of dm and gs, and of the guard's fallback.
  std::string targetOnlyModel = "xgb";
  /// The guard falls back when the target-only model's held-out Spearman
  /// exceeds the transferred one's by more than this.
  double guardMargin = 0.05;
  /// Below this many target rows there is too little to hold out: the
  /// transferred model is kept without a check.
  size_t guardMinRows = 16;
  uint64_t seed = 0;
};

inline constexpr double kPriorStrengthCandidates[] = {0.1, 1, 10, 100};

/// The guard's split of `rows` rows (the history in measurement order) into
/// held-out (true) and training rows, extended from the previous refit's:
/// rows keep their side, new rows fill the held-out side up to
/// max(rows / 4, 4) at random. Fewer rows than before: split afresh. Kept so
/// that a warm-started adaptation never saw the rows it is judged on.
void extendGuardSplit(std::vector<bool> &heldOut, size_t rows, std::mt19937_64 &rng);

/// One refit of a transfer model.
struct TransferDecision {
  size_t rows = 0;
  /// Held-out Spearman of each model (NaN when the guard did not run).
  double transferRho = NAN, targetOnlyRho = NAN;
  bool usedTransfer = true;
  double priorStrength = 0;
  std::string reason;
  double seconds = NAN; // wall time of the refit (adaptations, guard, final fit)
};

/// Collects the decisions of every TransferCostModel made for one run.
using TransferLog = std::vector<TransferDecision>;

/// One line for the task's notes: how often the guard kept or abandoned the
/// transfer and its last decision with its reason, e.g. "transfer guard: 6
/// decisions, transfer kept in 5, target-only model in 1; last at 24 rows:
/// kept (transfer ranks held-out rows as well or better)".
std::string summarizeTransferLog(const TransferLog &log);

/// `pretrained` must be trained (a "dgp" for map; gs may pass null: it
/// never predicts with it); `log` may be null.
std::unique_ptr<CostModel> createTransferCostModel(std::shared_ptr<const CostModel> pretrained,
                                                   const TransferOptions &options,
                                                   std::shared_ptr<TransferLog> log);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_TRANSFERCOSTMODEL_H
