//===- KnobMatching.h - Recorded spaces matched to a target by knob names -*- C++ -*-===//
//
// History for transfer comes from other devices or tasks whose spaces list
// the same knobs in another order, or have knobs the target lacks. Rows are
// matched by knob name: source knobs the target does not have are dropped
// (the caller reports them), and every target knob must exist in the source.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TRANSFER_KNOBMATCHING_H
#define DLTUNE_TUNING_TRANSFER_KNOBMATCHING_H

#include "dltune/Tuning/FeatureExtractor/FeatureExtractor.h"
#include "dltune/Tuning/Replay/KernelTunerCache.h"

namespace mlir::dltune {

/// Where each target knob sits in a source config.
struct KnobMatch {
  std::vector<size_t> sourceIndexOfTargetKnob;
  /// Source knobs without a target counterpart, in source order.
  std::vector<std::string> droppedSourceKnobs;
  /// Reorders (and shrinks) a source config into target knob order.
  Config toTarget(const Config &sourceConfig) const;
};

/// Fails when a target knob is missing from the source; `sourceName` names
/// the source in that message.
llvm::Expected<KnobMatch> matchKnobsByName(llvm::ArrayRef<Knob> sourceKnobs,
                                           llvm::ArrayRef<Knob> targetKnobs,
                                           llvm::StringRef sourceName);

/// Successfully measured configurations and their mean times.
struct TimedConfigs {
  std::vector<Config> configs;
  std::vector<double> timesMs;
  /// Per row, features of where it was measured (device features), or
  /// empty for all rows: cost models see them after the config's features.
  std::vector<std::vector<float>> context;
  size_t size() const { return configs.size(); }
  /// Fails when one side has context and the other does not.
  llvm::Error append(const TimedConfigs &other);
  /// Gives every row the same context.
  void setContext(const std::vector<float> &rowContext);
  /// Row `i` of `other` (with its context, if any) appended.
  void appendRow(const TimedConfigs &other, size_t i);
};

/// The configs' features followed by their context columns.
FeatureMatrix extractFeatures(const FeatureExtractor &features, const TimedConfigs &rows);

/// The cache's ok entries (positive finite time), in the cache's knob order.
TimedConfigs getValidMeasurements(const KernelTunerCache &cache);

/// The ok entries of `source`, reordered into the target's knob order.
/// `notes` receives one line per dropped knob.
llvm::Expected<TimedConfigs> getValidMeasurementsFor(const KernelTunerCache &source,
                                                     llvm::ArrayRef<Knob> targetKnobs,
                                                     const std::string &sourceName,
                                                     std::vector<std::string> &notes);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TRANSFER_KNOBMATCHING_H
