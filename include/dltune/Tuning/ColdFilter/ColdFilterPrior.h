//===- ColdFilterPrior.h - Candidates measured elsewhere, for the filter -*- C++ -*-===//
//
// Trimmer pretrains its latency network on records of many operators and
// devices. dltune's history for that is what transfer uses: recorded
// spaces of the same kernel on other devices (Kernel Tuner caches) and a
// database's records of the same op on other devices or with other shapes
// (DatabaseHistory.h). Each source runs at its own speed, so a row carries
// its time over its own source's best; knobs are matched to the target by
// name, and rows whose values the target's space lacks are skipped by the
// filter.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_COLDFILTER_COLDFILTERPRIOR_H
#define DLTUNE_TUNING_COLDFILTER_COLDFILTERPRIOR_H

#include "dltune/Tuning/Replay/KernelTunerCache.h"

#include "llvm/ADT/ArrayRef.h"

#include <cmath>
#include <string>
#include <vector>

namespace mlir::dltune {

/// A candidate measured elsewhere, in the target's knob order: its time
/// over the best of its own source (NaN: it failed there).
struct ColdFilterPrior {
  Config config;
  double slowdown = NAN;
};

/// Every entry of every source with an ok entry, failures included, knobs
/// matched to `targetKnobs` by name (a source lacking a target knob is an
/// error naming it from `names`; source knobs the target lacks are dropped,
/// with a line in `notes`).
llvm::Expected<std::vector<ColdFilterPrior>>
buildColdFilterPrior(llvm::ArrayRef<KernelTunerCache> sources,
                     llvm::ArrayRef<std::string> names, llvm::ArrayRef<Knob> targetKnobs,
                     std::vector<std::string> &notes);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COLDFILTER_COLDFILTERPRIOR_H
