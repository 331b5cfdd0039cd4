//===- FeatureExtractor.h - Features of configurations for cost models -*- C++ -*-===//
//
// Every cost model sees configurations through a FeatureExtractor: knob
// values (raw and log2) always; for dltune's own ops also op features
// (FLOPs, bytes, arithmetic intensity, loop extents), schedule-derived
// features (tile footprints per level against the caches, tile counts,
// vector length, unrolled body size, parallel units against cores) and the
// device's features. Recorded datasets without an op description use the
// knob features alone. The list is documented in docs/features.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_FEATUREEXTRACTOR_FEATUREEXTRACTOR_H
#define DLTUNE_TUNING_FEATUREEXTRACTOR_FEATUREEXTRACTOR_H

#include "dltune/Tuning/Space/SearchSpace.h"

#include <memory>

namespace mlir::dltune {

/// Row-major features, one row per configuration.
struct FeatureMatrix {
  size_t cols = 0;
  std::vector<float> data;
  size_t rows() const { return cols ? data.size() / cols : 0; }
  const float *row(size_t i) const { return data.data() + i * cols; }
  void append(const std::vector<float> &r) { data.insert(data.end(), r.begin(), r.end()); }
};

class FeatureExtractor {
public:
  virtual ~FeatureExtractor() = default;
  virtual std::vector<std::string> getNames() const = 0;
  virtual void extract(const Config &config, std::vector<float> &out) const = 0;
  FeatureMatrix extractAll(const std::vector<Config> &configs) const;
};

/// How an op's loops are tiled by knobs (from dltune's schedule plans), in
/// MLIR-free form, plus what the op and the device are.
struct ScheduleShape {
  std::string opKind;
  std::vector<int64_t> loopSizes;
  std::vector<bool> isReduction;
  /// Per loop: knob name, or empty with the constant in *Const.
  std::vector<std::string> cacheTile, registerTile;
  std::vector<int64_t> cacheConst, registerConst;
  int parallelDim = 0;
  /// Loops each operand is indexed by (for footprints).
  std::vector<std::vector<int>> operandLoops;
  int64_t elementBytes = 4;
  double flops = 0, bytes = 0;
  /// Device: caches in bytes, cores, f32 SIMD lanes, and the fingerprint's
  /// numeric features (appended as they are).
  double l1Bytes = 32768, l2Bytes = 1 << 20, l3Bytes = 32 << 20, cores = 1, simdLanes = 8;
  std::vector<std::string> deviceFeatureNames;
  std::vector<double> deviceFeatures;
};

/// Knob values, raw and log2(1 + |v|).
std::unique_ptr<FeatureExtractor> createKnobFeatureExtractor(const SearchSpace &space);
/// Knob, op, schedule and device features.
std::unique_ptr<FeatureExtractor> createScheduleFeatureExtractor(const SearchSpace &space,
                                                                 ScheduleShape shape);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_FEATUREEXTRACTOR_FEATUREEXTRACTOR_H
