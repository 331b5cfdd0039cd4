//===- EnsembleSampler.h - Affine-invariant ensemble MCMC -------*- C++ -*-===//
//
// Goodman & Weare's affine-invariant ensemble sampler with the stretch move
// (Commun. Appl. Math. Comput. Sci. 5(1), 2010), updated in two halves as
// emcee does (Foreman-Mackey et al., PASP 2013): each walker of one half
// moves along the line to a random walker of the other half,
//   Y = X_j + z (X_k - X_j), z ~ g(z) ∝ 1/sqrt(z) on [1/a, a],
// and is accepted with probability min(1, z^(d-1) p(Y) / p(X_k)).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_TASKSCHEDULER_ENSEMBLESAMPLER_H
#define DLTUNE_TUNING_TASKSCHEDULER_ENSEMBLESAMPLER_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace mlir::dltune {

struct EnsembleOptions {
  int steps = 500;
  double stretch = 2.0; // emcee's a
  uint64_t seed = 0;
};

struct EnsembleChain {
  size_t walkers = 0, dims = 0;
  /// positions[(step * walkers + walker) * dims + d], after each step.
  std::vector<double> positions;
  /// Accepted moves / proposed moves over the whole run.
  double acceptanceFraction = 0;

  const double *at(size_t step, size_t walker) const {
    return &positions[(step * walkers + walker) * dims];
  }
  size_t steps() const { return walkers ? positions.size() / (walkers * dims) : 0; }
};

/// Log of an unnormalised density; -infinity outside its support.
using LogDensity = std::function<double(llvm::ArrayRef<double>)>;

/// Runs the ensemble from `start` (one position per walker, an even number
/// of at least 4, all with finite density).
EnsembleChain runEnsembleSampler(const LogDensity &logDensity,
                                 const std::vector<std::vector<double>> &start,
                                 const EnsembleOptions &options);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_TASKSCHEDULER_ENSEMBLESAMPLER_H
