//===- SeededSearch.cpp - Measure known-good configs first ----------------===//

#include "dltune/Tuning/SearchStrategy/SeededSearch.h"

#include <algorithm>

using namespace mlir::dltune;

std::vector<Config> SeededSearch::propose(size_t count, const TuningHistory &history) {
  std::vector<Config> batch;
  while (!seeds.empty() && batch.size() < count) {
    Config seed = std::move(seeds.front());
    seeds.erase(seeds.begin());
    if (!history.measured.count(seed) &&
        std::find(batch.begin(), batch.end(), seed) == batch.end())
      batch.push_back(std::move(seed));
  }
  if (batch.size() == count)
    return batch;
  if (batch.empty())
    return inner->propose(count, history);
  // The wrapped strategy must not propose a seed again: it sees the seeds
  // as measured.
  TuningHistory withSeeds = history;
  for (const Config &c : batch)
    withSeeds.measured.insert(c);
  for (Config &c : inner->propose(count - batch.size(), withSeeds))
    batch.push_back(std::move(c));
  return batch;
}
