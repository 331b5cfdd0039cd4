//===- TransferSearch.cpp - Tuning set from a pretrained model, then search ===//

#include "dltune/Tuning/Transfer/TransferSearch.h"

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

using namespace mlir::dltune;

namespace {
class TransferSearch : public SearchStrategy {
public:
  TransferSearch(std::shared_ptr<const CostModel> pretrained, TransferSearchOptions options,
                 std::unique_ptr<SearchStrategy> inner, std::shared_ptr<TransferLog> log)
      : pretrained(std::move(pretrained)), options(std::move(options)), inner(std::move(inner)),
        log(std::move(log)) {}

  llvm::StringRef getName() const override { return inner->getName(); }

  void initialize(const SearchSpace &space, uint64_t seed) override {
    this->space = &space;
    this->seed = seed;
    coldInner.reset(); // a new run starts with transfer again
    inner->initialize(space, seed);
    tuningSet.clear();
    candidates.clear();
    probes.clear();
    probeScores.clear();
    next = 0;
    rowsAtReRank = 0;
    started = false;
    reRanker.reset();
    reRankLog.reset();
    checked = options.proxyProbes == 0;
    topProbes.clear();
    topProbeCount = 0;
    rng.seed(seed ^ 0x7a11u);
    if (options.transfer.mode == TransferMode::GuidedSampling) {
      tuningSet = sampleGuidedConfigs(space, *options.guidedSampling, options.tuningSetSize, rng);
      checked = true;
      return;
    }
    // The distinct configurations a bounded number of draws reaches (all of
    // them on a small recorded space).
    std::set<Config> drawn;
    for (size_t draw = 0; draw < 3 * options.rankedSampleSize &&
                          drawn.size() < options.rankedSampleSize;
         ++draw) {
      std::optional<Config> c = space.sample(rng);
      if (!c)
        break;
      drawn.insert(*c);
    }
    candidates.assign(drawn.begin(), drawn.end());
    features = options.inner.features;
    if (!features)
      features = createKnobFeatureExtractor(space);
    FeatureMatrix x = features->extractAll(candidates);
    std::vector<double> scores, variance;
    if (llvm::Error e = predictCandidates(*pretrained, x, scores, variance)) {
      // Without a ranking the inner strategy starts as it would cold.
      reportError(std::move(e));
      return;
    }
    fillTuningSet(scores, variance, nullptr);
    if (checked)
      return;
    // Probes: the top of the ranking, then random configurations ranked
    // below it, so that a model that transfers ranks the first above the
    // second.
    std::vector<size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), 0);
    size_t top = std::min(options.proxyProbes / 2, tuningSet.size());
    std::partial_sort(order.begin(), order.begin() + top, order.end(),
                      [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    std::set<Config> inTuningSet(tuningSet.begin(), tuningSet.end());
    topProbeCount = top;
    for (size_t i = 0; i < top; ++i) {
      probes.push_back(candidates[order[i]]);
      probeScores.push_back(scores[order[i]]);
    }
    std::uniform_int_distribution<size_t> pick(0, candidates.size() - 1);
    for (size_t attempt = 0; attempt < 100 * options.proxyProbes &&
                             probes.size() < options.proxyProbes &&
                             candidates.size() > tuningSet.size();
         ++attempt) {
      size_t i = pick(rng);
      if (inTuningSet.count(candidates[i]) ||
          std::find(probes.begin(), probes.end(), candidates[i]) != probes.end())
        continue;
      probes.push_back(candidates[i]);
      probeScores.push_back(scores[i]);
    }
  }

  std::vector<Config> propose(size_t count, const TuningHistory &history) override {
    if (!started) {
      started = true;
      resumeFrom(history);
    }
    std::vector<Config> out;
    if (!checked) {
      for (const Config &c : probes)
        if (out.size() < count && !history.contains(c))
          out.push_back(c);
      if (!out.empty())
        return out;
      checkProxy(history);
    }
    if (next < tuningSet.size() && reRanks() &&
        history.records.size() >= rowsAtReRank + options.reRankEvery)
      reRank(history);
    size_t limit = count;
    if (reRanks() && next < tuningSet.size())
      limit = std::min(limit, rowsAtReRank + options.reRankEvery - history.records.size());
    while (out.size() < limit && next < tuningSet.size()) {
      const Config &c = tuningSet[next++];
      if (!history.contains(c))
        out.push_back(c);
    }
    if (!out.empty()) {
      if (options.inner.observer)
        options.inner.observer->onModelProposals(out.size());
      return out;
    }
    if (coldInner) {
      // The cold search fits on every row but the misranking model's top
      // picks (measured and kept in the history all the same).
      TuningHistory view;
      view.measured = history.measured;
      for (size_t i = 0; i < history.configs.size(); ++i)
        if (!topProbes.count(history.configs[i])) {
          view.configs.push_back(history.configs[i]);
          view.records.push_back(history.records[i]);
        }
      return coldInner->propose(count, view);
    }
    return inner->propose(count, history);
  }

  void update(const std::vector<Config> &configs,
              const std::vector<MeasureRecord> &records) override {
    (coldInner ? coldInner : inner)->update(configs, records);
  }

private:
  /// Only with map (createTransferSearch refuses the other modes).
  bool reRanks() const { return options.reRankEvery > 0; }
  bool explores() const { return options.exploreShare > 0; }

  void reportError(llvm::Error e) {
    if (options.inner.observer)
      options.inner.observer->onModelError(std::move(e));
    else
      llvm::consumeError(std::move(e));
  }

  /// The model's score of each row, and its variance when exploring with a
  /// model that has one (else `variance` is left empty).
  llvm::Error predictCandidates(const CostModel &model, const FeatureMatrix &x,
                                std::vector<double> &scores, std::vector<double> &variance) {
    variance.clear();
    if (explores() && model.hasVariance())
      return model.predictWithVariance(x, scores, variance);
    llvm::Expected<std::vector<double>> predicted = model.predict(x);
    if (!predicted)
      return predicted.takeError();
    scores = std::move(*predicted);
    return llvm::Error::success();
  }

  /// Fills the tuning set after its first `next` entries up to
  /// tuningSetSize with candidates not in it and not measured (`history`
  /// may be null): by `scores`, best first, with every slot that the
  /// exploration share claims taken by the best upper bound that differs
  /// from every configuration in the set in at least two knobs.
  void fillTuningSet(const std::vector<double> &scores, const std::vector<double> &variance,
                     const TuningHistory *history) {
    // A re-rank replaces only the entries still to be measured: those the
    // probes already measured are used up, as they are in the fixed order.
    size_t remaining = 0;
    for (size_t i = next; i < tuningSet.size(); ++i)
      remaining += !(history && history->contains(tuningSet[i]));
    tuningSet.resize(std::min(next, tuningSet.size()));
    std::set<Config> taken(tuningSet.begin(), tuningSet.end());
    auto available = [&](size_t i) {
      return !taken.count(candidates[i]) && !(history && history->contains(candidates[i]));
    };
    std::vector<size_t> byMean(candidates.size()), byBound;
    std::iota(byMean.begin(), byMean.end(), 0);
    std::stable_sort(byMean.begin(), byMean.end(),
                     [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    size_t total = std::min(options.tuningSetSize, candidates.size());
    size_t explore = variance.empty() ? 0
                                      : static_cast<size_t>(std::lround(options.exploreShare * total));
    if (explore) {
      byBound = byMean;
      auto bound = [&](size_t i) {
        return scores[i] + options.exploreWeight * std::sqrt(std::max(variance[i], 0.0));
      };
      std::stable_sort(byBound.begin(), byBound.end(),
                       [&](size_t a, size_t b) { return bound(a) > bound(b); });
    }
    auto differsInTwoKnobs = [&](const Config &c) {
      for (const Config &t : tuningSet) {
        size_t differ = 0;
        for (size_t k = 0; k < c.size() && differ < 2; ++k)
          differ += c[k] != t[k];
        if (differ < 2)
          return false;
      }
      return true;
    };
    size_t end = history ? tuningSet.size() + remaining : total;
    size_t meanPos = 0, boundPos = 0;
    for (size_t slot = tuningSet.size(); slot < end; ++slot) {
      // Slot `slot` explores when the even spread of `explore` picks over
      // `total` slots steps up there.
      bool exploreSlot = explore && (slot + 1) * explore / total > slot * explore / total;
      std::optional<size_t> chosen;
      if (exploreSlot)
        for (; boundPos < byBound.size() && !chosen; ++boundPos)
          if (available(byBound[boundPos]) && differsInTwoKnobs(candidates[byBound[boundPos]]))
            chosen = byBound[boundPos];
      for (; meanPos < byMean.size() && !chosen; ++meanPos)
        if (available(byMean[meanPos]))
          chosen = byMean[meanPos];
      if (!chosen)
        break;
      taken.insert(candidates[*chosen]);
      tuningSet.push_back(candidates[*chosen]);
    }
  }

  /// Fits the transfer model on the target rows so far and re-ranks the
  /// rest of the tuning set with it, unless the guard prefers the
  /// target-only model (whose ranking on a few rows is worse than the
  /// pretrained one that passed the proxy check).
  void reRank(const TuningHistory &history) {
    rowsAtReRank = history.records.size();
    if (!reRanker) {
      TransferOptions seeded = options.transfer;
      seeded.seed = seed ^ 0x5e7u;
      reRankLog = std::make_shared<TransferLog>();
      reRanker = createTransferCostModel(pretrained, seeded, reRankLog);
    }
    if (llvm::Error e = reRanker->fit(features->extractAll(history.configs),
                                      normalizedThroughput(history)))
      return reportError(std::move(e));
    TransferDecision decision = reRankLog->empty() ? TransferDecision() : reRankLog->back();
    decision.reason = "tuning set re-rank: " + decision.reason +
                      (decision.usedTransfer ? "" : "; order kept");
    if (log)
      log->push_back(decision);
    if (!decision.usedTransfer)
      return;
    std::vector<double> scores, variance;
    if (llvm::Error e =
            predictCandidates(*reRanker, features->extractAll(candidates), scores, variance))
      return reportError(std::move(e));
    fillTuningSet(scores, variance, &history);
  }

  /// The task's own rows when transfer starts (a resumed run, or transfer
  /// built at a later slot once history arrived): they stand for the
  /// probes and count against the tuning set, so a task that has measured
  /// does not spend its budget again on a start it already made.
  void resumeFrom(const TuningHistory &history) {
    size_t measured = 0;
    for (const MeasureRecord &r : history.records)
      measured += r.hasUsableTime() || !r.isOk();
    // A fresh task's default configuration (measured before any strategy
    // is asked) is no start: below this the task starts as a fresh one.
    if (measured < std::max<size_t>(options.proxyProbes, 4))
      return;
    // Called before the first proposal, so nothing of the set is used yet.
    size_t before = history.records.size();
    llvm::erase_if(tuningSet, [&](const Config &c) { return history.contains(c); });
    tuningSet.resize(std::min(tuningSet.size(),
                              options.tuningSetSize > before ? options.tuningSetSize - before : 0));
    if (checked)
      return;
    // Enough rows to check the ranking without probes.
    checked = true;
    probes.clear();
    probeScores.clear();
    topProbeCount = 0;
    llvm::Expected<std::vector<double>> scores =
        pretrained->predict(features->extractAll(history.configs));
    if (!scores)
      return reportError(scores.takeError());
    decideProxy(history, history.configs, *scores, "measured rows", /*rowsBefore=*/0);
  }

  /// Spearman of the pretrained scores with the probes' measured
  /// throughput (failures 0); below the threshold, go on cold.
  void checkProxy(const TuningHistory &history) {
    checked = true;
    // The top half of the probes was chosen by a model that misranks this
    // target: a sample biased towards where it is wrong, not a random
    // start. Trained on them, the cold model planned worse (recorded A100
    // convolution, 60 seeds: 95% of the optimum after 286 measurements
    // against cold's 198; without them 209). So the cold search leaves
    // them out of its fits and measures its own random start after the
    // random probes, as it would without transfer.
    decideProxy(history, probes, probeScores, "probes", std::nullopt);
  }

  /// The proxy decision on `configs` (those measured in `history`) scored
  /// `scores` by the pretrained model. Abandoning goes on cold; the cold
  /// search's first fit waits for `rowsBefore` rows, or, when unset, for
  /// the rows measured but the top probes (see checkProxy).
  void decideProxy(const TuningHistory &history, const std::vector<Config> &configs,
                   const std::vector<double> &scores, llvm::StringRef what,
                   std::optional<size_t> rowsBefore) {
    std::map<Config, double> throughput;
    for (size_t i = 0; i < history.records.size(); ++i)
      throughput[history.configs[i]] =
          history.records[i].isOk() && history.records[i].timeMs > 0
              ? 1 / history.records[i].timeMs
              : 0;
    std::vector<double> predicted, measured;
    for (size_t i = 0; i < configs.size(); ++i)
      if (auto it = throughput.find(configs[i]); it != throughput.end()) {
        predicted.push_back(scores[i]);
        measured.push_back(it->second);
      }
    if (predicted.size() < 4)
      return;
    double rho = spearmanRankCorrelation(predicted, measured);
    TransferDecision decision;
    decision.rows = predicted.size();
    decision.usedTransfer = rho >= options.proxyMinSpearman;
    decision.reason = "proxy check on " + std::to_string(predicted.size()) + " " + what.str() +
                      ": Spearman " + llvm::formatv("{0:f3}", rho).str() +
                      (decision.usedTransfer ? " >= " : " < ") +
                      llvm::formatv("{0}", options.proxyMinSpearman).str() +
                      (decision.usedTransfer ? ": transfer" : ": transfer abandoned, tuning cold");
    if (log)
      log->push_back(decision);
    if (decision.usedTransfer)
      return;
    tuningSet.clear();
    StrategyOptions cold = options.inner;
    cold.makeCostModel = nullptr;
    cold.costModel = options.transfer.targetOnlyModel;
    if (rowsBefore) {
      cold.rowsBefore = *rowsBefore;
    } else {
      for (size_t i = 0; i < topProbeCount; ++i)
        if (history.contains(probes[i]))
          topProbes.insert(probes[i]);
      cold.rowsBefore = history.records.size() - topProbes.size();
    }
    llvm::Expected<std::unique_ptr<SearchStrategy>> coldStrategy =
        createSearchStrategy(options.innerStrategy, cold);
    if (!coldStrategy) {
      topProbes.clear();
      return reportError(coldStrategy.takeError());
    }
    coldInner = std::move(*coldStrategy);
    coldInner->initialize(*space, seed);
  }

  std::shared_ptr<const CostModel> pretrained;
  TransferSearchOptions options;
  std::unique_ptr<SearchStrategy> inner;     // with the transfer model
  std::unique_ptr<SearchStrategy> coldInner; // set once transfer is abandoned
  std::shared_ptr<TransferLog> log;
  const SearchSpace *space = nullptr;
  uint64_t seed = 0;
  std::shared_ptr<const FeatureExtractor> features;
  /// The ranked sample, and the tuning set taken from it.
  std::vector<Config> candidates, tuningSet, probes;
  std::vector<double> probeScores;
  size_t next = 0;
  /// Re-ranking: target rows at the last one, and its transfer model (one
  /// per run, so that the prior strength is chosen once).
  size_t rowsAtReRank = 0;
  bool started = false; // the first proposal (resumeFrom) has been made
  std::unique_ptr<CostModel> reRanker;
  std::shared_ptr<TransferLog> reRankLog;
  bool checked = true;
  /// After the proxy check abandoned transfer: the measured top probes.
  std::set<Config> topProbes;
  size_t topProbeCount = 0; // probes[0, topProbeCount): the model's top picks
  std::mt19937_64 rng{0x9e3779b9u};
};
} // namespace

llvm::Expected<std::unique_ptr<SearchStrategy>>
mlir::dltune::createTransferSearch(std::shared_ptr<const CostModel> pretrained,
                                   TransferSearchOptions options,
                                   std::shared_ptr<TransferLog> log) {
  bool guided = options.transfer.mode == TransferMode::GuidedSampling;
  if (guided && !options.guidedSampling)
    return makeError("transfer 'gs' needs the stepwise regression on the history");
  if (!guided && (!pretrained || !pretrained->isTrained()))
    return makeError("transfer needs a trained pretrained model");
  if (options.innerStrategy != "sa" && options.innerStrategy != "evolutionary")
    return makeError("transfer needs the model-based strategy sa or evolutionary, not '" +
                     options.innerStrategy + "'");
  if (options.transfer.mode == TransferMode::Map && pretrained->getName() != "dgp")
    return makeError("transfer 'map' adapts a deep GP: use --cost-model dgp, not '" +
                     pretrained->getName() + "'");
  if (!(options.exploreShare >= 0 && options.exploreShare <= 1))
    return makeError("the tuning set's exploration share must be between 0 and 1");
  if (options.exploreShare > 0 && (guided || !pretrained->hasVariance()))
    return makeError("exploring the tuning set needs a pretrained model with a variance (dgp, "
                     "gp or rf), not '" +
                     (guided ? std::string("gs") : pretrained->getName().str()) + "'");
  // lms and nlms shift the pretrained prediction by a function of itself,
  // which keeps (lms) or barely changes (nlms) its order.
  if (options.reRankEvery > 0 && options.transfer.mode != TransferMode::Map)
    return makeError("re-ranking the tuning set needs transfer 'map' (the other modes do not "
                     "change the pretrained order)");
  StrategyOptions innerOptions = options.inner;
  innerOptions.costModel.clear();
  TransferOptions transfer = options.transfer;
  innerOptions.makeCostModel = [pretrained, transfer, log](uint64_t seed) {
    TransferOptions seeded = transfer;
    seeded.seed = seed;
    return createTransferCostModel(pretrained, seeded, log);
  };
  // The tuning set is measured first, so the inner strategy fits as soon
  // as it takes over.
  innerOptions.firstFit = std::max<size_t>(1, std::min(options.tuningSetSize, innerOptions.firstFit));
  llvm::Expected<std::unique_ptr<SearchStrategy>> inner =
      createSearchStrategy(options.innerStrategy, innerOptions);
  if (!inner)
    return inner.takeError();
  return std::unique_ptr<SearchStrategy>(
      std::make_unique<TransferSearch>(std::move(pretrained), std::move(options),
                                       std::move(*inner), std::move(log)));
}
