//===- AnchoredTiming.cpp - Candidate timing gated by an anchor kernel ----===//

#include "dltune/Execution/AnchoredTiming.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

using namespace mlir::dltune;

double mlir::dltune::getFastPhaseTime(std::vector<double> times) {
  if (times.empty())
    return INFINITY;
  auto k = times.begin() + static_cast<std::ptrdiff_t>(0.1 * (times.size() - 1));
  std::nth_element(times.begin(), k, times.end());
  return *k;
}

llvm::Expected<AnchoredTiming>
mlir::dltune::timeAgainstAnchor(llvm::function_ref<llvm::Expected<AnchoredAttempt>()> attempt,
                                const AnchoredTimingOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto elapsedSeconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  bool known = options.knownAnchorMs > 0 && std::isfinite(options.knownAnchorMs);
  double fastest = known ? options.knownAnchorMs : INFINITY;
  double limit = 1 + options.tolerance;
  std::vector<AnchoredAttempt> attempts;
  std::vector<double> anchorBlocks;
  // The gate is judged against the fastest anchor seen so far, so an
  // attempt that passed may fail once a faster anchor block shows up.
  auto passes = [&](const AnchoredAttempt &a) { return a.getSlowerAnchorMs() <= limit * fastest; };
  // The faster of the fastest pair of passing attempts that agree.
  auto findSettled = [&]() -> std::optional<size_t> {
    std::vector<size_t> passing;
    for (size_t i = 0; i < attempts.size(); ++i)
      if (passes(attempts[i]))
        passing.push_back(i);
    std::sort(passing.begin(), passing.end(), [&](size_t x, size_t y) {
      return attempts[x].candidate.medianMs < attempts[y].candidate.medianMs;
    });
    for (size_t k = 0; k + 1 < passing.size(); ++k)
      if (attempts[passing[k + 1]].candidate.medianMs <=
          (1 + options.agreement) * attempts[passing[k]].candidate.medianMs)
        return passing[k];
    // Slow twice beside fast anchors: slow for real, however it varies.
    auto hopeless = [&](const AnchoredAttempt &a) {
      return a.candidate.medianMs > options.hopelessRatio * a.getSlowerAnchorMs();
    };
    if (passing.size() >= 2 && hopeless(attempts[passing[0]]) &&
        hopeless(attempts[passing[1]]))
      return passing[0];
    return std::nullopt;
  };
  while (true) {
    llvm::Expected<AnchoredAttempt> a = attempt();
    if (!a)
      return a.takeError();
    anchorBlocks.push_back(a->anchorBeforeMs);
    anchorBlocks.push_back(a->anchorAfterMs);
    fastest = std::min(known ? options.knownAnchorMs : INFINITY,
                       getFastPhaseTime(anchorBlocks));
    attempts.push_back(std::move(*a));
    const AnchoredAttempt &last = attempts.back();
    if (!passes(last) &&
        last.candidate.medianMs > options.hopelessRatio * last.getSlowerAnchorMs())
      break;
    if (findSettled() && (known || elapsedSeconds() >= options.learnSeconds))
      break;
    if (static_cast<int>(attempts.size()) >= options.maxAttempts ||
        elapsedSeconds() >= options.maxWaitSeconds + (known ? 0 : options.learnSeconds))
      break;
  }
  AnchoredTiming result;
  std::optional<size_t> settled = findSettled();
  // Unsettled: the fastest passing attempt, else the least slowed one.
  auto rank = [&](const AnchoredAttempt &a) {
    return passes(a) ? std::pair(0, a.candidate.medianMs) : std::pair(1, a.getSlowerAnchorMs());
  };
  size_t best = settled ? *settled
                        : std::min_element(attempts.begin(), attempts.end(),
                                           [&](const AnchoredAttempt &x, const AnchoredAttempt &y) {
                                             return rank(x) < rank(y);
                                           }) -
                              attempts.begin();
  result.chosen = attempts[best];
  result.fastestAnchorMs = fastest;
  result.anchorMs = getFastPhaseTime(anchorBlocks);
  result.slowdown = attempts[best].getSlowerAnchorMs() / fastest;
  result.attempts = static_cast<int>(attempts.size());
  result.slowPhase = !passes(attempts[best]);
  result.settled = settled.has_value();
  return result;
}
