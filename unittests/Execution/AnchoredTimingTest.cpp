//===- AnchoredTimingTest.cpp - Timing gated by an anchor kernel ----------===//

#include "dltune/Execution/AnchoredTiming.h"
#include "dltune/Execution/ProcessMeasurer.h"
#include "dltune/Tuning/Process/ChildProcess.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace mlir::dltune;

namespace {
/// A machine whose speed changes from attempt to attempt: `slowdowns[i]`
/// multiplies both the anchor (1 ms when fast) and the candidate (`ms`
/// when fast) in attempt i; the last one holds after the list.
struct PhasedMachine {
  std::vector<double> slowdowns;
  double ms = 0.9; // a candidate a little faster than the default
  size_t calls = 0;
  llvm::Expected<AnchoredAttempt> operator()() {
    double f = slowdowns[std::min(calls, slowdowns.size() - 1)];
    ++calls;
    AnchoredAttempt a;
    a.anchorBeforeMs = a.anchorAfterMs = 1.0 * f;
    a.candidate.medianMs = ms * f;
    a.candidate.repeats = 10;
    return a;
  }
};

/// Anchors always fast (1 ms); the candidate's block medians in turn.
struct SteadyAnchors {
  std::vector<double> candidate;
  size_t calls = 0;
  llvm::Expected<AnchoredAttempt> operator()() {
    AnchoredAttempt a;
    a.anchorBeforeMs = a.anchorAfterMs = 1.0;
    a.candidate.medianMs = candidate[std::min(calls++, candidate.size() - 1)];
    return a;
  }
};

AnchoredTimingOptions knownAnchor(double ms) {
  AnchoredTimingOptions o;
  o.knownAnchorMs = ms;
  o.maxWaitSeconds = 60; // the attempt count ends the tests, not the clock
  o.maxAttempts = 8;
  return o;
}
} // namespace

TEST(AnchoredTiming, WaitsOutASlowPhaseAndKeepsTheFastAttempt) {
  PhasedMachine m{{1.9, 1.9, 1.0, 1.0}}; // the slow pair agrees, but its anchors are slow
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(std::ref(m), knownAnchor(1.0));
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->attempts, 4); // two fast attempts settle it
  EXPECT_TRUE(t->settled);
  EXPECT_DOUBLE_EQ(t->chosen.candidate.medianMs, 0.9);
  EXPECT_FALSE(t->slowPhase);
  EXPECT_DOUBLE_EQ(t->slowdown, 1.0);
}

TEST(AnchoredTiming, EitherAnchorBlockSlowFailsTheGate) {
  int calls = 0;
  auto attempt = [&]() -> llvm::Expected<AnchoredAttempt> {
    AnchoredAttempt a;
    // The phase began during the first candidate block: only the anchor
    // after it shows that.
    a.anchorBeforeMs = 1.0;
    a.anchorAfterMs = calls == 0 ? 1.8 : 1.0;
    a.candidate.medianMs = calls == 0 ? 1.6 : 0.9;
    ++calls;
    return a;
  };
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(attempt, knownAnchor(1.0));
  ASSERT_TRUE(static_cast<bool>(t));
  EXPECT_EQ(t->attempts, 3);
  EXPECT_DOUBLE_EQ(t->chosen.candidate.medianMs, 0.9);
}

TEST(AnchoredTiming, APhaseInsideTheCandidateBlockAloneIsNotTrusted) {
  // Both anchor blocks fast, the candidate block slowed in between: the
  // gate passes, but the next attempts disagree with it.
  SteadyAnchors m{{1.7, 0.9, 0.92}};
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(std::ref(m), knownAnchor(1.0));
  ASSERT_TRUE(static_cast<bool>(t));
  EXPECT_EQ(t->attempts, 3);
  EXPECT_TRUE(t->settled);
  EXPECT_DOUBLE_EQ(t->chosen.candidate.medianMs, 0.9);
}

TEST(AnchoredTiming, GivesUpAfterTheLastAttemptAndFlagsIt) {
  PhasedMachine m{{1.9, 1.7, 1.8}};
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(std::ref(m), knownAnchor(1.0));
  ASSERT_TRUE(static_cast<bool>(t));
  EXPECT_EQ(t->attempts, 8);
  EXPECT_TRUE(t->slowPhase);
  EXPECT_FALSE(t->settled);
  // The least slowed attempt is kept, with its slowdown.
  EXPECT_DOUBLE_EQ(t->chosen.candidate.medianMs, 0.9 * 1.7);
  EXPECT_DOUBLE_EQ(t->slowdown, 1.7);
}

TEST(AnchoredTiming, AStaleKnownTimeIsLoweredByAFasterBlock) {
  // Known 1.5 ms came from a slow moment; this run's 1.0 ms block is what
  // the measurer passes on to the next worker.
  PhasedMachine m{{1.0}};
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(std::ref(m), knownAnchor(1.5));
  ASSERT_TRUE(static_cast<bool>(t));
  EXPECT_EQ(t->attempts, 2);
  EXPECT_DOUBLE_EQ(t->fastestAnchorMs, 1.0);
  // And a block that passed against itself fails once a faster one shows up.
  PhasedMachine m2{{1.3, 1.0}};
  AnchoredTimingOptions learning = knownAnchor(0);
  learning.learnSeconds = 3600;
  learning.maxAttempts = 2;
  t = timeAgainstAnchor(std::ref(m2), learning);
  ASSERT_TRUE(static_cast<bool>(t));
  EXPECT_DOUBLE_EQ(t->chosen.candidate.medianMs, 0.9);
  EXPECT_DOUBLE_EQ(t->slowdown, 1.0);
  EXPECT_FALSE(t->settled); // one passing attempt only
}

TEST(AnchoredTiming, WithoutAKnownTimeItLearnsForAWhile) {
  // Slow for the first attempts: an unknown anchor would accept the slow
  // phase as normal if it stopped at once.
  PhasedMachine m{{1.9, 1.9, 1.9, 1.0}};
  AnchoredTimingOptions o = knownAnchor(0);
  o.learnSeconds = 3600; // longer than the attempts last: all of them run
  o.maxAttempts = 5;
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(std::ref(m), o);
  ASSERT_TRUE(static_cast<bool>(t));
  EXPECT_EQ(t->attempts, 5);
  EXPECT_DOUBLE_EQ(t->fastestAnchorMs, 1.0);
  EXPECT_DOUBLE_EQ(t->chosen.candidate.medianMs, 0.9);
  EXPECT_FALSE(t->slowPhase);
  EXPECT_TRUE(t->settled);
}

TEST(AnchoredTiming, HopelessCandidatesAreNotWaitedFor) {
  PhasedMachine m{{1.9, 1.0}, /*ms=*/20};
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(std::ref(m), knownAnchor(1.0));
  ASSERT_TRUE(static_cast<bool>(t));
  EXPECT_EQ(t->attempts, 1);
  EXPECT_TRUE(t->slowPhase);
}

TEST(AnchoredTiming, SlowCandidatesSettleWhenSlowTwiceBesideFastAnchors) {
  // A slow config varies more than 5% between blocks; twice 1.5x slower
  // than the anchors is enough to know it is not a contender.
  SteadyAnchors m{{20, 26, 23}};
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(std::ref(m), knownAnchor(1.0));
  ASSERT_TRUE(static_cast<bool>(t));
  EXPECT_EQ(t->attempts, 2);
  EXPECT_TRUE(t->settled);
  EXPECT_DOUBLE_EQ(t->chosen.candidate.medianMs, 20);
}

TEST(AnchoredTiming, FastPhaseTimeIgnoresOneLuckyBlockAmongMany) {
  EXPECT_TRUE(std::isinf(getFastPhaseTime({})));
  EXPECT_DOUBLE_EQ(getFastPhaseTime({3.0, 2.0, 4.0}), 2.0); // few: the minimum
  std::vector<double> many(30, 1.0);
  many[7] = 0.8; // timer granularity on a microsecond kernel
  many[19] = 1.9; // a slow phase
  EXPECT_DOUBLE_EQ(getFastPhaseTime(many), 1.0);
}

TEST(AnchoredTiming, AnAttemptsErrorIsPassedOn) {
  auto failing = []() -> llvm::Expected<AnchoredAttempt> {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "anchor crashed");
  };
  llvm::Expected<AnchoredTiming> t = timeAgainstAnchor(failing, knownAnchor(1.0));
  ASSERT_FALSE(static_cast<bool>(t));
  EXPECT_EQ(llvm::toString(t.takeError()), "anchor crashed");
}

// The measure worker's report: a slow phase it could not wait out makes
// the record noisy, and the anchor's figures reach the measurer.
TEST(AnchoredTiming, WorkerReportFlagsTheSlowPhase) {
  ChildResult r;
  r.exitCode = 0;
  r.out = "{\"median_ms\":2.0,\"min_ms\":1.95,\"max_ms\":2.1,\"stddev_ms\":0.04,"
          "\"repeats\":20,\"anchor_ms\":1.0,\"anchor_slowdown\":1.8,\"phase_attempts\":30,"
          "\"slow_phase\":true}\n";
  MeasureRecord rec = classifyWorkerResult(r, /*building=*/false);
  EXPECT_TRUE(rec.isOk());
  EXPECT_TRUE(rec.noisy);
  EXPECT_DOUBLE_EQ(rec.anchorMs, 1.0);
  EXPECT_DOUBLE_EQ(rec.anchorSlowdown, 1.8);
  r.out = "{\"median_ms\":2.0,\"min_ms\":1.95,\"max_ms\":2.1,\"stddev_ms\":0.04,"
          "\"repeats\":20,\"anchor_ms\":1.0,\"anchor_slowdown\":1.02,\"slow_phase\":false,"
          "\"settled\":true}\n";
  EXPECT_FALSE(classifyWorkerResult(r, false).noisy);
  r.out = "{\"median_ms\":2.0,\"min_ms\":1.95,\"max_ms\":2.1,\"stddev_ms\":0.04,"
          "\"repeats\":20,\"anchor_ms\":1.0,\"anchor_slowdown\":1.02,\"slow_phase\":false,"
          "\"settled\":false}\n";
  EXPECT_TRUE(classifyWorkerResult(r, false).noisy);
}
