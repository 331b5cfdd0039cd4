//===- KernelTunerCache.h - Kernel Tuner cache files ------------*- C++ -*-===//
//
// Reads Kernel Tuner's cache format (JSON, optionally gzip'ed; partial
// caches that end in "}," are completed as Kernel Tuner does): the knobs
// (`tune_params` in `tune_params_keys` order) and one entry per measured
// configuration with its mean time, raw repeats, compile/benchmark/
// verification times, or a failure string in place of the time.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_REPLAY_KERNELTUNERCACHE_H
#define DLTUNE_TUNING_REPLAY_KERNELTUNERCACHE_H

#include "dltune/Tuning/MeasureCallback/MeasureResult.h"
#include "dltune/Tuning/Space/SearchSpace.h"

#include <map>
#include <optional>

namespace mlir::dltune {

struct RecordedMeasurement {
  Config config;
  MeasureStatus status = MeasureStatus::Ok;
  double timeMs = NAN;
  std::vector<double> repeatsMs;
  double compileMs = 0, benchmarkMs = 0, verificationMs = 0, frameworkMs = 0;
  /// The entry's "GFLOP/s", when the recording computed one (NaN if not).
  double gflopPerSecond = NAN;
};

struct KernelTunerCache {
  std::string deviceName;
  std::string kernelName;
  std::vector<int64_t> problemSize;
  std::vector<Knob> knobs; // values in the file's order
  std::vector<RecordedMeasurement> entries;
  std::map<Config, size_t> index;

  /// Reads `path` (.json or .json.gz). Errors name the file and the problem.
  static llvm::Expected<KernelTunerCache> load(const std::string &path);
  /// Reads every file of a comma-separated list (empty entries skipped);
  /// `names` gets each file's path.
  static llvm::Expected<std::vector<KernelTunerCache>>
  loadList(llvm::StringRef paths, std::vector<std::string> &names);
  /// Reads the JSON text of a cache; `name` (the file) prefixes errors. Every
  /// field is type-checked; entries whose knob values are not in
  /// tune_params, whose time is neither a positive number nor a Kernel Tuner
  /// failure name, or that repeat a configuration are all listed and fail.
  static llvm::Expected<KernelTunerCache> parse(llvm::StringRef text,
                                                const std::string &name);

  /// The space of recorded configurations: the cache's knobs, restricted to
  /// the configurations it holds (ok and failed alike).
  SearchSpace getSpace() const;
  /// Best (lowest) ok mean time.
  double getOptimumMs() const;
  /// Median ok mean time (NaN when none): replay's untuned latency, the
  /// time of a configuration nobody chose.
  double getMedianMs() const;
  /// FLOPs of one call: the median over ok entries of GFLOP/s x time, when
  /// entries record GFLOP/s (nullopt otherwise).
  std::optional<double> getFlopsPerCall() const;
  const RecordedMeasurement *find(const Config &config) const;
};

/// Reads a whole file, gunzipping it when it starts with the gzip magic.
llvm::Expected<std::string> readMaybeGzipped(const std::string &path);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_REPLAY_KERNELTUNERCACHE_H
