//===- MeasureResult.h - Outcome of measuring one candidate -----*- C++ -*-===//
#ifndef DLTUNE_TUNING_MEASURECALLBACK_MEASURERESULT_H
#define DLTUNE_TUNING_MEASURECALLBACK_MEASURERESULT_H

#include "dltune/Tuning/Device/GpuResources.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cmath>
#include <optional>
#include <string>

namespace mlir::dltune {

/// How a candidate ended. Every measured candidate gets exactly one.
enum class MeasureStatus {
  Ok,
  InvalidConfig,  // outside its space, or rejected by the schedule
  CompileError,   // apply/lower/codegen failed
  CompileTimeout, // the build ran past its wall-time limit
  RuntimeCrash,   // the kernel process died on a signal
  RunTimeout,     // the kernel ran past its wall-time limit
  WrongResult,    // outputs differ from the reference
  OutOfMemory,    // the build or the run exceeded its memory limit
};

llvm::StringRef toString(MeasureStatus status);
std::optional<MeasureStatus> parseMeasureStatus(llvm::StringRef text);
/// parseMeasureStatus with an error that names the text and the known ones.
llvm::Expected<MeasureStatus> parseMeasureStatusOrError(llvm::StringRef text);

/// One measurement as the database keeps it.
struct MeasureRecord {
  std::string config; // "knob=value,..." in the space's knob order
  MeasureStatus status = MeasureStatus::Ok;
  double timeMs = NAN; // median of the timed repeats (ok only)
  double minMs = NAN, maxMs = NAN, stddevMs = NAN;
  int repeats = 0;
  bool noisy = false;          // spread too large to trust the median
  /// Anchored timing (Execution/AnchoredTiming.h), not stored in the
  /// database: the anchor's fastest time in the measuring process and how
  /// much slower its runs around the kept candidate block were (NAN:
  /// timed without an anchor). A slowdown past the tolerance makes the
  /// record noisy.
  double anchorMs = NAN, anchorSlowdown = NAN;
  bool cutOff = false;         // timed by one probe call: far slower than the best
  bool confirmed = false;      // times are those of a confirmation (Database::getBest)
  std::optional<double> energyJ; // per kernel call, when a meter was readable
  /// Metered joules of the whole candidate: its share of its batch's build
  /// energy (the batch's builds run in parallel, so the batch's reading is
  /// split by build seconds) plus its measurement's, from RAPL and/or NVML;
  /// unset when no meter was readable (then `dltune db cost` models it).
  std::optional<double> candidateEnergyJ;
  std::string error;           // diagnostics for failures
  double buildSeconds = 0, runSeconds = 0;
  std::string source = "measured"; // measured | replay | imported
  double createdAt = 0;            // seconds since the epoch
  std::string generator;           // dltune/LLVM/schedule versions (Version.h); "" = unknown
  /// GPU builds assembled by ptxas: what each kernel uses (empty otherwise).
  /// Stored in records.gpu_resources (JSON).
  std::vector<GpuKernelResources> gpuResources;
  bool isOk() const { return status == MeasureStatus::Ok; }
  /// Ok with a positive, finite time: one damaged or edited to 0 ms or NaN
  /// says nothing about speed.
  bool hasUsableTime() const { return isOk() && timeMs > 0 && std::isfinite(timeMs); }
};

/// Texts in a failure's error that mark a cause outside the candidate (a
/// full disk, a read-only file system, no process to start): such a
/// failure is never recorded as the candidate's, and a resumed run measures
/// records that carry one again.
std::vector<std::string> getEnvironmentFailureMarkers();
/// Whether `record` failed for a reason outside its configuration.
bool isEnvironmentFailure(const MeasureRecord &record);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_MEASURECALLBACK_MEASURERESULT_H
