//===- PretrainedModel.h - Cost models pretrained on history, cached -*- C++ -*-===//
//
// Stage 1 of transfer: a cost model trained on recorded spaces of other
// devices (or tasks), matched to the target space by knob names. Each
// source's labels are its throughput normalised by its own optimum, so
// that a faster device does not outweigh a slower one. Pretraining is paid
// once per history: models are cached in the process by a hash of the rows,
// labels, model name and seed (ten replay seeds share one), and optionally
// in a directory, so that a later run loads the file instead.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_PRETRAINEDMODEL_H
#define DLTUNE_TUNING_TRANSFER_PRETRAINEDMODEL_H

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/GaussianProcess/DeepGaussianProcess.h"
#include "dltune/Tuning/Transfer/KnobMatching.h"

#include <memory>

namespace mlir::dltune {

struct PretrainingSet {
  FeatureMatrix x;
  /// Normalised throughput per source; failed configurations 0.
  std::vector<double> labels;
  /// stableHash of the rows and labels.
  uint64_t getHash() const;
};

/// Every recorded entry of each source (failures included, for the
/// feasibility classifier), in the target's knob order. `names` label the
/// sources in errors and notes; `notes` gets one line per dropped knob.
llvm::Expected<PretrainingSet> buildPretrainingSet(llvm::ArrayRef<KernelTunerCache> sources,
                                                   llvm::ArrayRef<std::string> names,
                                                   llvm::ArrayRef<Knob> targetKnobs,
                                                   const FeatureExtractor &features,
                                                   std::vector<std::string> &notes);
/// The same with each source's rows featurised by its own extractor (its
/// task's shapes and its device, with the target's knobs); every extractor
/// must give the target's columns.
llvm::Expected<PretrainingSet>
buildPretrainingSet(llvm::ArrayRef<KernelTunerCache> sources, llvm::ArrayRef<std::string> names,
                    llvm::ArrayRef<Knob> targetKnobs,
                    llvm::ArrayRef<const FeatureExtractor *> sourceFeatures,
                    std::vector<std::string> &notes);

struct PretrainedModel {
  std::shared_ptr<const CostModel> model;
  /// True when the model came from the process cache or the directory.
  bool reused = false;
  double trainSeconds = 0;
};

/// Adam steps for pretraining a deep GP on `rows` history rows when the
/// user set none: DeepGPOptions' 2000 for a large history (a recorded
/// space of 46,000 rows: 11 passes in minibatches of 256), 300 for one of
/// fewer than kSmallHistoryRows (a live database's few hundred rows, where
/// 2000 steps are hundreds of passes). Measured at 192 rows (two recorded
/// GPU spaces ranking a third, docs/cost-models.md "Pretraining a small
/// history"); the 1,000-row bound is a choice, not a measurement.
constexpr size_t kSmallHistoryRows = 1000;
int pretrainingIterations(size_t rows);

/// Inducing points of a deep GP pretrained on `rows` history rows:
/// DeepGPOptions' 100 for a large history, kSmallHistoryInducingPoints for
/// a small one. Each Adam step of pretraining and of every later MAP
/// adaptation costs about M^2 x rows x the inner width, so on a live
/// history of ~100 rows M = 100 (one inducing point per row) made transfer's
/// fitting 13-22 s of a 50 s run; 48 ranked a third GPU's space within
/// 0.02 Spearman of 100 at a quarter of the fitting time, 24 lost 0.03-0.06
/// (bench/dgp_sizes.py, docs/cost-models.md "Pretraining a small
/// history").
constexpr int kSmallHistoryInducingPoints = 48;
int pretrainingInducingPoints(size_t rows);

/// `model` is a createCostModel name. `cacheDirectory` (may be empty) holds
/// saved models named "<model>-<hash>-seed<S>[-<dgp sizes>].json". A "dgp"
/// is built with `dgpOptions` (its seed replaced by `seed`).
llvm::Expected<PretrainedModel> getPretrainedModel(llvm::StringRef model,
                                                   const PretrainingSet &set, uint64_t seed,
                                                   const std::string &cacheDirectory,
                                                   const DeepGPOptions &dgpOptions = {});

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_PRETRAINEDMODEL_H
