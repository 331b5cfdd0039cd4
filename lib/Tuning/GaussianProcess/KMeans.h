//===- KMeans.h - k-means centres for inducing inputs -----------*- C++ -*-===//
#ifndef DLTUNE_LIB_TUNING_KMEANS_H
#define DLTUNE_LIB_TUNING_KMEANS_H

#include <Eigen/Dense>

#include <random>

namespace mlir::dltune {

/// k centres of the rows of x: k-means++ seeding, then Lloyd iterations.
/// With k >= rows the rows themselves are returned.
Eigen::MatrixXd kMeansCentres(const Eigen::MatrixXd &x, int k, std::mt19937_64 &rng,
                              int iterations = 25);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TUNING_KMEANS_H
