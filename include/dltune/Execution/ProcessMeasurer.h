//===- ProcessMeasurer.h - Building and timing in child processes -*- C++ -*-===//
//
// The measurer behind the autotune pass. Builds run in parallel worker
// processes (`dltune worker build`), each under a wall-time and memory
// limit; built candidates are then measured one at a time (`dltune worker
// measure`), so measurements do not disturb each other. Every outcome is
// classified (ok, invalid config, compile error/timeout, crash, run
// timeout, wrong result, out of memory) with its error text kept.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_PROCESSMEASURER_H
#define DLTUNE_EXECUTION_PROCESSMEASURER_H

#include "dltune/Tuning/Process/ChildProcess.h"
#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/MeasureCallback/TuningLoop.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <chrono>
#include <functional>

namespace mlir::dltune {

struct ProcessMeasurerOptions {
  std::string workerPath;    // the dltune executable
  std::string kernelPath;    // task kernel (.mlir, with its dltune.space)
  std::string referencePath; // outputs of the untuned kernel
  /// Identifies the kernel and inputs the reference was made from; stored
  /// beside it (`<reference>.key`) and checked by every measure worker, so
  /// a stale or foreign reference is rebuilt, never trusted.
  std::string referenceKey;
  std::string workDir;       // where built kernels go
  unsigned jobs = 1;         // parallel builds
  ChildLimits buildLimits{60, 4ull << 30};
  ChildLimits runLimits{30, 4ull << 30};
  double minTimeMs = 50;
  bool flushCaches = false;    // RunnerOptions::flushCaches (`--flush-caches` of the worker)
  /// The reference built with the CPU's default configuration
  /// (createReference's `scheduled`; GPU tasks, tuner option gpu-reference).
  bool scheduledReference = false;
  double rtol = -1, atol = -1; // result-check tolerances; negative: by element type
  /// Candidates whose first call is this many times slower than the best
  /// so far are not timed further (0: always time fully).
  double cutoffFactor = 10;
  /// GPU builds: the chip and the device's limits (`--chip`, `--gpu-limits`
  /// of the build worker); empty: the worker asks the driver, else uses
  /// sm_90 and its limits.
  std::string gpuChip, gpuLimits;
  /// CPU: the configuration built once as the timing anchor (AnchoredTiming.h:
  /// each candidate is timed between two runs of it, and a time counts only
  /// when the anchor ran within `anchorTolerance` of its fastest); empty or
  /// a tolerance of 0: no anchor.
  std::string anchorConfig;
  double anchorTolerance = 0.1;
  double maxPhaseWaitSeconds = 3;
  /// Joules this machine consumed since the previous call (RAPL and/or
  /// NVML: EnergyMeter); unset, or nullopt from a call: not metered. Read
  /// around each batch's builds and each measurement, into each record's
  /// candidateEnergyJ.
  std::function<std::optional<double>()> readEnergyJoules;
  /// Hears why timing goes on without the anchor (its build failed).
  std::function<void(std::string)> warn;
  /// Which configurations this process may measure (Measurer::claim);
  /// unset: all.
  std::function<std::vector<bool>(const std::vector<Config> &)> claim;
  /// What processes sharing the database measured that the history lacks
  /// (Measurer::collectOthersResults); unset: nothing.
  std::function<std::vector<std::pair<Config, MeasureRecord>>(const TuningHistory &)>
      othersResults;
};

class ProcessMeasurer : public Measurer {
public:
  /// `bestMs`: the best time already known for the task (from history).
  ProcessMeasurer(const SearchSpace &space, ProcessMeasurerOptions options,
                  double bestMs = INFINITY);
  ~ProcessMeasurer() override;
  std::vector<MeasureRecord> measure(const std::vector<Config> &configs) override;
  std::vector<MeasureRecord> measureEach(const std::vector<Config> &configs,
                                         const ResultHandler &onResult) override;
  double getClockSeconds() const override;
  std::vector<bool> claim(const std::vector<Config> &configs) override;
  std::vector<std::pair<Config, MeasureRecord>>
  collectOthersResults(const TuningHistory &history) override;
  std::string getStopReason() const override { return stopReason; }
  /// Stops measuring: the candidates not yet timed are dropped unreported
  /// (a commit failed, the disk is full). The first reason stands.
  void stop(std::string reason) {
    if (stopReason.empty())
      stopReason = std::move(reason);
  }

  /// Re-measures `configs` in fresh processes, interleaved, for up to
  /// `maxRounds` rounds (at least three), stopping once the fastest is
  /// separated from the rest, or after any round once `outOfTime` says so
  /// (the run's time budget; the first round is always complete).
  /// Candidates that fail get no median and a note.
  std::vector<Confirmation> confirm(const std::vector<Config> &configs, unsigned maxRounds,
                                    std::vector<std::string> &notes,
                                    llvm::function_ref<bool()> outOfTime = nullptr);

  /// Runs the reference worker: writes the reference outputs (and their
  /// key) and returns the reference's time in ms. Its time limit grows with
  /// the kernel's `flops`. With `scheduledReference`, `how` gets what the
  /// worker said of it ("scheduled", or "untuned: <why not>").
  static llvm::Expected<double> makeReference(const ProcessMeasurerOptions &options,
                                              double flops, std::string *how = nullptr);
  /// Whether a reference with the options' key is on disk.
  static bool hasReference(const ProcessMeasurerOptions &options);
  /// What the worker said of the reference on disk (`<reference>.kind`:
  /// "scheduled", or "untuned: <why>"); nullopt for an untuned one, which
  /// has no such file.
  static std::optional<std::string> readReferenceKind(const ProcessMeasurerOptions &options);

private:
  /// Builds every config in parallel; failures are reported through
  /// `onFailure` and their records filled. Returns the .so paths.
  std::vector<std::string> buildCandidates(const std::vector<Config> &configs,
                                           std::vector<MeasureRecord> &records,
                                           const ResultHandler &onFailure);
  MeasureRecord runMeasureWorker(const Config &config, const std::string &so,
                                 bool allowCutoff);
  /// Builds the anchor on first use; false (after a warning) when there is
  /// none to use.
  bool ensureAnchor();
  /// options.readEnergyJoules, or nullopt without one.
  std::optional<double> readEnergy();

  const SearchSpace &space;
  ProcessMeasurerOptions options;
  std::chrono::steady_clock::time_point start;
  uint64_t counter = 0;
  double bestMs;
  std::string anchorSo; // built anchor; empty before the first use or without one
  bool anchorTried = false;
  /// The anchor's fast-phase time reported by each measure worker; their
  /// fast-phase time (getFastPhaseTime) is passed to the next one.
  std::vector<double> anchorReports;
  std::string stopReason;
};

/// Adds the state of the disk holding `dir` to a failed record's error
/// when it is (nearly) full, so that isEnvironmentFailure tells it: a
/// linker or compiler killed by a full disk must not be recorded as the
/// candidate's compile error.
void noteFullDisk(MeasureRecord &record, const std::string &dir,
                  const std::string &childStderr);

/// Each of parallel builds' share of their common energy reading: its
/// seconds over their sum (a build that keeps a core busy twice as long
/// draws about twice the energy); equal shares when no seconds are known.
std::vector<double> splitBySeconds(const std::vector<double> &seconds);

/// Classifies how a worker ended. `building` selects the compile-side
/// classes for timeouts and signals.
MeasureRecord classifyWorkerResult(const ChildResult &result, bool building);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_PROCESSMEASURER_H
