//===- PretrainedModel.cpp - Cost models pretrained on history, cached ----===//

#include "dltune/Tuning/Transfer/PretrainedModel.h"

#include "dltune/Tuning/Support/Error.h"
#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cmath>
#include <map>
#include <mutex>

using namespace mlir::dltune;

uint64_t PretrainingSet::getHash() const {
  std::string bytes(reinterpret_cast<const char *>(x.data.data()),
                    x.data.size() * sizeof(float));
  bytes.append(reinterpret_cast<const char *>(labels.data()), labels.size() * sizeof(double));
  bytes += "cols=" + std::to_string(x.cols);
  return stableHash(bytes);
}

llvm::Expected<PretrainingSet>
mlir::dltune::buildPretrainingSet(llvm::ArrayRef<KernelTunerCache> sources,
                                  llvm::ArrayRef<std::string> names,
                                  llvm::ArrayRef<Knob> targetKnobs,
                                  const FeatureExtractor &features,
                                  std::vector<std::string> &notes) {
  std::vector<const FeatureExtractor *> same(sources.size(), &features);
  return buildPretrainingSet(sources, names, targetKnobs, same, notes);
}

llvm::Expected<PretrainingSet>
mlir::dltune::buildPretrainingSet(llvm::ArrayRef<KernelTunerCache> sources,
                                  llvm::ArrayRef<std::string> names,
                                  llvm::ArrayRef<Knob> targetKnobs,
                                  llvm::ArrayRef<const FeatureExtractor *> sourceFeatures,
                                  std::vector<std::string> &notes) {
  assert(sourceFeatures.size() == sources.size() && "one extractor per source");
  PretrainingSet set;
  std::vector<float> row;
  for (size_t s = 0; s < sources.size(); ++s) {
    const FeatureExtractor &features = *sourceFeatures[s];
    size_t cols = features.getNames().size();
    if (s == 0)
      set.x.cols = cols;
    else if (cols != set.x.cols)
      return makeError("'" + names[s] + "': its features have " + std::to_string(cols) +
                       " columns, the first source's " + std::to_string(set.x.cols));
    llvm::Expected<KnobMatch> match = matchKnobsByName(sources[s].knobs, targetKnobs, names[s]);
    if (!match)
      return match.takeError();
    for (const std::string &knob : match->droppedSourceKnobs)
      notes.push_back("'" + names[s] + "': knob '" + knob +
                      "' is not in the target space; dropped");
    std::vector<double> times;
    for (const RecordedMeasurement &entry : sources[s].entries) {
      times.push_back(entry.status == MeasureStatus::Ok ? entry.timeMs : NAN);
      row.clear();
      features.extract(match->toTarget(entry.config), row);
      set.x.append(row);
    }
    std::vector<double> labels = normalizedThroughput(times);
    set.labels.insert(set.labels.end(), labels.begin(), labels.end());
  }
  if (set.labels.empty())
    return makeError("the history holds no recorded configuration");
  return set;
}

namespace {
std::mutex cacheMutex;
std::map<std::string, std::shared_ptr<const CostModel>> &processCache() {
  // Never destroyed: at exit, XGBoost's own globals may be gone before a
  // static map would free its boosters (a crash in XGBoosterFree).
  static auto *cache = new std::map<std::string, std::shared_ptr<const CostModel>>();
  return *cache;
}
} // namespace

int mlir::dltune::pretrainingIterations(size_t rows) {
  return rows < kSmallHistoryRows ? 300 : DeepGPOptions().iterations;
}

int mlir::dltune::pretrainingInducingPoints(size_t rows) {
  return rows < kSmallHistoryRows ? kSmallHistoryInducingPoints
                                  : DeepGPOptions().inducingPoints;
}

llvm::Expected<PretrainedModel>
mlir::dltune::getPretrainedModel(llvm::StringRef model, const PretrainingSet &set, uint64_t seed,
                                 const std::string &cacheDirectory,
                                 const DeepGPOptions &dgpOptions) {
  std::string key =
      model.str() + "-" + llvm::utohexstr(set.getHash()) + "-seed" + std::to_string(seed);
  if (model == "dgp")
    key += "-L" + std::to_string(dgpOptions.layers) + "-M" +
           std::to_string(dgpOptions.inducingPoints) + "-H" +
           std::to_string(dgpOptions.hiddenDims) + "-it" + std::to_string(dgpOptions.iterations);
  PretrainedModel result;
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = processCache().find(key);
    if (it != processCache().end()) {
      result.model = it->second;
      result.reused = true;
      return result;
    }
  }
  llvm::Expected<std::unique_ptr<CostModel>> fresh = createCostModel(model, seed);
  if (!fresh)
    return fresh.takeError();
  if (model == "dgp") {
    DeepGPOptions options = dgpOptions;
    options.seed = seed;
    *fresh = createDeepGPCostModel(options);
  }
  llvm::SmallString<256> file;
  if (!cacheDirectory.empty()) {
    file = cacheDirectory;
    llvm::sys::path::append(file, key + ".json");
  }
  if (!file.empty() && llvm::sys::fs::exists(file)) {
    if (llvm::Error e = (*fresh)->load(file.str().str()))
      return makeError("cached pretrained model: " + llvm::toString(std::move(e)));
    result.reused = true;
  } else {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error e = (*fresh)->fit(set.x, set.labels))
      return makeError("pretraining " + model + ": " + llvm::toString(std::move(e)));
    result.trainSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!file.empty()) {
      if (std::error_code ec = llvm::sys::fs::create_directories(cacheDirectory))
        return makeError("cannot create '" + cacheDirectory + "': " + ec.message());
      if (llvm::Error e = (*fresh)->save(file.str().str()))
        return e;
    }
  }
  result.model = std::shared_ptr<const CostModel>(std::move(*fresh));
  std::lock_guard<std::mutex> lock(cacheMutex);
  processCache()[key] = result.model;
  return result;
}
