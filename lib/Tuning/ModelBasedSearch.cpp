//===- ModelBasedSearch.cpp - SA, evolutionary search and BO over a model --===//
//
// The model-based strategies share AutoTVM's ModelBasedTuner loop: measure
// random configurations until a plan's worth (64) is in, fit the cost
// model, let an optimiser pick the plan (the 64 best predicted unmeasured
// configurations), propose from it with 5% random exploration, and refit
// and re-plan after every further 64 measurements.
//
//   sa            AutoTVM's SimulatedAnnealingOptimizer: 128 persistent
//                 parallel chains, 500 iterations, temperature 1 -> 0,
//                 early stop after 50 iterations without a new top entry.
//   evolutionary  MetaSchedule-like: a population seeded with the best
//                 measured configurations and random ones, mutation and
//                 crossover, selection by predicted score.
//   bo            expected improvement over the model's mean and variance.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/CostModel.h"
#include "dltune/Tuning/SearchStrategy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace mlir::dltune;

namespace {
class ModelBasedStrategy : public SearchStrategy {
public:
  explicit ModelBasedStrategy(StrategyOptions options) : options(std::move(options)) {}

  void initialize(const SearchSpace &s, uint64_t seed) override {
    space = &s;
    rng.seed(seed);
    if (!options.features)
      options.features = createKnobFeatureExtractor(s);
    llvm::Expected<std::unique_ptr<CostModel>> m =
        createCostModel(options.costModel, seed, static_cast<int>(options.planSize));
    if (!m) {
      llvm::consumeError(m.takeError());
      m = createCostModel("xgb", seed, static_cast<int>(options.planSize));
    }
    model = std::move(*m);
    trainCount = 0;
    plan.clear();
    planPos = 0;
  }

  std::vector<Config> propose(size_t count, const TuningHistory &history) override {
    size_t n = history.records.size();
    size_t first = std::min(options.firstFit, options.planSize);
    size_t due = trainCount == 0 ? first : first + options.planSize * trainCount;
    if (n >= due && hasSuccess(history)) {
      retrain(history);
      // Re-plan after every planSize measurements, however many came in.
      trainCount = n < first ? 1 : (n - first) / options.planSize + 1;
    }
    std::vector<Config> out;
    std::set<Config> picked;
    std::uniform_real_distribution<double> coin(0, 1);
    while (out.size() < count) {
      std::optional<Config> c;
      bool explore = !model->isTrained() || coin(rng) < options.epsilon;
      while (!explore && planPos < plan.size()) {
        const Config &p = plan[planPos++];
        if (!history.contains(p) && !picked.count(p)) {
          c = p;
          break;
        }
      }
      if (!c)
        c = randomUnmeasured(history, picked);
      if (!c)
        break;
      picked.insert(*c);
      out.push_back(*c);
    }
    return out;
  }

protected:
  /// The planSize best unmeasured configurations by the optimiser's measure.
  virtual std::vector<Config> findMaximums(const TuningHistory &history, size_t k) = 0;

  std::vector<double> score(const std::vector<Config> &configs) const {
    return model->predict(options.features->extractAll(configs));
  }

  std::optional<Config> randomUnmeasured(const TuningHistory &history,
                                         const std::set<Config> &also) {
    for (int attempt = 0; attempt < 1000; ++attempt) {
      std::optional<Config> c = space->sample(rng);
      if (!c)
        return std::nullopt;
      if (!history.contains(*c) && !also.count(*c))
        return c;
    }
    // Nearly exhausted: walk the whole space once.
    std::optional<Config> found;
    space->enumerate([&](const Config &c) {
      if (history.contains(c) || also.count(c))
        return true;
      found = c;
      return false;
    });
    return found;
  }

  /// One knob set to another random candidate; invalid moves are retried.
  Config randomWalk(const Config &c) {
    const auto &knobs = space->getKnobs();
    for (int attempt = 0; attempt < 32; ++attempt) {
      Config next = c;
      std::uniform_int_distribution<size_t> k(0, knobs.size() - 1);
      size_t i = k(rng);
      if (knobs[i].values.size() < 2)
        continue;
      std::uniform_int_distribution<size_t> v(0, knobs[i].values.size() - 1);
      next[i] = knobs[i].values[v(rng)];
      if (next != c && space->isValid(next))
        return next;
    }
    return c;
  }

  const SearchSpace *space = nullptr;
  StrategyOptions options;
  std::unique_ptr<CostModel> model;
  std::mt19937_64 rng;

private:
  static bool hasSuccess(const TuningHistory &h) {
    for (const MeasureRecord &r : h.records)
      if (r.isOk())
        return true;
    return false;
  }

  void retrain(const TuningHistory &history) {
    std::vector<double> times;
    for (const MeasureRecord &r : history.records)
      times.push_back(r.isOk() ? r.timeMs : NAN);
    FeatureMatrix x = options.features->extractAll(history.configs);
    if (llvm::Error e = model->fit(x, normalizedThroughput(times))) {
      llvm::consumeError(std::move(e));
      return;
    }
    plan = findMaximums(history, options.planSize);
    planPos = 0;
  }

  size_t trainCount = 0;
  std::vector<Config> plan;
  size_t planPos = 0;
};

/// Keeps the k best (score, config) pairs, each config once.
class TopK {
public:
  explicit TopK(size_t k) : k(k) {}
  bool offer(double s, const Config &c) {
    if (entries.count(c))
      return false;
    if (byScore.size() >= k && s <= byScore.begin()->first)
      return false;
    byScore.emplace(s, c);
    entries.insert(c);
    if (byScore.size() > k) {
      entries.erase(byScore.begin()->second);
      byScore.erase(byScore.begin());
    }
    return true;
  }
  std::vector<Config> descending() const {
    std::vector<Config> out;
    for (auto it = byScore.rbegin(); it != byScore.rend(); ++it)
      out.push_back(it->second);
    return out;
  }

private:
  size_t k;
  std::multimap<double, Config> byScore;
  std::set<Config> entries;
};

class SimulatedAnnealing : public ModelBasedStrategy {
public:
  using ModelBasedStrategy::ModelBasedStrategy;
  llvm::StringRef getName() const override { return "sa"; }

protected:
  std::vector<Config> findMaximums(const TuningHistory &history, size_t k) override {
    constexpr int kIterations = 500, kEarlyStop = 50;
    constexpr size_t kChains = 128;
    // Persistent chains: continue from where the last plan left them.
    if (points.size() != kChains) {
      points.clear();
      for (size_t i = 0; i < kChains; ++i)
        if (std::optional<Config> c = space->sample(rng))
          points.push_back(*c);
      if (points.empty())
        return {};
    }
    std::vector<double> scores = score(points);
    TopK top(k);
    for (size_t i = 0; i < points.size(); ++i)
      if (!history.contains(points[i]))
        top.offer(scores[i], points[i]);
    double t = 1.0;
    const double cool = 1.0 / (kIterations + 1);
    int lastModified = 0;
    std::uniform_real_distribution<double> coin(0, 1);
    for (int it = 0; it < kIterations && it < lastModified + kEarlyStop; ++it) {
      std::vector<Config> next(points.size());
      for (size_t i = 0; i < points.size(); ++i)
        next[i] = randomWalk(points[i]);
      std::vector<double> nextScores = score(next);
      for (size_t i = 0; i < points.size(); ++i) {
        double accept = std::exp(std::min((nextScores[i] - scores[i]) / (t + 1e-5), 1.0));
        if (coin(rng) < accept) {
          points[i] = next[i];
          scores[i] = nextScores[i];
        }
        if (!history.contains(next[i]) && top.offer(nextScores[i], next[i]))
          lastModified = it;
      }
      t -= cool;
    }
    return top.descending();
  }

private:
  std::vector<Config> points;
};

class EvolutionarySearch : public ModelBasedStrategy {
public:
  using ModelBasedStrategy::ModelBasedStrategy;
  llvm::StringRef getName() const override { return "evolutionary"; }

protected:
  std::vector<Config> findMaximums(const TuningHistory &history, size_t k) override {
    constexpr size_t kPopulation = 256;
    constexpr int kGenerations = 4;
    constexpr double kMutation = 0.85;
    // Seed: the best measured configurations (a fifth), the rest random.
    std::vector<size_t> order(history.records.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      double ta = history.records[a].isOk() ? history.records[a].timeMs : INFINITY;
      double tb = history.records[b].isOk() ? history.records[b].timeMs : INFINITY;
      return ta < tb;
    });
    std::vector<Config> population;
    for (size_t i = 0; i < order.size() && population.size() < kPopulation / 5; ++i)
      if (history.records[order[i]].isOk())
        population.push_back(history.configs[order[i]]);
    while (population.size() < kPopulation) {
      std::optional<Config> c = space->sample(rng);
      if (!c)
        break;
      population.push_back(*c);
    }
    if (population.empty())
      return {};
    TopK top(k);
    std::uniform_real_distribution<double> coin(0, 1);
    for (int g = 0; g < kGenerations; ++g) {
      std::vector<double> scores = score(population);
      for (size_t i = 0; i < population.size(); ++i)
        if (!history.contains(population[i]))
          top.offer(scores[i], population[i]);
      // Roulette selection on scores shifted to be positive.
      double lo = *std::min_element(scores.begin(), scores.end());
      std::vector<double> weights;
      for (double s : scores)
        weights.push_back(s - lo + 1e-6);
      std::discrete_distribution<size_t> select(weights.begin(), weights.end());
      std::vector<Config> children;
      while (children.size() < kPopulation) {
        Config child = population[select(rng)];
        if (coin(rng) < kMutation) {
          child = randomWalk(child);
        } else {
          const Config &other = population[select(rng)];
          Config mixed = child;
          for (size_t i = 0; i < mixed.size(); ++i)
            if (coin(rng) < 0.5)
              mixed[i] = other[i];
          if (space->isValid(mixed))
            child = mixed;
        }
        children.push_back(std::move(child));
      }
      population = std::move(children);
    }
    std::vector<double> scores = score(population);
    for (size_t i = 0; i < population.size(); ++i)
      if (!history.contains(population[i]))
        top.offer(scores[i], population[i]);
    return top.descending();
  }
};

class BayesianOptimization : public ModelBasedStrategy {
public:
  using ModelBasedStrategy::ModelBasedStrategy;
  llvm::StringRef getName() const override { return "bo"; }

protected:
  std::vector<Config> findMaximums(const TuningHistory &history, size_t k) override {
    // Candidates: random configurations and neighbours of the best measured.
    std::set<Config> pool;
    for (int i = 0; i < 2000; ++i)
      if (std::optional<Config> c = space->sample(rng); c && !history.contains(*c))
        pool.insert(*c);
    std::vector<std::pair<double, size_t>> best;
    for (size_t i = 0; i < history.records.size(); ++i)
      if (history.records[i].isOk())
        best.push_back({history.records[i].timeMs, i});
    std::sort(best.begin(), best.end());
    for (size_t b = 0; b < best.size() && b < 8; ++b)
      for (const Config &n : space->getNeighbours(history.configs[best[b].second]))
        if (!history.contains(n))
          pool.insert(n);
    std::vector<Config> candidates(pool.begin(), pool.end());
    if (candidates.empty())
      return {};
    std::vector<double> mean, variance;
    model->predictWithVariance(options.features->extractAll(candidates), mean, variance);
    // Labels are normalised: the best measured configuration scores 1.
    const double incumbent = 1.0, xi = 0.01;
    TopK top(k);
    for (size_t i = 0; i < candidates.size(); ++i) {
      double sigma = std::sqrt(variance[i]);
      double improve = mean[i] - incumbent - xi;
      double ei;
      if (sigma < 1e-12) {
        ei = std::max(improve, 0.0) + 1e-9 * mean[i]; // ties broken by the mean
      } else {
        double z = improve / sigma;
        double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
        double pdf = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
        ei = improve * cdf + sigma * pdf;
      }
      top.offer(ei, candidates[i]);
    }
    return top.descending();
  }
};
} // namespace

namespace mlir::dltune {
llvm::Expected<std::unique_ptr<SearchStrategy>>
createModelBasedStrategy(llvm::StringRef name, const StrategyOptions &options) {
  if (llvm::Expected<std::unique_ptr<CostModel>> probe = createCostModel(options.costModel);
      !probe)
    return probe.takeError();
  if (name == "sa")
    return std::make_unique<SimulatedAnnealing>(options);
  if (name == "evolutionary")
    return std::make_unique<EvolutionarySearch>(options);
  return std::make_unique<BayesianOptimization>(options);
}
} // namespace mlir::dltune
