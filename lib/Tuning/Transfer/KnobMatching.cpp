//===- KnobMatching.cpp - Recorded spaces matched by knob names -----------===//

#include "dltune/Tuning/Transfer/KnobMatching.h"

#include "dltune/Tuning/Support/Error.h"

#include <cmath>

using namespace mlir::dltune;

Config KnobMatch::toTarget(const Config &sourceConfig) const {
  Config target(sourceIndexOfTargetKnob.size());
  for (size_t i = 0; i < target.size(); ++i)
    target[i] = sourceConfig[sourceIndexOfTargetKnob[i]];
  return target;
}

llvm::Expected<KnobMatch> mlir::dltune::matchKnobsByName(llvm::ArrayRef<Knob> sourceKnobs,
                                                         llvm::ArrayRef<Knob> targetKnobs,
                                                         llvm::StringRef sourceName) {
  KnobMatch match;
  std::vector<bool> used(sourceKnobs.size(), false);
  for (const Knob &target : targetKnobs) {
    size_t found = sourceKnobs.size();
    for (size_t s = 0; s < sourceKnobs.size(); ++s)
      if (sourceKnobs[s].name == target.name)
        found = s;
    if (found == sourceKnobs.size())
      return makeError("'" + sourceName + "' has no knob '" + target.name +
                       "' of the target space");
    used[found] = true;
    match.sourceIndexOfTargetKnob.push_back(found);
  }
  for (size_t s = 0; s < sourceKnobs.size(); ++s)
    if (!used[s])
      match.droppedSourceKnobs.push_back(sourceKnobs[s].name);
  return match;
}

llvm::Error TimedConfigs::append(const TimedConfigs &other) {
  if (other.size() && size() && context.empty() != other.context.empty())
    return makeError("cannot join rows with device features and rows without");
  configs.insert(configs.end(), other.configs.begin(), other.configs.end());
  timesMs.insert(timesMs.end(), other.timesMs.begin(), other.timesMs.end());
  context.insert(context.end(), other.context.begin(), other.context.end());
  return llvm::Error::success();
}

void TimedConfigs::setContext(const std::vector<float> &rowContext) {
  context.assign(configs.size(), rowContext);
}

void TimedConfigs::appendRow(const TimedConfigs &other, size_t i) {
  configs.push_back(other.configs[i]);
  timesMs.push_back(other.timesMs[i]);
  if (!other.context.empty())
    context.push_back(other.context[i]);
}

FeatureMatrix mlir::dltune::extractFeatures(const FeatureExtractor &features,
                                            const TimedConfigs &rows) {
  FeatureMatrix x = features.extractAll(rows.configs);
  if (rows.context.empty() || rows.context.front().empty())
    return x;
  size_t extra = rows.context.front().size();
  FeatureMatrix joined;
  joined.cols = x.cols + extra;
  joined.data.reserve(rows.size() * joined.cols);
  for (size_t i = 0; i < rows.size(); ++i) {
    joined.data.insert(joined.data.end(), x.row(i), x.row(i) + x.cols);
    joined.data.insert(joined.data.end(), rows.context[i].begin(), rows.context[i].end());
  }
  return joined;
}

TimedConfigs mlir::dltune::getValidMeasurements(const KernelTunerCache &cache) {
  TimedConfigs valid;
  for (const RecordedMeasurement &entry : cache.entries)
    if (entry.status == MeasureStatus::Ok && std::isfinite(entry.timeMs) && entry.timeMs > 0) {
      valid.configs.push_back(entry.config);
      valid.timesMs.push_back(entry.timeMs);
    }
  return valid;
}

llvm::Expected<TimedConfigs>
mlir::dltune::getValidMeasurementsFor(const KernelTunerCache &source,
                                      llvm::ArrayRef<Knob> targetKnobs,
                                      const std::string &sourceName,
                                      std::vector<std::string> &notes) {
  llvm::Expected<KnobMatch> match = matchKnobsByName(source.knobs, targetKnobs, sourceName);
  if (!match)
    return match.takeError();
  for (const std::string &knob : match->droppedSourceKnobs)
    notes.push_back("'" + sourceName + "': knob '" + knob +
                    "' is not in the target space; dropped");
  TimedConfigs valid = getValidMeasurements(source);
  for (Config &config : valid.configs)
    config = match->toTarget(config);
  return valid;
}
