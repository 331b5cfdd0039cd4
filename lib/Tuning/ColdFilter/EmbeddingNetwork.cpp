//===- EmbeddingNetwork.cpp - Trimmer's latency network -------------------===//

#include "dltune/Tuning/ColdFilter/EmbeddingNetwork.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <random>

using namespace mlir::dltune;

EmbeddingNetwork::EmbeddingNetwork(std::vector<int> cards, EmbeddingNetworkOptions opts)
    : cardinalities(std::move(cards)), options(opts) {
  size_t d = static_cast<size_t>(options.embeddingDims);
  size_t h = static_cast<size_t>(options.hiddenUnits);
  size_t n = 0;
  for (int c : cardinalities) {
    assert(c >= 1 && "every column has a value");
    tableOffset.push_back(n);
    n += static_cast<size_t>(c) * d;
  }
  inputSize = cardinalities.size() * d;
  w1 = n;
  b1 = w1 + h * inputSize;
  w2 = b1 + h;
  b2 = w2 + h * h;
  w3 = b2 + h;
  b3 = w3 + h;
  theta = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(b3 + 1));
  // Embeddings N(0, 1) as in PyTorch; layers He-uniform for ReLU.
  std::mt19937_64 rng(options.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (size_t i = 0; i < w1; ++i)
    theta[i] = normal(rng);
  auto init = [&](size_t at, size_t rows, size_t fanIn) {
    std::uniform_real_distribution<double> u(-std::sqrt(6.0 / double(fanIn)),
                                             std::sqrt(6.0 / double(fanIn)));
    for (size_t i = 0; i < rows * fanIn; ++i)
      theta[at + i] = u(rng);
  };
  init(w1, h, std::max<size_t>(1, inputSize));
  init(w2, h, h);
  init(w3, 1, h);
}

EmbeddingNetwork::Pass EmbeddingNetwork::forward(const Eigen::VectorXd &t,
                                                 const CategoricalRow &row) const {
  using Eigen::Map;
  using Eigen::MatrixXd;
  using Eigen::VectorXd;
  Eigen::Index d = options.embeddingDims, h = options.hiddenUnits;
  Eigen::Index in = static_cast<Eigen::Index>(inputSize);
  Pass p;
  p.input.resize(in);
  for (size_t c = 0; c < cardinalities.size(); ++c) {
    assert(row[c] >= 0 && row[c] < cardinalities[c] && "index within the column");
    p.input.segment(Eigen::Index(c) * d, d) =
        t.segment(Eigen::Index(tableOffset[c]) + Eigen::Index(row[c]) * d, d);
  }
  Map<const MatrixXd> W1(t.data() + w1, h, in), W2(t.data() + w2, h, h), W3(t.data() + w3, 1, h);
  p.z1 = W1 * p.input + t.segment(Eigen::Index(b1), h);
  p.a1 = p.z1.cwiseMax(0.0);
  p.z2 = W2 * p.a1 + t.segment(Eigen::Index(b2), h);
  p.a2 = p.z2.cwiseMax(0.0);
  p.output = (W3 * p.a2)(0) + t[Eigen::Index(b3)];
  return p;
}

double EmbeddingNetwork::lossAndGradient(const Eigen::VectorXd &t,
                                         const std::vector<CategoricalRow> &rows,
                                         const std::vector<double> &targets,
                                         Eigen::VectorXd *grad) const {
  using Eigen::Map;
  using Eigen::MatrixXd;
  Eigen::Index d = options.embeddingDims, h = options.hiddenUnits;
  Eigen::Index in = static_cast<Eigen::Index>(inputSize);
  if (grad)
    *grad = Eigen::VectorXd::Zero(t.size());
  if (rows.empty())
    return 0;
  Map<const MatrixXd> W1(t.data() + w1, h, in), W2(t.data() + w2, h, h), W3(t.data() + w3, 1, h);
  double loss = 0, scale = 1.0 / double(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    Pass p = forward(t, rows[r]);
    double err = p.output - targets[r];
    loss += err * err * scale;
    if (!grad)
      continue;
    double dy = 2 * err * scale;
    Map<MatrixXd> gW1(grad->data() + w1, h, in), gW2(grad->data() + w2, h, h),
        gW3(grad->data() + w3, 1, h);
    gW3 += dy * p.a2.transpose();
    (*grad)[Eigen::Index(b3)] += dy;
    Eigen::VectorXd dz2 = (W3.transpose() * dy).cwiseProduct(
        (p.z2.array() > 0).cast<double>().matrix());
    gW2 += dz2 * p.a1.transpose();
    grad->segment(Eigen::Index(b2), h) += dz2;
    Eigen::VectorXd dz1 =
        (W2.transpose() * dz2).cwiseProduct((p.z1.array() > 0).cast<double>().matrix());
    gW1 += dz1 * p.input.transpose();
    grad->segment(Eigen::Index(b1), h) += dz1;
    Eigen::VectorXd dInput = W1.transpose() * dz1;
    for (size_t c = 0; c < cardinalities.size(); ++c)
      grad->segment(Eigen::Index(tableOffset[c]) + Eigen::Index(rows[r][c]) * d, d) +=
          dInput.segment(Eigen::Index(c) * d, d);
  }
  return loss;
}

double EmbeddingNetwork::getLoss(const Eigen::VectorXd &t, const std::vector<CategoricalRow> &rows,
                                 const std::vector<double> &standardised) const {
  return lossAndGradient(t, rows, standardised, nullptr);
}

Eigen::VectorXd EmbeddingNetwork::getGradient(const Eigen::VectorXd &t,
                                              const std::vector<CategoricalRow> &rows,
                                              const std::vector<double> &standardised) const {
  Eigen::VectorXd g;
  lossAndGradient(t, rows, standardised, &g);
  return g;
}

void EmbeddingNetwork::train(const std::vector<CategoricalRow> &rows,
                             const std::vector<double> &targets) {
  assert(rows.size() == targets.size() && "one target per row");
  if (rows.empty())
    return;
  double n = double(targets.size());
  targetMean = std::accumulate(targets.begin(), targets.end(), 0.0) / n;
  double var = 0;
  for (double y : targets)
    var += (y - targetMean) * (y - targetMean) / n;
  targetScale = var > 1e-24 ? std::sqrt(var) : 1.0;
  std::vector<double> standardised;
  for (double y : targets)
    standardised.push_back((y - targetMean) / targetScale);

  size_t batch = std::max<size_t>(1, std::min(options.batchSize, rows.size()));
  size_t perEpoch = (rows.size() + batch - 1) / batch;
  size_t steps = std::max<size_t>(size_t(options.epochs) * perEpoch, size_t(options.minSteps));
  // Adam with the paper's learning rate and PyTorch's defaults otherwise.
  const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  Eigen::VectorXd m = Eigen::VectorXd::Zero(theta.size()), v = m;
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(options.seed + 1);
  std::vector<CategoricalRow> batchRows;
  std::vector<double> batchTargets;
  for (size_t step = 0; step < steps; ++step) {
    size_t at = (step % perEpoch) * batch;
    if (at == 0 && batch < rows.size())
      std::shuffle(order.begin(), order.end(), rng);
    batchRows.clear();
    batchTargets.clear();
    for (size_t i = at; i < std::min(at + batch, rows.size()); ++i) {
      batchRows.push_back(rows[order[i]]);
      batchTargets.push_back(standardised[order[i]]);
    }
    Eigen::VectorXd g;
    lossAndGradient(theta, batchRows, batchTargets, &g);
    m = beta1 * m + (1 - beta1) * g;
    v = beta2 * v + (1 - beta2) * g.cwiseProduct(g);
    double c1 = 1 - std::pow(beta1, double(step + 1)), c2 = 1 - std::pow(beta2, double(step + 1));
    theta.array() -= options.learningRate * (m.array() / c1) /
                     ((v.array() / c2).sqrt() + eps);
  }
  trained = true;
}

double EmbeddingNetwork::predict(const CategoricalRow &row) const {
  return forward(theta, row).output * targetScale + targetMean;
}

Eigen::VectorXd EmbeddingNetwork::embed(const CategoricalRow &row) const {
  return forward(theta, row).a2;
}
