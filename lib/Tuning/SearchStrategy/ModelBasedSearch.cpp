//===- ModelBasedSearch.cpp - AutoTVM's model-based tuning loop -----------===//
//
// The loop sa, evolutionary and bo share (AutoTVM's ModelBasedTuner); the
// optimisers themselves are in SimulatedAnnealing.cpp,
// EvolutionarySearch.cpp and BayesianOptimization.cpp.
//
//===----------------------------------------------------------------------===//

#include "SearchStrategy/ModelBasedSearch.h"

#include "dltune/Tuning/Support/Error.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir::dltune;

void ModelBasedStrategy::initialize(const SearchSpace &s, uint64_t seed) {
  space = &s;
  rng.seed(seed);
  if (!options.features)
    options.features = createKnobFeatureExtractor(s);
  trainCount = 0;
  plan.clear();
  planPos = 0;
  scoreCache.clear();
  llvm::Expected<std::unique_ptr<CostModel>> m = makeStrategyCostModel(getName(), options, seed);
  if (!m) {
    // Checked when the strategy was created; without a model every proposal
    // is random, and the caller hears why.
    model.reset();
    reportError(m.takeError());
    return;
  }
  model = std::move(*m);
}

void ModelBasedStrategy::reportError(llvm::Error e) {
  if (options.observer)
    options.observer->onModelError(std::move(e));
  else
    llvm::consumeError(std::move(e)); // the caller set no observer (see StrategyOptions)
}

std::vector<Config> ModelBasedStrategy::propose(size_t count, const TuningHistory &history) {
  size_t n = history.records.size();
  size_t first = std::min(options.firstFit, options.planSize) + options.rowsBefore;
  size_t due = trainCount == 0 ? first : first + options.planSize * trainCount;
  if (model && n >= due &&
      llvm::any_of(history.records, [](const MeasureRecord &r) { return r.isOk(); })) {
    retrain(history);
    // Re-plan after every planSize measurements, however many came in.
    trainCount = n < first ? 1 : (n - first) / options.planSize + 1;
  }
  // AutoTVM's next_batch: plan entries in order, skipping measured ones,
  // until only the random tail of the plan is left.
  size_t randomTail = static_cast<size_t>(options.randomShare * options.planSize);
  std::vector<Config> out;
  std::set<Config> picked;
  size_t fromPlan = 0;
  while (out.size() < count) {
    while (planPos < plan.size() &&
           (history.contains(plan[planPos]) || picked.count(plan[planPos])))
      ++planPos;
    std::optional<Config> c;
    if (planPos + randomTail < plan.size()) {
      c = plan[planPos++];
      ++fromPlan;
    } else {
      c = randomUnmeasured(history, picked);
    }
    if (!c)
      break;
    picked.insert(*c);
    out.push_back(*c);
  }
  if (fromPlan && options.observer)
    options.observer->onModelProposals(fromPlan);
  return out;
}

void ModelBasedStrategy::retrain(const TuningHistory &history) {
  plan.clear();
  planPos = 0;
  scoreCache.clear();
  FeatureMatrix x = options.features->extractAll(history.configs);
  if (llvm::Error e = model->fit(x, normalizedThroughput(history)))
    return reportError(std::move(e));
  if (options.observer)
    options.observer->onModelFit(x.rows());
  llvm::Expected<std::vector<Config>> p = findMaximums(history, options.planSize);
  if (!p)
    return reportError(p.takeError());
  plan = std::move(*p);
}

llvm::Expected<std::vector<double>>
ModelBasedStrategy::score(const std::vector<Config> &configs) const {
  // Only configurations not scored since the last fit are predicted: the
  // optimisers' chains revisit many (SA: 128 chains x up to 500 steps in a
  // space of a few thousand), and a sampled model (dgp) would otherwise give
  // one configuration different scores within one search.
  std::vector<Config> missing; // each once, also when repeated in `configs`
  for (const Config &c : configs)
    if (scoreCache.emplace(c, NAN).second)
      missing.push_back(c);
  if (!missing.empty()) {
    llvm::Expected<std::vector<double>> predicted =
        model->predict(options.features->extractAll(missing));
    if (!predicted) {
      for (const Config &c : missing)
        scoreCache.erase(c);
      return predicted.takeError();
    }
    for (size_t j = 0; j < missing.size(); ++j)
      scoreCache[missing[j]] = (*predicted)[j];
  }
  std::vector<double> out;
  out.reserve(configs.size());
  for (const Config &c : configs)
    out.push_back(scoreCache.at(c));
  return out;
}

std::optional<Config> ModelBasedStrategy::randomUnmeasured(const TuningHistory &history,
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

Config ModelBasedStrategy::randomWalk(const Config &c) {
  const auto &knobs = space->getKnobs();
  if (knobs.empty())
    return c;
  Config next = c;
  std::uniform_int_distribution<size_t> k(0, knobs.size() - 1);
  for (int move = 0; move < 1000; ++move) {
    size_t i = k(rng);
    std::uniform_int_distribution<size_t> v(0, knobs[i].values.size() - 1);
    next[i] = knobs[i].values[v(rng)];
    if (next != c && space->isValid(next))
      return next;
  }
  return c;
}

bool TopK::offer(double s, const Config &c) {
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

std::vector<std::pair<double, Config>> TopK::descending() const {
  return {byScore.rbegin(), byScore.rend()};
}

std::vector<Config> TopK::configs() const {
  std::vector<Config> out;
  for (auto it = byScore.rbegin(); it != byScore.rend(); ++it)
    out.push_back(it->second);
  return out;
}

llvm::Expected<std::unique_ptr<CostModel>>
mlir::dltune::makeStrategyCostModel(llvm::StringRef strategy, const StrategyOptions &options,
                                    uint64_t seed) {
  std::unique_ptr<CostModel> model;
  if (options.makeCostModel) {
    model = options.makeCostModel(seed);
    if (!model)
      return makeError("strategy '" + strategy.str() + "': the cost model factory made none");
  } else {
    std::string name = !options.costModel.empty() ? options.costModel
                       : strategy == "bo"         ? "rf"
                                                  : "xgb";
    llvm::Expected<std::unique_ptr<CostModel>> m =
        createCostModel(name, seed, static_cast<int>(options.planSize));
    if (!m)
      return m.takeError();
    model = std::move(*m);
  }
  // Expected improvement over a model without variance would be greedy
  // search on the mean under another name.
  if (strategy == "bo" && !model->hasVariance())
    return makeError("strategy 'bo' needs a cost model with variance (rf, dgp, gp); '" +
                     model->getName().str() + "' has none");
  return model;
}

llvm::Expected<std::unique_ptr<SearchStrategy>>
mlir::dltune::createModelBasedStrategy(llvm::StringRef name, const StrategyOptions &options) {
  // Make one model now, so that a bad name or model is an error here rather
  // than a silent fallback later.
  if (llvm::Expected<std::unique_ptr<CostModel>> probe =
          makeStrategyCostModel(name, options, /*seed=*/0);
      !probe)
    return probe.takeError();
  if (name == "sa")
    return createSimulatedAnnealing(options);
  if (name == "evolutionary")
    return createEvolutionarySearch(options);
  return createBayesianOptimization(options);
}

std::vector<double> mlir::dltune::normalizedThroughput(const TuningHistory &history) {
  std::vector<double> times;
  for (const MeasureRecord &r : history.records)
    times.push_back(r.isOk() ? r.timeMs : NAN);
  return normalizedThroughput(times);
}
