//===- TransferSearch.cpp - Tuning set from a pretrained model, then search ===//

#include "dltune/Tuning/TransferSearch.h"

#include "dltune/Tuning/CostModel.h"
#include "dltune/Tuning/Error.h"

#include <algorithm>
#include <numeric>

using namespace mlir::dltune;

namespace {
class TransferSearch : public SearchStrategy {
public:
  TransferSearch(std::shared_ptr<const CostModel> pretrained, TransferSearchOptions options,
                 std::unique_ptr<SearchStrategy> inner)
      : pretrained(std::move(pretrained)), options(std::move(options)), inner(std::move(inner)) {}

  llvm::StringRef getName() const override { return inner->getName(); }

  void initialize(const SearchSpace &space, uint64_t seed) override {
    inner->initialize(space, seed);
    tuningSet.clear();
    next = 0;
    // The distinct configurations a bounded number of draws reaches (all of
    // them on a small recorded space).
    std::mt19937_64 rng(seed ^ 0x7a11u);
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
  }

  std::vector<Config> propose(size_t count, const TuningHistory &history) override {
    std::vector<Config> out;
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
  std::shared_ptr<const CostModel> pretrained;
  TransferSearchOptions options;
  std::unique_ptr<SearchStrategy> inner;
  std::vector<Config> tuningSet;
  size_t next = 0;
};
} // namespace

llvm::Expected<std::unique_ptr<SearchStrategy>>
mlir::dltune::createTransferSearch(std::shared_ptr<const CostModel> pretrained,
                                   TransferSearchOptions options,
                                   std::shared_ptr<TransferLog> log) {
  if (!pretrained || !pretrained->isTrained())
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
                                       std::move(*inner)));
}
