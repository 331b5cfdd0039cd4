//===- TransferSearch.cpp - Tuning set from a pretrained model, then search ===//

#include "dltune/Tuning/TransferSearch.h"

#include "dltune/Tuning/CostModel.h"
#include "dltune/Tuning/Error.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <numeric>

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
    inner->initialize(space, seed);
    tuningSet.clear();
    probes.clear();
    probeScores.clear();
    next = 0;
    checked = options.proxyProbes == 0;
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
    std::vector<Config> candidates(drawn.begin(), drawn.end());
    std::shared_ptr<const FeatureExtractor> features = options.inner.features;
    std::unique_ptr<FeatureExtractor> own;
    if (!features)
      features = createKnobFeatureExtractor(space);
    llvm::Expected<std::vector<double>> scores =
        pretrained->predict(features->extractAll(candidates));
    if (!scores) {
      // Without a ranking the inner strategy starts as it would cold.
      if (options.inner.observer)
        options.inner.observer->onModelError(scores.takeError());
      else
        llvm::consumeError(scores.takeError());
      return;
    }
    std::vector<size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), 0);
    size_t keep = std::min(options.tuningSetSize, order.size());
    std::partial_sort(order.begin(), order.begin() + keep, order.end(),
                      [&](size_t a, size_t b) { return (*scores)[a] > (*scores)[b]; });
    for (size_t i = 0; i < keep; ++i)
      tuningSet.push_back(candidates[order[i]]);
    if (checked)
      return;
    // Probes: the top of the ranking, then random configurations ranked
    // below it, so that a model that transfers ranks the first above the
    // second.
    size_t top = std::min(options.proxyProbes / 2, tuningSet.size());
    std::set<Config> inTuningSet(tuningSet.begin(), tuningSet.end());
    for (size_t i = 0; i < top; ++i) {
      probes.push_back(candidates[order[i]]);
      probeScores.push_back((*scores)[order[i]]);
    }
    std::uniform_int_distribution<size_t> pick(0, candidates.size() - 1);
    for (size_t attempt = 0; attempt < 100 * options.proxyProbes &&
                             probes.size() < options.proxyProbes && candidates.size() > keep;
         ++attempt) {
      size_t i = pick(rng);
      if (inTuningSet.count(candidates[i]) ||
          std::find(probes.begin(), probes.end(), candidates[i]) != probes.end())
        continue;
      probes.push_back(candidates[i]);
      probeScores.push_back((*scores)[i]);
    }
  }

  std::vector<Config> propose(size_t count, const TuningHistory &history) override {
    std::vector<Config> out;
    if (!checked) {
      for (const Config &c : probes)
        if (out.size() < count && !history.contains(c))
          out.push_back(c);
      if (!out.empty())
        return out;
      checkProxy(history);
    }
    while (out.size() < count && next < tuningSet.size()) {
      const Config &c = tuningSet[next++];
      if (!history.contains(c))
        out.push_back(c);
    }
    if (!out.empty()) {
      if (options.inner.observer)
        options.inner.observer->onModelProposals(out.size());
      return out;
    }
    return inner->propose(count, history);
  }

  void update(const std::vector<Config> &configs,
              const std::vector<MeasureRecord> &records) override {
    inner->update(configs, records);
  }

private:
  /// Spearman of the pretrained scores with the probes' measured
  /// throughput (failures 0); below the threshold, go on cold.
  void checkProxy(const TuningHistory &history) {
    checked = true;
    std::map<Config, double> throughput;
    for (size_t i = 0; i < history.records.size(); ++i)
      throughput[history.configs[i]] =
          history.records[i].isOk() && history.records[i].timeMs > 0
              ? 1 / history.records[i].timeMs
              : 0;
    std::vector<double> predicted, measured;
    for (size_t i = 0; i < probes.size(); ++i)
      if (auto it = throughput.find(probes[i]); it != throughput.end()) {
        predicted.push_back(probeScores[i]);
        measured.push_back(it->second);
      }
    if (predicted.size() < 4)
      return;
    double rho = spearmanRankCorrelation(predicted, measured);
    TransferDecision decision;
    decision.rows = predicted.size();
    decision.usedTransfer = rho >= options.proxyMinSpearman;
    decision.reason = "proxy check on " + std::to_string(predicted.size()) +
                      " probes: Spearman " + llvm::formatv("{0:f3}", rho).str() +
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
    llvm::Expected<std::unique_ptr<SearchStrategy>> coldStrategy =
        createSearchStrategy(options.innerStrategy, cold);
    if (!coldStrategy) {
      if (options.inner.observer)
        options.inner.observer->onModelError(coldStrategy.takeError());
      else
        llvm::consumeError(coldStrategy.takeError());
      return;
    }
    inner = std::move(*coldStrategy);
    inner->initialize(*space, seed);
  }

  std::shared_ptr<const CostModel> pretrained;
  TransferSearchOptions options;
  std::unique_ptr<SearchStrategy> inner;
  std::shared_ptr<TransferLog> log;
  const SearchSpace *space = nullptr;
  uint64_t seed = 0;
  std::vector<Config> tuningSet, probes;
  std::vector<double> probeScores;
  size_t next = 0;
  bool checked = true;
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
