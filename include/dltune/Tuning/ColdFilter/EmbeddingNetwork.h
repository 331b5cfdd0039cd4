//===- EmbeddingNetwork.h - Trimmer's latency network -------------*- C++ -*-===//
//
// Trimmer's filter (Table V of the paper) embeds each categorical input (a
// knob's value index, here) in 10 dimensions, concatenates the embeddings
// and runs them through 32 ReLU units ("input"), 32 more ("middle") and one
// linear output, trained with Adam on the mean squared error of log
// latency. The middle layer's output is the candidate's vector for the
// similarity query. Written with Eigen: the network is tiny, trains in
// milliseconds on a task's records, and no Debian package offers embedding
// layers without a deep-learning framework the project does not want as a
// dependency (libtorch is far larger than the rest of dltune); the
// gradients are checked by finite differences in the tests.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_COLDFILTER_EMBEDDINGNETWORK_H
#define DLTUNE_TUNING_COLDFILTER_EMBEDDINGNETWORK_H

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace mlir::dltune {

struct EmbeddingNetworkOptions {
  int embeddingDims = 10; // the paper's k
  int hiddenUnits = 32;   // "input" and "middle" widths
  double learningRate = 1e-3;
  /// The paper: 10 epochs of batches of 1024 over 20,000 rows (~200
  /// steps). A task's own records are far fewer, so at least `minSteps`
  /// steps are taken.
  int epochs = 10;
  int minSteps = 300;
  size_t batchSize = 1024;
  uint64_t seed = 0;
};

/// One row: a value index per categorical input column.
using CategoricalRow = std::vector<int>;

class EmbeddingNetwork {
public:
  /// `cardinalities[i]` values for input column i (each at least 1).
  EmbeddingNetwork(std::vector<int> cardinalities, EmbeddingNetworkOptions options = {});

  /// Trains from the current parameters on `rows` and `targets` (log
  /// latency; standardised inside). Rows must index within the
  /// cardinalities.
  void train(const std::vector<CategoricalRow> &rows, const std::vector<double> &targets);
  bool isTrained() const { return trained; }
  /// The prediction in the targets' units.
  double predict(const CategoricalRow &row) const;
  /// The middle layer's output (hiddenUnits values).
  Eigen::VectorXd embed(const CategoricalRow &row) const;

  /// Mean squared error on standardised targets at parameters `theta`, and
  /// its gradient (for tests and the optimiser).
  double getLoss(const Eigen::VectorXd &theta, const std::vector<CategoricalRow> &rows,
                 const std::vector<double> &standardised) const;
  Eigen::VectorXd getGradient(const Eigen::VectorXd &theta,
                              const std::vector<CategoricalRow> &rows,
                              const std::vector<double> &standardised) const;
  Eigen::VectorXd &getParameters() { return theta; }

private:
  struct Pass {
    Eigen::VectorXd input, z1, a1, z2, a2;
    double output = 0;
  };
  Pass forward(const Eigen::VectorXd &theta, const CategoricalRow &row) const;
  double lossAndGradient(const Eigen::VectorXd &theta, const std::vector<CategoricalRow> &rows,
                         const std::vector<double> &standardised, Eigen::VectorXd *grad) const;

  std::vector<int> cardinalities;
  EmbeddingNetworkOptions options;
  // Parameter layout in theta: embedding tables (one per column, rows of
  // embeddingDims), W1, b1, W2, b2, W3, b3; matrices column-major.
  std::vector<size_t> tableOffset;
  size_t w1, b1, w2, b2, w3, b3, inputSize;
  Eigen::VectorXd theta;
  double targetMean = 0, targetScale = 1;
  bool trained = false;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COLDFILTER_EMBEDDINGNETWORK_H
