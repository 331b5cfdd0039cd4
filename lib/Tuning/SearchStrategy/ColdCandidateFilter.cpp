//===- ColdCandidateFilter.cpp - Trimmer's cold-candidate filter ----------===//

#include "dltune/Tuning/SearchStrategy/ColdCandidateFilter.h"
#include "dltune/Tuning/ColdFilter/ColdLabels.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir::dltune;

bool mlir::dltune::parseColdFilter(llvm::StringRef name, std::optional<ColdRule> &rule) {
  if (name == "off")
    rule.reset();
  else if (name == "nn")
    rule = ColdRule::RunningBest;
  else if (name == "trend")
    rule = ColdRule::Trend;
  else
    return false;
  return true;
}

std::unique_ptr<SearchStrategy>
mlir::dltune::applyColdFilter(std::unique_ptr<SearchStrategy> inner,
                              std::optional<ColdRule> rule, double coldFactor,
                              std::shared_ptr<ColdFilterStats> stats,
                              std::shared_ptr<const std::vector<ColdFilterPrior>> prior,
                              ColdFilterOptions::PriorRefresh refreshPrior) {
  if (!rule)
    return inner;
  ColdFilterOptions options;
  options.rule = *rule;
  options.coldFactor = coldFactor;
  options.prior = std::move(prior);
  options.refreshPrior = std::move(refreshPrior);
  return std::make_unique<ColdCandidateFilter>(std::move(inner), options, std::move(stats));
}

ColdCandidateFilter::ColdCandidateFilter(std::unique_ptr<SearchStrategy> inner,
                                         ColdFilterOptions options,
                                         std::shared_ptr<ColdFilterStats> stats)
    : inner(std::move(inner)), options(options),
      stats(stats ? std::move(stats) : std::make_shared<ColdFilterStats>()) {}

void ColdCandidateFilter::initialize(const SearchSpace &s, uint64_t seed) {
  space = &s;
  rng.seed(seed ^ 0x7c01df11u);
  network.reset();
  trainedAt = 0;
  ownTrained = false;
  epsilon = 0;
  known.clear();
  knownBad.clear();
  dropped.clear();
  priorRows.clear();
  priorSlowdown.clear();
  rowsAtRefresh = SIZE_MAX;
  inner->initialize(s, seed);
  loadPrior();
  if (!priorRows.empty())
    train(TuningHistory());
}

void ColdCandidateFilter::loadPrior() {
  if (!options.prior)
    return;
  std::vector<size_t> inSpace;
  std::vector<CategoricalRow> rows;
  for (size_t i = 0; i < options.prior->size(); ++i)
    if (std::optional<CategoricalRow> row = toRow((*options.prior)[i].config)) {
      inSpace.push_back(i);
      rows.push_back(std::move(*row));
    }
  std::vector<size_t> pick(inSpace.size());
  std::iota(pick.begin(), pick.end(), 0);
  if (pick.size() > options.maxPriorRows) {
    std::shuffle(pick.begin(), pick.end(), rng);
    pick.resize(options.maxPriorRows);
    std::sort(pick.begin(), pick.end());
  }
  for (size_t k : pick) {
    priorRows.push_back(std::move(rows[k]));
    priorSlowdown.push_back((*options.prior)[inSpace[k]].slowdown);
  }
}

std::optional<CategoricalRow> ColdCandidateFilter::toRow(const Config &config) const {
  llvm::ArrayRef<Knob> knobs = space->getKnobs();
  if (config.size() != knobs.size())
    return std::nullopt;
  CategoricalRow row;
  for (size_t i = 0; i < knobs.size(); ++i) {
    auto it = std::find(knobs[i].values.begin(), knobs[i].values.end(), config[i]);
    // A value outside the knob's list (a record of an older space) has no
    // embedding.
    if (it == knobs[i].values.end())
      return std::nullopt;
    row.push_back(static_cast<int>(it - knobs[i].values.begin()));
  }
  return row;
}

void ColdCandidateFilter::retrainIfDue(const TuningHistory &history) {
  size_t n = history.records.size();
  // The first training on the task's own records waits for minRecords of
  // them, with or without a pretrained network; later ones for retrainEvery
  // more.
  if (n < options.minRecords || n < options.neighbours ||
      (ownTrained && n < trainedAt + options.retrainEvery))
    return;
  train(history);
}

void ColdCandidateFilter::train(const TuningHistory &history) {
  size_t n = history.records.size();
  std::vector<double> times;
  std::vector<CategoricalRow> rows;
  std::vector<double> targets;
  std::vector<std::optional<CategoricalRow>> historyRows;
  double best = INFINITY;
  for (size_t i = 0; i < n; ++i) {
    const MeasureRecord &r = history.records[i];
    bool ok = r.hasUsableTime();
    times.push_back(ok ? r.timeMs : NAN);
    historyRows.push_back(toRow(history.configs[i]));
    if (ok && historyRows.back()) {
      rows.push_back(*historyRows.back());
      targets.push_back(std::log(r.timeMs));
      best = std::min(best, r.timeMs);
    }
  }
  // The task's own times as slowdowns over its best, like the prior's
  // (without a prior the network standardises its targets anyway: left as
  // they were).
  if (!priorRows.empty())
    for (double &t : targets)
      t -= std::log(best);
  for (size_t i = 0; i < priorRows.size(); ++i)
    if (std::isfinite(priorSlowdown[i]) && priorSlowdown[i] > 0) {
      rows.push_back(priorRows[i]);
      targets.push_back(std::log(priorSlowdown[i]));
    }
  if (rows.size() < 2)
    return;
  std::vector<bool> cold = options.rule == ColdRule::Trend
                               ? labelColdByTrend(times, options.trendSpan, options.trendMargin)
                               : labelColdByRunningBest(times, options.coldFactor);
  bool first = !network;
  if (first) {
    std::vector<int> cardinalities;
    for (const Knob &k : space->getKnobs())
      cardinalities.push_back(static_cast<int>(k.values.size()));
    EmbeddingNetworkOptions no = options.network;
    no.seed ^= rng();
    network.emplace(std::move(cardinalities), no);
  }
  network->train(rows, targets);
  trainedAt = n;
  ownTrained = n > 0;
  // Not from stats->trainings: the stats may be shared by the filters of
  // several tasks.
  epsilon = first ? options.initialEpsilon : epsilon * options.epsilonDecay;
  ++stats->trainings;
  stats->epsilon = epsilon;
  known.clear();
  knownBad.clear();
  auto addKnown = [&](const CategoricalRow &row, bool bad) {
    Eigen::VectorXd e = network->embed(row);
    double norm = e.norm();
    known.push_back(norm > 0 ? Eigen::VectorXd(e / norm) : e);
    knownBad.push_back(bad);
  };
  for (size_t i = 0; i < priorRows.size(); ++i)
    addKnown(priorRows[i], !(priorSlowdown[i] <= options.coldFactor));
  for (size_t i = 0; i < n; ++i)
    if (historyRows[i])
      addKnown(*historyRows[i], std::isnan(times[i]) || cold[i]);
}

bool ColdCandidateFilter::isLikelyCold(const Config &config) {
  if (!network || known.size() < options.neighbours || options.neighbours == 0)
    return false;
  if (std::uniform_real_distribution<double>(0, 1)(rng) >= epsilon)
    return false;
  std::optional<CategoricalRow> row = toRow(config);
  if (!row)
    return false;
  Eigen::VectorXd e = network->embed(*row);
  double norm = e.norm();
  // A vector of zeros (every middle unit off) is like nothing: keep it.
  if (!(norm > 0))
    return false;
  std::vector<std::pair<double, bool>> similar;
  for (size_t i = 0; i < known.size(); ++i)
    similar.push_back({known[i].dot(e) / norm, knownBad[i]});
  std::partial_sort(similar.begin(), similar.begin() + options.neighbours, similar.end(),
                    [](const auto &a, const auto &b) { return a.first > b.first; });
  for (size_t i = 0; i < options.neighbours; ++i)
    if (!similar[i].second)
      return false;
  return true;
}

std::vector<Config> ColdCandidateFilter::propose(size_t count, const TuningHistory &history) {
  // Asked once per batch (the refills below see the same records).
  if (options.refreshPrior && history.records.size() != rowsAtRefresh) {
    rowsAtRefresh = history.records.size();
    if (std::shared_ptr<const std::vector<ColdFilterPrior>> fresh = options.refreshPrior(history)) {
      options.prior = std::move(fresh);
      priorRows.clear();
      priorSlowdown.clear();
      loadPrior();
      // Trained on the new rows and the task's own at once: the neighbours
      // are only as good as the embedding that places them. The first
      // training that counts as the task's own still waits for minRecords.
      if (!priorRows.empty()) {
        train(history);
        if (history.records.size() < options.minRecords)
          ownTrained = false;
      }
    }
  }
  retrainIfDue(history);
  TuningHistory view = history;
  view.measured.insert(dropped.begin(), dropped.end());
  std::vector<Config> kept;
  for (int round = 0; round <= options.maxRefills && kept.size() < count; ++round) {
    std::vector<Config> batch = inner->propose(count - kept.size(), view);
    if (batch.empty())
      break;
    for (Config &c : batch) {
      view.measured.insert(c);
      ++stats->proposed;
      // The last round keeps what it gets: a batch is never left empty
      // by the filter alone.
      if (round < options.maxRefills && isLikelyCold(c)) {
        ++stats->dropped;
        dropped.insert(c);
        continue;
      }
      kept.push_back(std::move(c));
    }
  }
  return kept;
}
