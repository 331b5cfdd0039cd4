//===- DynaTuneScheduler.cpp - UCB over tasks with learning curves --------===//
//
// DynaTune (Yu et al., ICLR'21): every slot goes to the task with the
// largest upper confidence bound
//   u_k = r_k + sqrt(C log t / c_k)       (c_k slots so far, t = slot + 1)
// where r_k is the expected latency reduction of the task's next slot; in
// the paper (and here with gapReward off) predicted by a Bayesian
// log-power learning curve (LearningCurve.h) fitted
// to the task's best-so-far trace (the last segment after jumps of more
// than 20%): the mean over posterior samples of
//   weight * max(0, current - untuned / f(trials + slot)).
// Tasks that have not had a slot (or have fewer than 3 measurements) come
// first, the one that costs the model most first (with shareCap, only while
// no tried task is expected to save more than such a task's whole share).
//
// Seven changes to the paper (five on by default), each an option (SchedulerOptions):
//  - normalizeReward: r_k is in percent of the current model latency, so C
//    means the same on any model (the paper adds ms to a unitless bonus and
//    needs C = 0.2 below 1 ms). Not scaled by the round's largest reward:
//    when every task has stalled that makes the least-stalled one's ~0
//    reward a 1 and the scheduler greedy on noise;
//  - saturatingCurves: the curve's shape c is at most -1. With c near 0 the
//    log-power curve is a slow power law x^|c| that never flattens, and a
//    least-squares fit of "rise, then a long plateau" (best-so-far traces of
//    a task at its optimum) lands there: on a replayed GEMM at its optimum
//    for 500 measurements it kept predicting 3.6% per slot and drew most
//    of the budget;
//  - costAware (off by default: with gapReward it cost measurements on
//    every replay model): r_k is divided by the task's seconds per slot
//    relative to the mean, i.e. reduction per second of tuning (slots cost
//    10x more on some tasks than on others);
//  - similarityPrior: a task's (b, c) get a Gaussian prior from the curve
//    of a similar task (same kind and FLOP class) with more measurements.
//  - shareCap (off by default): no slot can save more than a task costs
//    the model, so a task's UCB is clipped at its share of the model
//    latency (percent, the reward's unit), and an untried task comes first
//    only while no tried task's expected reward exceeds its share. On
//    replay models with negligible tasks it saves their slots (rtx3060:
//    402 -> 338 measurements to 5%); live on the encoder, with each task
//    charged its default configuration's latency, eleven small tasks got
//    nothing but their default (their shares stay below the large tasks'
//    expected rewards) and the model ended 6% slower than without the cap;
//  - gapReward (default): the reward is not read from the curve but from
//    what the task's measurements say is left to gain,
//      weight * current * log(median / best) / c_k,
//    the spread of its measured latencies standing for its remaining gap.
//    Best-so-far traces of model-guided search are step functions with long
//    plateaus, and curves fitted to them predicted small, similar gains for
//    every task, so the bonus decided (the scheduler ran like round-robin).
//    A large task whose configurations all run within a few percent (a
//    memory-bound kernel) has little to gain however long it takes; one
//    whose configurations spread over 3x has much. With it the curve
//    options do nothing and no curve is fitted.
//  - probeShare (default 0.5): an untried task's first slot is half a slot.
//    Its spread is estimated from that as well, and a task with little to
//    give (a negligible pnpoly beside a GEMM) costs half as much to find
//    out; with a full first slot per task the first round alone spent a
//    slot per task before the rewards had any say.
//
//===----------------------------------------------------------------------===//

#include "TaskScheduler/TaskSchedulers.h"

#include "dltune/Tuning/TaskScheduler/LearningCurve.h"

#include <algorithm>
#include <map>

using namespace mlir::dltune;

namespace {
/// Measurements after which a task counts as tried (its spread is known).
constexpr size_t kTriedAfter = 3;

/// log(median / best) over the task's valid measurements: how much better
/// than a typical configuration the best one is, taken as the log-ratio the
/// rest of the space may still hold. 0 with fewer than two.
double estimateRemainingGap(const TaskState &t) {
  if (t.validMs.size() < 2)
    return 0;
  std::vector<double> ms = t.validMs;
  auto mid = ms.begin() + static_cast<std::ptrdiff_t>(ms.size() / 2);
  std::nth_element(ms.begin(), mid, ms.end());
  double best = *std::min_element(ms.begin(), ms.end());
  return best > 0 ? std::log(*mid / best) : 0;
}

struct CurveCache {
  int64_t trials = -1; // the task's trials when fitted
  int64_t slotTrials = 0;
  double reductionMs = 0; // expected, weighted
  std::optional<CurvePosterior> posterior;
};

class DynaTuneScheduler : public TaskScheduler {
public:
  explicit DynaTuneScheduler(const SchedulerOptions &o) : o(o) {}
  llvm::StringRef getName() const override { return "dynatune"; }

  std::optional<SlotRequest> next(llvm::ArrayRef<TaskState> tasks,
                                  const ModelState &model) override {
    cache.resize(tasks.size());
    std::vector<size_t> alive = aliveTasks(tasks);
    if (alive.empty())
      return std::nullopt;
    auto isUntried = [&](size_t i) {
      return tasks[i].slots == 0 || tasks[i].bestTrace.size() < kTriedAfter;
    };
    // Rewards in percent of a known model latency can be bounded by each
    // task's share of it (shareCap); otherwise untried tasks come first
    // (the paper's gamma), the costliest first.
    bool capByShare = o.shareCap && o.normalizeReward &&
                      std::isfinite(model.modelLatencyMs) && model.modelLatencyMs > 0;
    if (!capByShare) {
      std::optional<size_t> untried;
      for (size_t i : alive)
        if (isUntried(i) && (!untried || tasks[i].weight * tasks[i].untunedMs >
                                             tasks[*untried].weight * tasks[*untried].untunedMs))
          untried = i;
      if (untried)
        return probe(tasks, *untried, model);
    }

    double meanCost = 0;
    int tried = 0;
    for (const TaskState &t : tasks)
      if (t.slots > 0) {
        meanCost += t.secondsPerSlot();
        ++tried;
      }
    meanCost = tried ? meanCost / tried : 0;

    std::vector<double> reward;
    double largestReward = 0; // of the tried tasks
    for (size_t i : alive) {
      if (isUntried(i)) { // only with capByShare; no reward to predict yet
        reward.push_back(0);
        continue;
      }
      double r = expectedReduction(tasks, i, model.slotTrials);
      if (o.normalizeReward && model.modelLatencyMs > 0)
        r *= 100 / model.modelLatencyMs;
      // In percent of the model, the share's unit, before any cost weighting.
      largestReward = std::max(largestReward, r);
      if (o.costAware && meanCost > 0 && tasks[i].secondsPerSlot() > 0)
        r /= tasks[i].secondsPerSlot() / meanCost;
      reward.push_back(r);
    }
    auto shareOf = [&](const TaskState &t) {
      return 100 * t.weight * t.currentMs() / model.modelLatencyMs;
    };
    if (capByShare) {
      // An untried task still comes first, the costliest first, unless a
      // tried task is expected (not optimistically) to save more than the
      // untried task's whole latency.
      std::optional<size_t> untried;
      for (size_t i : alive)
        if (isUntried(i) && shareOf(tasks[i]) >= largestReward &&
            (!untried || shareOf(tasks[i]) > shareOf(tasks[*untried])))
          untried = i;
      if (untried)
        return probe(tasks, *untried, model);
    }
    double logT = std::log(static_cast<double>(model.slotsDone + 1));
    size_t best = 0;
    double bestU = -INFINITY;
    for (size_t k = 0; k < alive.size(); ++k) {
      const TaskState &t = tasks[alive[k]];
      double u;
      if (capByShare) {
        // No slot can save more than the task costs the model: its upper
        // confidence bound stops at its share, and an untried task (whose
        // bonus is unbounded) is worth exactly its share.
        double share = shareOf(t);
        u = isUntried(alive[k]) ? share
                                : std::min(share, reward[k] + std::sqrt(o.ucbC * logT / t.slots));
      } else {
        u = reward[k] + std::sqrt(o.ucbC * logT / t.slots);
      }
      if (u > bestU) {
        bestU = u;
        best = k;
      }
    }
    // With the cap an untried task can also win on its share here.
    if (isUntried(alive[best]))
      return probe(tasks, alive[best], model);
    return SlotRequest{alive[best], 0};
  }

  /// The expected, weighted latency reduction (ms) of task `i`'s next slot.
  double expectedReduction(llvm::ArrayRef<TaskState> tasks, size_t i, int64_t slotTrials) {
    const TaskState &t = tasks[i];
    if (o.gapReward) {
      // No spread (fewer than two valid measurements) promises nothing, also
      // when the latency is unknown (infinite): 0, not inf x 0.
      double gap = estimateRemainingGap(t);
      return gap > 0 ? t.weight * t.currentMs() * gap / std::max<int64_t>(1, t.slots) : 0;
    }
    CurveCache &c = cache[i];
    if (c.trials == t.trials && c.slotTrials == slotTrials)
      return c.reductionMs;
    std::vector<double> x, y;
    for (size_t k = 0; k < t.bestTrace.size(); ++k) {
      x.push_back(static_cast<double>(k + 1));
      y.push_back(t.untunedMs / t.bestTrace[k]);
    }
    size_t start = lastSegmentStart(y);
    CurveFitOptions fo;
    fo.walkers = o.walkers;
    fo.steps = o.mcmcSteps;
    fo.samples = o.posteriorSamples;
    fo.seed = o.seed * 7919 + i * 31 + static_cast<uint64_t>(t.trials);
    double xNext = static_cast<double>(t.trials + slotTrials);
    fo.notBelowAt = xNext;
    if (o.saturatingCurves)
      fo.maxShape = -1;
    if (o.similarityPrior)
      fo.prior = priorFor(tasks, i);
    c.posterior = fitLearningCurve(llvm::ArrayRef<double>(x).drop_front(start),
                                   llvm::ArrayRef<double>(y).drop_front(start), fo);
    double current = t.currentMs(), sum = 0;
    std::vector<double> predicted = c.posterior->predict(xNext);
    for (double f : predicted)
      sum += std::max(0.0, current - t.untunedMs / f);
    c.reductionMs = predicted.empty() ? 0 : t.weight * sum / predicted.size();
    c.trials = t.trials;
    c.slotTrials = slotTrials;
    return c.reductionMs;
  }

private:
  /// The first slot of an untried task: probeShare of a full slot, but at
  /// least enough to leave the task tried (kTriedAfter measurements); a
  /// probe that left it untried would be repeated, each repeat counting as
  /// a slot.
  SlotRequest probe(llvm::ArrayRef<TaskState> tasks, size_t task,
                    const ModelState &model) const {
    auto n = static_cast<int64_t>(std::round(o.probeShare * static_cast<double>(model.slotTrials)));
    int64_t toTried = static_cast<int64_t>(kTriedAfter) -
                      static_cast<int64_t>(tasks[task].bestTrace.size());
    n = std::max<int64_t>({n, toTried, 1});
    return SlotRequest{task, n >= model.slotTrials ? 0 : n};
  }

  /// The curve of the similar task with the most measurements, widened so
  /// that the task's own points soon outweigh it.
  std::optional<CurvePrior> priorFor(llvm::ArrayRef<TaskState> tasks, size_t i) const {
    std::string tag = similarityTag(tasks[i]);
    if (tag.empty())
      return std::nullopt;
    std::optional<size_t> from;
    for (size_t j = 0; j < tasks.size(); ++j)
      if (j != i && cache[j].posterior && similarityTag(tasks[j]) == tag &&
          tasks[j].trials > tasks[i].trials && (!from || tasks[j].trials > tasks[*from].trials))
        from = j;
    if (!from)
      return std::nullopt;
    CurveParams m = cache[*from].posterior->mean(), s = cache[*from].posterior->stddev();
    return CurvePrior{m[1], std::max(s[1], 0.5), m[2], std::max(s[2], 0.5)};
  }

  SchedulerOptions o;
  std::vector<CurveCache> cache;
};
} // namespace

std::unique_ptr<TaskScheduler> mlir::dltune::createDynaTuneScheduler(const SchedulerOptions &o) {
  return std::make_unique<DynaTuneScheduler>(o);
}
