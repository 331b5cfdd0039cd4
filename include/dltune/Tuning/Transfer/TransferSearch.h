//===- TransferSearch.h - Tuning that starts from a pretrained model -*- C++ -*-===//
//
// Stages 2-3 of Sun et al. (ICCV 2021) around any model-based strategy:
// rank a large random sample of valid target configurations with the model
// pretrained on history, measure the best `tuningSetSize` of them first
// (best predicted first; they count in the trial budget), then hand over to
// the inner strategy, whose cost model is a TransferCostModel (MAP
// adaptation or a model shift with the negative-transfer guard, or direct
// reuse) refitted as measurements arrive.
//
// Guided sampling (gs, OpML'19) replaces the ranked tuning set: the first
// tuningSetSize measurements vary the knobs of the stepwise regression
// fitted on the history (sampleGuidedConfigs), the proxy check is skipped
// (no pretrained ranking is used) and the inner strategy refits the
// target-only model.
//
// Where the paper is weak, two options (both off by default in the
// library; the tools choose their defaults, docs/cost-models.md): the rest of
// the tuning set can be re-ranked by the adapted model as target rows arrive
// (the paper measures all T in the pretrained order), and part of it can be
// spent on the model's uncertainty with diversity.
//
// Before committing to the tuning set, a proxy-device check (the
// monotonicity assumption of the edge-devices paper): the first probes are
// the pretrained model's top proxyProbes/2 configurations and as many random
// ones; when the model's Spearman correlation with their measured
// throughput is below proxyMinSpearman, transfer is abandoned and the
// search continues cold (the target-only model, random start), so that a
// dissimilar device does not waste the tuning set.
//
// A task that already has rows when transfer starts (a resumed run, or
// transfer built again at a later slot once more history arrived): with at
// least max(proxyProbes, 4) rows measured (failures included) the check is
// made on them instead of on probes, and the rows count against the tuning
// set (tuningSetSize less the rows measured), so its start is not paid for
// twice. Fewer (a fresh task's default configuration) change nothing.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_TRANSFERSEARCH_H
#define DLTUNE_TUNING_TRANSFER_TRANSFERSEARCH_H

#include "dltune/Tuning/Transfer/GuidedSampling.h"
#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"
#include "dltune/Tuning/Transfer/TransferCostModel.h"

namespace mlir::dltune {

struct TransferSearchOptions {
  /// "sa" or "evolutionary".
  std::string innerStrategy = "sa";
  /// The inner strategy's plan size, first fit and observer (its cost model
  /// is replaced by the transfer model).
  StrategyOptions inner;
  TransferOptions transfer;
  /// Measured first, in the pretrained model's order (the paper: 300).
  size_t tuningSetSize = 300;
  /// Every this many target measurements, the rest of the tuning set is
  /// re-ranked from the whole ranked sample by the transfer model fitted on
  /// the target rows so far (map only; the order is kept when the guard
  /// prefers the target-only model). 0: the paper's fixed order.
  size_t reRankEvery = 0;
  /// Share of the tuning set chosen for exploration rather than by the
  /// mean: by the upper bound mean + exploreWeight * sd (models with a
  /// variance), each differing from every configuration already in the set
  /// in at least two knobs; interleaved evenly with the mean's picks.
  double exploreShare = 0;
  double exploreWeight = 2;
  /// Random valid configurations the pretrained model ranks.
  size_t rankedSampleSize = 20000;
  /// The proxy-device check; 0 probes: none.
  size_t proxyProbes = 16;
  double proxyMinSpearman = 0.5;
  /// gs: the stepwise regression on the history (fitGuidedSamplingRegression).
  std::shared_ptr<const StepwiseRegression> guidedSampling;
};

/// Errors: an inner strategy that is not model-based, map without a dgp,
/// gs without its regression, any other mode without a trained pretrained
/// model (gs takes none).
/// Decisions of every fit are appended to `log` (may be null).
llvm::Expected<std::unique_ptr<SearchStrategy>>
createTransferSearch(std::shared_ptr<const CostModel> pretrained, TransferSearchOptions options,
                     std::shared_ptr<TransferLog> log);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_TRANSFERSEARCH_H
