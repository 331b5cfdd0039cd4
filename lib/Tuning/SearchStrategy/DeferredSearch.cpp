//===- DeferredSearch.cpp - A strategy built when it is first asked -------===//

#include "dltune/Tuning/SearchStrategy/DeferredSearch.h"

using namespace mlir::dltune;

void DeferredSearch::initialize(const SearchSpace &s, uint64_t sd) {
  space = &s;
  seed = sd;
  built = nullptr;
  owned.reset();
  builds = 0;
  rowsAtRefresh = 0;
  earlyConfigs.clear();
  earlyRecords.clear();
}

bool DeferredSearch::rebuild(const TuningHistory *history) {
  llvm::Expected<std::unique_ptr<SearchStrategy>> made = build();
  if (!made) {
    onError(made.takeError());
    return false;
  }
  if (!*made)
    return false;
  owned = std::move(*made);
  built = owned.get();
  ++builds;
  built->initialize(*space, seed);
  // What the strategy it replaces was told, so that both start alike.
  if (history && !history->configs.empty())
    built->update(history->configs, history->records);
  return true;
}

std::vector<Config> DeferredSearch::propose(size_t count, const TuningHistory &history) {
  if (!built) {
    assert(space && "initialize before propose");
    rowsAtRefresh = history.records.size();
    if (!rebuild(nullptr)) {
      built = fallback.get();
      built->initialize(*space, seed);
    }
    if (!earlyConfigs.empty())
      built->update(earlyConfigs, earlyRecords);
    earlyConfigs.clear();
    earlyRecords.clear();
  } else if (refresh && history.records.size() != rowsAtRefresh) {
    // Not again for the same records (a cold filter's refills ask several
    // times per batch), since each asking may read a database.
    rowsAtRefresh = history.records.size();
    if (refresh(history))
      rebuild(&history);
  }
  return built->propose(count, history);
}

void DeferredSearch::update(const std::vector<Config> &configs,
                            const std::vector<MeasureRecord> &records) {
  if (built) {
    built->update(configs, records);
    return;
  }
  earlyConfigs.insert(earlyConfigs.end(), configs.begin(), configs.end());
  earlyRecords.insert(earlyRecords.end(), records.begin(), records.end());
}
