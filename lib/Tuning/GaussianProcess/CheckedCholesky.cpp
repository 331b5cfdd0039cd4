//===- CheckedCholesky.cpp - Cholesky with counted jitter -----------------===//

#include "dltune/Tuning/GaussianProcess/CheckedCholesky.h"

#include "dltune/Tuning/Support/Error.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::dltune;

llvm::Expected<Eigen::MatrixXd> mlir::dltune::checkedCholesky(const Eigen::MatrixXd &a,
                                                              JitterReport &report) {
  // Eigen's LLT compares pivots with <= 0, which NaN passes.
  if (!a.allFinite())
    return makeError("Cholesky: the matrix has non-finite entries");
  Eigen::LLT<Eigen::MatrixXd> llt(a);
  if (llt.info() == Eigen::Success)
    return Eigen::MatrixXd(llt.matrixL());
  double scale = std::max(a.diagonal().cwiseAbs().mean(), 1e-300);
  for (double jitter = 1e-10 * scale; jitter <= 0.1 * scale * 1.0001; jitter *= 10) {
    Eigen::MatrixXd b = a;
    b.diagonal().array() += jitter;
    llt.compute(b);
    if (llt.info() == Eigen::Success) {
      ++report.jitterEvents;
      report.largestJitter = std::max(report.largestJitter, jitter);
      report.lastMessage =
          llvm::formatv("Cholesky of a {0}x{0} matrix needed jitter {1:e2}", a.rows(), jitter)
              .str();
      return Eigen::MatrixXd(llt.matrixL());
    }
  }
  return makeError(llvm::formatv("Cholesky of a {0}x{0} matrix failed even with jitter {1:e2}",
                                 a.rows(), 0.1 * scale)
                       .str());
}
