//===- CandidateRunner.h - Check and time a candidate -----------*- C++ -*-===//
//
// A CandidateRunner loads an Artifact (CandidateBuilder.h), runs it once on
// the deterministic inputs, compares every output with the reference before its time may
// count (as KTT does), then times it: repeated calls up to a minimum count
// and total time, optionally cut off after one warm call when it is far
// slower than the best so far, and on the CPU optionally between blocks of
// an anchor kernel (AnchoredTiming.h). GPU kernels keep their arguments on
// the device and are timed with CUDA events.
//
// The reference is a file of the untuned kernel's outputs, written by
// createReference: making it is a run of the unscheduled kernel (built with
// kReferenceLowering, not by a CandidateBuilder; for GPU tasks by default the
// CPU's default configuration, kScheduledReferenceSchedule), done once per task and
// shared by every measurement, so it is a function beside the runner rather
// than a runner call. A key written beside it names the kernel it was made
// from, and the runner refuses a reference whose key is not the expected
// one.
//
// `dltune worker reference|measure` run these in child processes of the
// tuner; a downstream compiler may call them in process.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_CANDIDATERUNNER_H
#define DLTUNE_EXECUTION_CANDIDATERUNNER_H

#include "dltune/Execution/AnchoredTiming.h"
#include "dltune/Execution/CandidateBuilder.h"

#include <functional>
#include <optional>

namespace mlir::dltune {

/// The untuned outputs of a task kernel: every argument buffer after the
/// run, then every result, back to back, at `path`; `key` (written to
/// `<path>.key`) identifies the kernel.
struct ReferenceFile {
  std::string path;
  std::string key;
};

/// Builds the unscheduled `kernel` (its entry func @dltune_task) with the
/// reference lowering, runs it on the inputs of seed 1 and writes
/// `reference` (outputs, then key; each written aside and renamed, so that
/// processes sharing a directory never read half a reference). Returns the
/// untuned time in ms: the median of up to three calls (one when the first
/// takes over 2 s). Fails with a CandidateError: kUsage, kCompileError or
/// kRunError. With `scheduled` (GPU tasks) the kernel is built with the CPU's
/// default configuration instead (kScheduledReferenceSchedule), or untuned
/// where that fails to build (`*fallback` then says why).
llvm::Expected<double> createReference(ModuleOp kernel, const ReferenceFile &reference,
                                       bool scheduled = false,
                                       std::string *fallback = nullptr);

struct RunnerOptions {
  /// Timed calls (after one warm-up call) until both counts are reached,
  /// but at most maxRepeats.
  double minTimeMs = 50;
  int minRepeats = 3;
  int maxRepeats = 1000;
  /// > 0: a candidate whose first call and one warm call both take longer
  /// is reported from that warm call alone (RunResult::cutOff).
  double cutoffMs = 0;
  /// Output tolerances (getTolerance); negative: by element type.
  double rtol = -1, atol = -1;
  /// Evict the caches before each timed call, untimed (CPU: CacheFlusher;
  /// GPU: L2, DeviceArguments::setCacheFlushBytes): the kernel's data comes
  /// from memory, as inside a model. Off: timed hot, call after call.
  bool flushCaches = false;
  /// maxRepeats on the CPU with flushCaches (each flush takes milliseconds).
  static constexpr int kFlushedCpuMaxRepeats = 30;
  /// CPU: another build of the same kernel to time the candidate between
  /// (empty: plain timing), and how.
  std::string anchorPath;
  AnchoredTimingOptions anchor;
  /// Fault injection (DLTUNE_INJECT_FAULT in the worker): called after the
  /// artifact is loaded and the inputs are made, before the first call; and
  /// with the first call's outputs (arguments, results) before they are
  /// checked.
  std::function<void()> beforeFirstCall;
  std::function<void(std::vector<HostBuffer> &, std::vector<HostBuffer> &)> onFirstOutputs;
};

struct RunResult {
  TimingStats timing;
  /// The largest relative error of the outputs against the reference.
  double maxRelativeError = 0;
  /// Timed by one warm call only (RunnerOptions::cutoffMs); nothing below
  /// is set then.
  bool cutOff = false;
  /// Timed between anchor blocks (RunnerOptions::anchorPath), unless the
  /// anchor is too fast to judge the machine by.
  std::optional<AnchoredTiming> anchored;
  /// Energy per call, where a meter is readable.
  std::optional<double> joules;
  /// Timed with CUDA events around the launches (GPU artifacts).
  bool cudaEvents = false;
};

/// Checks and times artifacts. Fails with a CandidateError: kWrongResult
/// (an output differs from the reference beyond the tolerance;
/// maxRelativeError says by how much), kRunError (anything else, including a
/// reference made from another kernel).
class CandidateRunner {
public:
  virtual ~CandidateRunner();
  virtual llvm::Expected<RunResult> run(const Artifact &artifact, const ReferenceFile &reference,
                                        const RunnerOptions &options) = 0;
};

/// Runs artifacts in the calling process (a crashing candidate takes it
/// down: the tuner runs this in worker processes); prints nothing.
std::unique_ptr<CandidateRunner> createLocalCandidateRunner();

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_CANDIDATERUNNER_H
