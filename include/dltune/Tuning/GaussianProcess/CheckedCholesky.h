//===- CheckedCholesky.h - Cholesky that reports the jitter it adds -*- C++
//-*-===//
//
// Kernel matrices are positive definite in exact arithmetic but often not
// in floating point (duplicate inputs, tiny noise). The factorisation is
// checked; on failure growing jitter is added to the diagonal, and every
// time that happens is counted in a report the model hands to its caller.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_GAUSSIANPROCESS_CHECKEDCHOLESKY_H
#define DLTUNE_TUNING_GAUSSIANPROCESS_CHECKEDCHOLESKY_H

#include "llvm/Support/Error.h"

#include <Eigen/Dense>

#include <string>

namespace mlir::dltune {

struct JitterReport {
  /// Factorisations that needed added jitter.
  size_t jitterEvents = 0;
  double largestJitter = 0;
  std::string lastMessage;
};

/// The lower Cholesky factor of `a`, adding jitter (1e-10 of the mean
/// diagonal, growing tenfold up to 1e-1 of it) when the plain factorisation
/// fails. Errors: non-finite entries, or no jitter in that range helped.
llvm::Expected<Eigen::MatrixXd> checkedCholesky(const Eigen::MatrixXd &a, JitterReport &report);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_GAUSSIANPROCESS_CHECKEDCHOLESKY_H
