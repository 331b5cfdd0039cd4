//===- AnchoredTiming.h - Candidate timing gated by an anchor kernel -*- C++ -*-===//
//
// The VMs this project runs on have phases, a fraction of a second to
// seconds long, in which the same code runs up to 2x slower (another
// tenant on the core's sibling thread, most likely; no steal time shows).
// A candidate timed in such a phase looks worse than it is, and since the
// slowdown hits compute-bound code hardest, the best candidates suffer most.
//
// Anchored timing runs an anchor (another build of the same kernel, dltune's
// default config) right before and right after each timed block of the
// candidate. A block passes only when both anchor blocks ran within a
// tolerance of the anchor's fastest known time, and a time is settled when
// two passing blocks agree (a phase can begin and end inside one candidate
// block, unseen by the anchors). Otherwise it is tried again until the wait
// is over, and then the least disturbed attempt is kept and flagged.
//
//===----------------------------------------------------------------------===//

#ifndef DLTUNE_EXECUTION_ANCHOREDTIMING_H
#define DLTUNE_EXECUTION_ANCHOREDTIMING_H

#include "dltune/Execution/CpuKernel.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace mlir::dltune {

/// One anchor block, one candidate block, one anchor block.
struct AnchoredAttempt {
  double anchorBeforeMs = 0, anchorAfterMs = 0; // medians of the anchor blocks
  TimingStats candidate;
  std::optional<double> joules; // energy of the candidate block, if metered

  double getSlowerAnchorMs() const { return std::max(anchorBeforeMs, anchorAfterMs); }
};

struct AnchoredTimingOptions {
  /// The anchor's fastest time known from earlier runs; 0: unknown, then
  /// attempts go on for at least `learnSeconds` (slow phases of 1.5 s were
  /// taken for normal with 1.5 s; one fast anchor block is all it takes to
  /// know), and the wait below starts after them.
  double knownAnchorMs = 0;
  double learnSeconds = 3;
  double tolerance = 0.1; // the anchor may run this fraction slower
  double maxWaitSeconds = 3;
  int maxAttempts = 100;
  /// Two passing blocks whose medians differ by at most this fraction
  /// settle the time.
  double agreement = 0.05;
  /// A candidate this many times slower than the anchor blocks beside it is
  /// far from the best: no waiting for a fast phase, and two such passing
  /// attempts settle it without agreeing.
  double hopelessRatio = 1.5;
};

struct AnchoredTiming {
  AnchoredAttempt chosen;
  /// The anchor's time in a fast phase: the fast-phase time of this run's
  /// anchor blocks (getFastPhaseTime), and that or the known time,
  /// whichever is lower, which the gate compares with.
  double anchorMs = 0, fastestAnchorMs = 0;
  double slowdown = 1;        // chosen's slower anchor / fastestAnchorMs
  int attempts = 0;
  bool slowPhase = false; // no attempt passed the gate
  bool settled = false;   // two passing attempts agreed
};

/// The time of the fast phase among block times: their 10th percentile,
/// the minimum of fewer than 11. Not the minimum of many: blocks of a
/// microsecond kernel spread by 20% on timer granularity alone, and the
/// lowest of hundreds would fail every later block.
double getFastPhaseTime(std::vector<double> times);

/// Calls `attempt` until two attempts whose anchors both ran within the
/// tolerance of the fastest anchor time seen (known or in this run) agree,
/// or the wait or the attempt count is over, or the candidate is hopeless in
/// a slow phase. Chooses the faster of the fastest agreeing pair; unsettled,
/// the passing attempt with the lowest median, else the least slowed one.
llvm::Expected<AnchoredTiming>
timeAgainstAnchor(llvm::function_ref<llvm::Expected<AnchoredAttempt>()> attempt,
                  const AnchoredTimingOptions &options);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_ANCHOREDTIMING_H
