//===- KMeans.cpp - k-means++ and Lloyd iterations ------------------------===//
//
// DSVI initialises inducing inputs at k-means centres of the inputs; they
// are only a starting point (the ELBO moves them), so a fixed number of
// Lloyd iterations is enough.
//
//===----------------------------------------------------------------------===//

#include "GaussianProcess/KMeans.h"

using Eigen::MatrixXd;
using Eigen::VectorXd;

/// Squared distances of every row of x to every centre (rows x k).
static MatrixXd distancesToCentres(const MatrixXd &x, const MatrixXd &centres) {
  MatrixXd d = -2.0 * x * centres.transpose();
  d.colwise() += x.rowwise().squaredNorm();
  d.rowwise() += centres.rowwise().squaredNorm().transpose();
  return d.cwiseMax(0.0);
}

MatrixXd mlir::dltune::kMeansCentres(const MatrixXd &x, int k, std::mt19937_64 &rng,
                                     int iterations) {
  Eigen::Index n = x.rows();
  if (k >= n)
    return x;
  MatrixXd centres(k, x.cols());
  std::uniform_int_distribution<Eigen::Index> pickRow(0, n - 1);
  centres.row(0) = x.row(pickRow(rng));
  VectorXd closest = (x.rowwise() - centres.row(0)).rowwise().squaredNorm();
  for (int c = 1; c < k; ++c) {
    // k-means++: a row with probability proportional to its squared
    // distance; uniform once every row coincides with a centre.
    double total = closest.sum();
    Eigen::Index chosen = pickRow(rng);
    if (total > 0) {
      double u = std::uniform_real_distribution<double>(0, total)(rng), acc = 0;
      for (Eigen::Index i = 0; i < n; ++i) {
        acc += closest[i];
        if (acc >= u) {
          chosen = i;
          break;
        }
      }
    }
    centres.row(c) = x.row(chosen);
    closest = closest.cwiseMin((x.rowwise() - centres.row(c)).rowwise().squaredNorm());
  }
  std::vector<int> assignment(n, -1);
  for (int it = 0; it < iterations; ++it) {
    MatrixXd d = distancesToCentres(x, centres);
    bool changed = false;
    for (Eigen::Index i = 0; i < n; ++i) {
      Eigen::Index best;
      d.row(i).minCoeff(&best);
      changed |= assignment[i] != static_cast<int>(best);
      assignment[i] = static_cast<int>(best);
    }
    if (!changed)
      break;
    MatrixXd sums = MatrixXd::Zero(k, x.cols());
    VectorXd counts = VectorXd::Zero(k);
    for (Eigen::Index i = 0; i < n; ++i) {
      sums.row(assignment[i]) += x.row(i);
      counts[assignment[i]] += 1;
    }
    // An empty cluster keeps its centre.
    for (int c = 0; c < k; ++c)
      if (counts[c] > 0)
        centres.row(c) = sums.row(c) / counts[c];
  }
  return centres;
}
