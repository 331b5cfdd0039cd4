//===- ColdCandidateFilter.h - Trimmer's cold-candidate filter --*- C++ -*-===//
//
// Algorithm 1 of Trimmer (docs/trimmer.md): before candidates are built and
// measured, each proposal is, with probability epsilon, looked up among the
// task's measured candidates: its top-k cosine neighbours in the middle
// layer of a latency network (EmbeddingNetwork) trained on those
// measurements. When all k neighbours were cold (ColdLabels) or failed,
// the proposal is dropped and the wrapped strategy is asked for another.
// Epsilon decays after each retraining ("inverse epsilon-greedy": filter
// often early, explore more once the search has settled). Dropped
// candidates are never proposed again.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_SEARCHSTRATEGY_COLDCANDIDATEFILTER_H
#define DLTUNE_TUNING_SEARCHSTRATEGY_COLDCANDIDATEFILTER_H

#include "dltune/Tuning/ColdFilter/ColdFilterPrior.h"
#include "dltune/Tuning/ColdFilter/EmbeddingNetwork.h"
#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <random>

namespace mlir::dltune {

enum class ColdRule {
  RunningBest, // slower than `coldFactor` times the best before it
  Trend,       // above the LOESS trend (the paper's)
};

struct ColdFilterOptions {
  ColdRule rule = ColdRule::Trend;
  double coldFactor = 2.0;
  double trendSpan = 0.3, trendMargin = 0.0;
  /// k: neighbours that must all be cold or failed. The paper's top-n is
  /// not given; 5 keeps one unlucky neighbour from deciding.
  size_t neighbours = 5;
  /// Filter probability after the first training, and its factor after
  /// each later one (the paper: "decreasing", no values given).
  double initialEpsilon = 1.0, epsilonDecay = 0.9;
  /// Measurements before the first training, and new ones between
  /// retrainings (AutoTVM refits its cost model every 64; a smaller step
  /// lets the filter act within short task budgets).
  size_t minRecords = 16, retrainEvery = 32;
  /// Rounds of asking the wrapped strategy for replacements per batch.
  int maxRefills = 8;
  EmbeddingNetworkOptions network;
  /// Candidates measured elsewhere (the paper pretrains its network on
  /// 20,000 records of many operators and devices). With any, the network
  /// is pretrained on their slowdowns when the search starts, they join the
  /// measured candidates as neighbours (cold when slower than `coldFactor`
  /// times their source's best, whatever the rule: the trend needs an
  /// order they lack), and the filter acts from the first proposal; each
  /// retraining uses them beside the task's own records. At most
  /// `maxPriorRows` of them, a random sample, are used.
  std::shared_ptr<const std::vector<ColdFilterPrior>> prior;
  size_t maxPriorRows = 4000;
  /// Asked before each proposal: a prior that replaces `prior` (the
  /// network then trains on it and the task's records, and its rows become
  /// the neighbours), or null to keep the one it has. A live run's history
  /// grows while it tunes: other tasks' later slots.
  using PriorRefresh = std::function<std::shared_ptr<const std::vector<ColdFilterPrior>>(
      const TuningHistory &)>;
  PriorRefresh refreshPrior;
};

/// What filters did: one instance may be shared by several filters (a
/// model's tasks) and only counts.
struct ColdFilterStats {
  size_t proposed = 0, dropped = 0, trainings = 0;
  double epsilon = 0;
};

/// Reads "off" (`rule` empty), "nn" (the network, cold by the running best)
/// or "trend" (the network, cold by the LOESS trend); false for anything
/// else.
bool parseColdFilter(llvm::StringRef name, std::optional<ColdRule> &rule);

/// `inner` wrapped in a filter with `rule` and `coldFactor` (the other
/// options default), or `inner` itself when `rule` is empty (off).
std::unique_ptr<SearchStrategy> applyColdFilter(std::unique_ptr<SearchStrategy> inner,
                                                std::optional<ColdRule> rule,
                                                double coldFactor,
                                                std::shared_ptr<ColdFilterStats> stats,
                                                std::shared_ptr<const std::vector<ColdFilterPrior>>
                                                    prior = nullptr,
                                                ColdFilterOptions::PriorRefresh refreshPrior =
                                                    nullptr);

class ColdCandidateFilter : public SearchStrategy {
public:
  ColdCandidateFilter(std::unique_ptr<SearchStrategy> inner, ColdFilterOptions options,
                      std::shared_ptr<ColdFilterStats> stats = nullptr);

  llvm::StringRef getName() const override { return inner->getName(); }
  void initialize(const SearchSpace &space, uint64_t seed) override;
  std::vector<Config> propose(size_t count, const TuningHistory &history) override;
  void update(const std::vector<Config> &configs,
              const std::vector<MeasureRecord> &records) override {
    inner->update(configs, records);
  }

private:
  /// The sample of options.prior inside this space, as rows.
  void loadPrior();
  /// Trains on the task's ok records (log time over their best) and the
  /// prior's ok rows (log slowdown), then re-embeds every neighbour.
  void train(const TuningHistory &history);
  void retrainIfDue(const TuningHistory &history);
  bool isLikelyCold(const Config &config);
  /// Value indices; nullopt for a config with a value outside its knob's list.
  std::optional<CategoricalRow> toRow(const Config &config) const;

  std::unique_ptr<SearchStrategy> inner;
  ColdFilterOptions options;
  std::shared_ptr<ColdFilterStats> stats;
  const SearchSpace *space = nullptr;
  std::mt19937_64 rng;
  std::optional<EmbeddingNetwork> network;
  size_t trainedAt = 0;
  /// Trained on the task's own records at least once (a network pretrained
  /// on the prior alone is not).
  bool ownTrained = false;
  /// Records when refreshPrior was last asked (SIZE_MAX: not yet).
  size_t rowsAtRefresh = SIZE_MAX;
  double epsilon = 0;
  /// Unit-length middle-layer vectors of the measured candidates, and
  /// whether each was cold or failed.
  std::vector<Eigen::VectorXd> known;
  std::vector<bool> knownBad;
  std::set<Config> dropped;
  std::vector<CategoricalRow> priorRows;
  std::vector<double> priorSlowdown;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SEARCHSTRATEGY_COLDCANDIDATEFILTER_H
