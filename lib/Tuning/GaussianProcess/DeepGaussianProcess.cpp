//===- DeepGaussianProcess.cpp - DSVI deep GP with analytic gradients -----===//
//
// One layer, for rows F (B x in), inducing inputs Z (M x in) and whitened
// q(u_d) = N(m_d, S_d S_d^T):
//   A = L^-1 K(Z, F) with L L^T = K(Z, Z) + jitter,
//   mean_d = A^T m_d + (F W)_d,
//   var_d = k(f, f) - |A|^2 + |S_d^T A|^2 (column norms).
// Samples f = mean + sqrt(var) eps go to the next layer; the last layer's
// mean and variance give the Gaussian likelihood's expectation in closed
// form. Gradients are propagated back by hand through every step (the
// Cholesky by Murray 2016's formula), so no N x N matrix is ever built.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/GaussianProcess/DeepGaussianProcess.h"

#include "Support/EigenJson.h"
#include "GaussianProcess/KMeans.h"
#include "dltune/Tuning/Support/Error.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <numeric>

using namespace mlir::dltune;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using json = nlohmann::json;

namespace {
/// What backward() needs from forward().
struct LayerCache {
  MatrixXd input, cholesky, choleskyInverse, kuf, a, mean, var;
  std::vector<MatrixXd> sTa; // S_d^T A per output
};

llvm::Expected<LayerCache> forwardLayer(const DeepGaussianProcess::Layer &layer,
                                        const MatrixXd &input, bool inner, double jitter,
                                        bool keepForBackward, JitterReport &report) {
  LayerCache c;
  MatrixXd kuu = layer.kernel.matrix(layer.inducing, layer.inducing);
  kuu.diagonal().array() += jitter;
  llvm::Expected<MatrixXd> l = checkedCholesky(kuu, report);
  if (!l)
    return l.takeError();
  c.cholesky = std::move(*l);
  // L^-1 once (M^3), so the M^2 B products below are plain GEMMs, which
  // Eigen runs about twice as fast as triangular solves.
  c.choleskyInverse = c.cholesky.triangularView<Eigen::Lower>().solve(
      MatrixXd::Identity(c.cholesky.rows(), c.cholesky.cols()));
  c.kuf = layer.kernel.matrix(layer.inducing, input);
  c.a.noalias() = c.choleskyInverse * c.kuf;
  c.mean = c.a.transpose() * layer.qMu;
  if (layer.meanWeights.size())
    c.mean += input * layer.meanWeights;
  // The white-noise jitter on inner layers keeps samples from collapsing.
  double kdiag = layer.kernel.variance() + (inner ? jitter : 0.0);
  Eigen::RowVectorXd aa = c.a.colwise().squaredNorm();
  c.var.resize(input.rows(), layer.outputDims());
  for (int d = 0; d < layer.outputDims(); ++d) {
    MatrixXd sTa = layer.qSqrt[d].triangularView<Eigen::Lower>().transpose() * c.a;
    c.var.col(d) = (kdiag - aa.array() + sTa.colwise().squaredNorm().array()).transpose();
    if (keepForBackward)
      c.sTa.push_back(std::move(sTa));
  }
  if (keepForBackward)
    c.input = input;
  return c;
}

/// Gradient of the objective w.r.t. K = L L^T from its gradient w.r.t. the
/// lower factor L: L^-T sym(Phi(L^T gL)) L^-1, Phi = lower part with the
/// diagonal halved (Murray 2016).
MatrixXd choleskyBackward(const MatrixXd &l, const MatrixXd &gL) {
  MatrixXd phi = (l.transpose() * gL).triangularView<Eigen::Lower>();
  phi.diagonal() *= 0.5;
  MatrixXd sym = 0.5 * (phi + phi.transpose());
  auto lt = l.triangularView<Eigen::Lower>().transpose();
  MatrixXd left = lt.solve(sym);                 // L^-T sym
  return lt.solve(left.transpose()).transpose(); // (L^-T (L^-T sym)^T)^T
}

void backwardLayer(const DeepGaussianProcess::Layer &layer, const LayerCache &c,
                   const MatrixXd &gMean, const MatrixXd &gVar, DeepGaussianProcess::Layer &grad,
                   MatrixXd *gInput) {
  grad.qMu += c.a * gMean;
  MatrixXd gA = layer.qMu * gMean.transpose();
  gA -= 2.0 * c.a * gVar.rowwise().sum().asDiagonal();
  for (int d = 0; d < layer.outputDims(); ++d) {
    MatrixXd gB = 2.0 * c.sTa[d] * gVar.col(d).asDiagonal();
    grad.qSqrt[d] += (c.a * gB.transpose()).triangularView<Eigen::Lower>().toDenseMatrix();
    gA += layer.qSqrt[d].triangularView<Eigen::Lower>() * gB;
  }
  // k(f, f) is the signal variance for stationary kernels.
  grad.kernel.logVariance += layer.kernel.variance() * gVar.sum();
  MatrixXd gKuf = c.choleskyInverse.transpose() * gA;
  MatrixXd gL = -(gKuf * c.a.transpose()).triangularView<Eigen::Lower>().toDenseMatrix();
  MatrixXd gKuu = choleskyBackward(c.cholesky, gL);
  layer.kernel.backward(layer.inducing, c.input, gKuf, &grad.inducing, gInput,
                        grad.kernel.logLengthscales, grad.kernel.logVariance);
  layer.kernel.backward(layer.inducing, layer.inducing, gKuu, &grad.inducing, &grad.inducing,
                        grad.kernel.logLengthscales, grad.kernel.logVariance);
  if (gInput && layer.meanWeights.size())
    *gInput += gMean * layer.meanWeights.transpose();
}

/// A sample of a layer's output, and the map of its gradient back to the
/// layer's mean and variance.
MatrixXd sampleOutput(const LayerCache &c, const MatrixXd &eps) {
  return c.mean + (c.var.array().cwiseMax(1e-12).sqrt() * eps.array()).matrix();
}
void sampleBackward(const LayerCache &c, const MatrixXd &eps, const MatrixXd &gSample,
                    MatrixXd &gMean, MatrixXd &gVar) {
  gMean += gSample;
  Eigen::ArrayXXd sd = c.var.array().cwiseMax(1e-12).sqrt();
  gVar += (gSample.array() * eps.array() / (2.0 * sd) * (c.var.array() > 1e-12).cast<double>())
              .matrix();
}

/// The last layer's moments for prediction only. With
/// alpha = L^-T m and Q = L^-T (S S^T - I) L^-1 (both M x M work, once),
/// mean = K_fu alpha and var = k - |A|^2 + |S^T A|^2 = k + diag(K_fu Q K_uf):
/// one GEMM per sample instead of a solve and a product.
struct LastLayerPredictor {
  MatrixXd q;
  VectorXd alpha;
  static llvm::Expected<LastLayerPredictor> create(const DeepGaussianProcess::Layer &layer,
                                                   double jitter, JitterReport &report) {
    MatrixXd kuu = layer.kernel.matrix(layer.inducing, layer.inducing);
    kuu.diagonal().array() += jitter;
    llvm::Expected<MatrixXd> l = checkedCholesky(kuu, report);
    if (!l)
      return l.takeError();
    MatrixXd inverse =
        l->triangularView<Eigen::Lower>().solve(MatrixXd::Identity(l->rows(), l->cols()));
    MatrixXd s = layer.qSqrt[0].triangularView<Eigen::Lower>();
    MatrixXd middle = s * s.transpose() - MatrixXd::Identity(s.rows(), s.cols());
    LastLayerPredictor p;
    p.q = inverse.transpose() * middle * inverse;
    p.alpha = inverse.transpose() * layer.qMu.col(0);
    return p;
  }
  void moments(const DeepGaussianProcess::Layer &layer, const MatrixXd &input, VectorXd &mean,
               VectorXd &var) const {
    MatrixXd kuf = layer.kernel.matrix(layer.inducing, input);
    mean = kuf.transpose() * alpha;
    MatrixXd qKuf = q * kuf;
    var = (layer.kernel.variance() + (kuf.array() * qKuf.array()).colwise().sum())
              .matrix()
              .transpose();
  }
};

DeepGaussianProcess::Layer zerosLike(const DeepGaussianProcess::Layer &layer) {
  DeepGaussianProcess::Layer g;
  g.kernel.kind = layer.kernel.kind;
  g.kernel.logLengthscales = VectorXd::Zero(layer.kernel.logLengthscales.size());
  g.kernel.logVariance = 0;
  g.inducing = MatrixXd::Zero(layer.inducing.rows(), layer.inducing.cols());
  g.qMu = MatrixXd::Zero(layer.qMu.rows(), layer.qMu.cols());
  for (const MatrixXd &s : layer.qSqrt)
    g.qSqrt.push_back(MatrixXd::Zero(s.rows(), s.cols()));
  return g;
}

/// The one place the flat layout is defined: `visit(name, count, at)` is
/// called per block, `at(i)` giving the i-th number of the block.
template <typename LayerVec, typename Noise, typename Visit>
void forEachBlock(LayerVec &layers, Noise &logNoise, Visit visit) {
  for (size_t l = 0; l < layers.size(); ++l) {
    auto &layer = layers[l];
    std::string prefix = "layer" + std::to_string(l) + ".";
    visit(
        prefix + "log_lengthscales", layer.kernel.logLengthscales.size(), [&](size_t i) -> auto & {
          return layer.kernel.logLengthscales[i];
        });
    visit(
        prefix + "log_variance", 1, [&](size_t) -> auto & { return layer.kernel.logVariance; });
    visit(
        prefix + "inducing_inputs",
        layer.inducing.size(), [&](size_t i) -> auto & { return layer.inducing.data()[i]; });
    visit(
        prefix + "q_mu", layer.qMu.size(), [&](size_t i) -> auto & { return layer.qMu.data()[i]; });
    // Only the lower triangle of each q_sqrt is free.
    Eigen::Index m = layer.qMu.rows();
    std::vector<std::pair<Eigen::Index, Eigen::Index>> lower;
    for (Eigen::Index col = 0; col < m; ++col)
      for (Eigen::Index row = col; row < m; ++row)
        lower.push_back({row, col});
    size_t tri = lower.size();
    visit(
        prefix + "q_sqrt", tri * layer.qSqrt.size(), [&](size_t i) -> auto & {
          const auto &[row, col] = lower[i % tri];
          return layer.qSqrt[i / tri](row, col);
        });
  }
  visit(
      std::string("likelihood.log_noise_variance"), 1, [&](size_t) -> auto & { return logNoise; });
}

/// The flat vector of a layer stack (parameters or gradients alike).
VectorXd pack(const std::vector<DeepGaussianProcess::Layer> &layers, double logNoise) {
  std::vector<double> out;
  forEachBlock(layers, logNoise, [&](const std::string &, size_t n, auto at) {
    for (size_t i = 0; i < n; ++i)
      out.push_back(at(i));
  });
  return Eigen::Map<VectorXd>(out.data(), out.size());
}
} // namespace

VectorXd DeepGaussianProcess::getParameters() const { return pack(layers, logNoiseVariance); }

void DeepGaussianProcess::setParameters(const VectorXd &parameters) {
  size_t next = 0;
  forEachBlock(layers, logNoiseVariance, [&](const std::string &, size_t n, auto at) {
    for (size_t i = 0; i < n; ++i)
      at(i) = parameters[next++];
  });
}

std::vector<ParameterBlock> DeepGaussianProcess::getParameterBlocks() const {
  std::vector<ParameterBlock> blocks;
  size_t offset = 0;
  forEachBlock(layers, logNoiseVariance, [&](const std::string &name, size_t n, auto) {
    blocks.push_back({name, offset, n});
    offset += n;
  });
  return blocks;
}

void DeepGaussianProcess::setPrior(const VectorXd &centre, double strength) {
  priorCentre = centre;
  priorStrength = strength;
}

ObjectiveDraws DeepGaussianProcess::drawNoise(size_t rows, int samples,
                                              std::mt19937_64 &rng) const {
  std::normal_distribution<double> normal;
  ObjectiveDraws draws;
  draws.eps.resize(std::max(samples, 1));
  for (auto &perSample : draws.eps)
    for (size_t l = 0; l + 1 < layers.size(); ++l)
      perSample.push_back(
          MatrixXd::NullaryExpr(rows, layers[l].outputDims(), [&]() { return normal(rng); }));
  return draws;
}

llvm::Expected<double> DeepGaussianProcess::objective(const MatrixXd &x, const VectorXd &y,
                                                      double dataSize, const ObjectiveDraws &draws,
                                                      VectorXd *gradient) const {
  if (layers.empty())
    return makeError("deep GP: not initialised");
  std::vector<Layer> grads;
  for (const Layer &layer : layers)
    grads.push_back(zerosLike(layer));
  double gLogNoise = 0, value = 0;
  size_t numLayers = layers.size(), rows = x.rows();
  bool withGradient = gradient != nullptr;
  if (rows > 0) {
    size_t samples = draws.eps.size();
    double noise = getNoiseVariance();
    double scale = dataSize / (static_cast<double>(rows) * samples);
    // E_q[log N(y | f, noise)] = -log(2 pi noise)/2 - ((y - mu)^2 + v) / (2
    // noise).
    auto likelihood = [&](const LayerCache &last, MatrixXd &gMean, MatrixXd &gVar) {
      VectorXd r = y - last.mean.col(0);
      Eigen::ArrayXd sq = r.array().square() + last.var.col(0).array();
      value += scale * (-0.5 * rows * std::log(2 * M_PI * noise) - 0.5 * sq.sum() / noise);
      gMean = scale * r / noise;
      gVar = MatrixXd::Constant(rows, 1, -0.5 * scale / noise);
      gLogNoise += scale * (-0.5 * rows + 0.5 * sq.sum() / noise);
    };
    llvm::Expected<LayerCache> first =
        forwardLayer(layers[0], x, numLayers > 1, options.jitter, withGradient, jitter);
    if (!first)
      return first.takeError();
    MatrixXd gMean0 = MatrixXd::Zero(rows, layers[0].outputDims()), gVar0 = gMean0;
    if (numLayers == 1) {
      likelihood(*first, gMean0, gVar0);
    } else {
      // The first layer's input is deterministic: its moments serve every
      // sample.
      for (size_t s = 0; s < samples; ++s) {
        std::vector<LayerCache> caches;
        MatrixXd f = sampleOutput(*first, draws.eps[s][0]);
        for (size_t l = 1; l < numLayers; ++l) {
          bool inner = l + 1 < numLayers;
          llvm::Expected<LayerCache> c =
              forwardLayer(layers[l], f, inner, options.jitter, withGradient, jitter);
          if (!c)
            return c.takeError();
          caches.push_back(std::move(*c));
          if (inner)
            f = sampleOutput(caches.back(), draws.eps[s][l]);
        }
        MatrixXd gMean, gVar;
        likelihood(caches.back(), gMean, gVar);
        if (!withGradient)
          continue;
        for (size_t l = numLayers - 1; l >= 1; --l) {
          MatrixXd gInput = MatrixXd::Zero(rows, layers[l].inputDims());
          backwardLayer(layers[l], caches[l - 1], gMean, gVar, grads[l], &gInput);
          const LayerCache &below = l == 1 ? *first : caches[l - 2];
          MatrixXd &targetMean = l == 1 ? gMean0 : gMean, &targetVar = l == 1 ? gVar0 : gVar;
          if (l > 1) {
            gMean = MatrixXd::Zero(rows, layers[l - 1].outputDims());
            gVar = gMean;
          }
          sampleBackward(below, draws.eps[s][l - 1], gInput, targetMean, targetVar);
        }
      }
    }
    if (withGradient)
      backwardLayer(layers[0], *first, gMean0, gVar0, grads[0], nullptr);
  }
  if (priorCentre.size() == 0) {
    // KL[q(u) || p(u)] with whitened u ~ N(0, I).
    for (size_t l = 0; l < numLayers; ++l) {
      const Layer &layer = layers[l];
      double m = layer.qMu.rows();
      value -= 0.5 * layer.qMu.squaredNorm();
      grads[l].qMu -= layer.qMu;
      for (size_t d = 0; d < layer.qSqrt.size(); ++d) {
        const MatrixXd &s = layer.qSqrt[d];
        MatrixXd lower = s.triangularView<Eigen::Lower>();
        value -= 0.5 * (lower.squaredNorm() - m) - s.diagonal().array().abs().log().sum();
        grads[l].qSqrt[d] -= lower;
        grads[l].qSqrt[d].diagonal() += s.diagonal().cwiseInverse();
      }
    }
  }
  VectorXd flat;
  if (withGradient || priorCentre.size())
    flat = pack(grads, gLogNoise);
  if (priorCentre.size()) {
    VectorXd delta = getParameters() - priorCentre;
    value -= 0.5 * priorStrength * delta.squaredNorm();
    flat -= priorStrength * delta;
  }
  if (withGradient)
    *gradient = std::move(flat);
  return value;
}

llvm::Error DeepGaussianProcess::initialize(const MatrixXd &x, const VectorXd &y) {
  if (x.rows() == 0 || x.rows() != y.size())
    return makeError("deep GP: " + llvm::Twine(x.rows()) + " rows, " + llvm::Twine(y.size()) +
                     " targets");
  if (options.layers < 1 || options.inducingPoints < 1)
    return makeError("deep GP: needs at least one layer and one inducing point");
  std::mt19937_64 rng(options.seed);
  int features = static_cast<int>(x.cols());
  int hidden = options.hiddenDims > 0 ? options.hiddenDims : std::min(features, 30);
  MatrixXd running = x;
  MatrixXd inducing = kMeansCentres(x, options.inducingPoints, rng);
  layers.clear();
  for (int l = 0; l < options.layers; ++l) {
    bool last = l + 1 == options.layers;
    int in = static_cast<int>(running.cols()), out = last ? 1 : hidden;
    Layer layer;
    layer.kernel.kind = options.kernel;
    // Lengthscales of sqrt(in) keep typical standardised rows correlated at
    // the start (unit lengthscales in 15 dimensions start near k = 0).
    layer.kernel.logLengthscales = VectorXd::Constant(in, 0.5 * std::log(in));
    layer.kernel.logVariance = 0;
    layer.inducing = inducing;
    layer.qMu = MatrixXd::Zero(inducing.rows(), out);
    double qScale = last ? 1.0 : options.innerQSqrtScale;
    layer.qSqrt.assign(out, qScale * MatrixXd::Identity(inducing.rows(), inducing.rows()));
    if (!last) {
      // DSVI's mean function: identity, the top principal directions
      // (right singular vectors), or identity padded with zeros.
      MatrixXd w = MatrixXd::Identity(in, out);
      if (in > out) {
        Eigen::SelfAdjointEigenSolver<MatrixXd> eig(running.transpose() * running);
        // Eigenvalues ascend: the last `out` vectors, largest first.
        for (int j = 0; j < out; ++j)
          w.col(j) = eig.eigenvectors().col(in - 1 - j);
      }
      layer.meanWeights = w;
      running = running * w;
      inducing = inducing * w;
    }
    layers.push_back(std::move(layer));
  }
  logNoiseVariance = std::log(options.initialNoiseVariance);
  return llvm::Error::success();
}

llvm::Error DeepGaussianProcess::train(const MatrixXd &x, const VectorXd &y) {
  if (layers.empty())
    return makeError("deep GP: train before initialize");
  if (x.rows() != y.size() || (x.rows() && x.cols() != layers[0].inputDims()))
    return makeError("deep GP train: " + llvm::Twine(x.rows()) + " rows of " +
                     llvm::Twine(x.cols()) + " features, " + llvm::Twine(y.size()) +
                     " targets; the model has " + llvm::Twine(layers[0].inputDims()) + " features");
  std::mt19937_64 rng(options.seed + 1);
  size_t n = x.rows(), batch = std::min<size_t>(n, std::max(options.minibatch, 1));
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  size_t cursor = n;
  VectorXd theta = getParameters();
  VectorXd m = VectorXd::Zero(theta.size()), v = m, gradient;
  const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  MatrixXd xb(batch, x.cols());
  VectorXd yb(batch);
  for (int it = 1; it <= options.iterations; ++it) {
    // Minibatches walk through reshuffled epochs.
    for (size_t i = 0; i < batch; ++i) {
      if (cursor == n) {
        std::shuffle(order.begin(), order.end(), rng);
        cursor = 0;
      }
      xb.row(i) = x.row(order[cursor]);
      yb[i] = y[order[cursor++]];
    }
    ObjectiveDraws draws = drawNoise(batch, options.trainSamples, rng);
    llvm::Expected<double> value = objective(xb, yb, static_cast<double>(n), draws, &gradient);
    if (!value)
      return value.takeError();
    if (!std::isfinite(*value) || !gradient.allFinite())
      return makeError("deep GP: the objective became non-finite at step " + llvm::Twine(it));
    // Adam, ascending the objective.
    m = beta1 * m + (1 - beta1) * gradient;
    v = beta2 * v + (1 - beta2) * gradient.cwiseAbs2();
    double c1 = 1 - std::pow(beta1, it), c2 = 1 - std::pow(beta2, it);
    theta.array() += options.learningRate * (m.array() / c1) / ((v.array() / c2).sqrt() + eps);
    setParameters(theta);
  }
  return llvm::Error::success();
}

llvm::Error DeepGaussianProcess::fit(const MatrixXd &x, const VectorXd &y) {
  if (llvm::Error e = initialize(x, y))
    return e;
  return train(x, y);
}

llvm::Error DeepGaussianProcess::predict(const MatrixXd &x, VectorXd &mean,
                                         VectorXd &variance) const {
  if (layers.empty())
    return makeError("deep GP predict: the model is not trained");
  if (x.cols() != layers[0].inputDims())
    return makeError("deep GP predict: " + llvm::Twine(x.cols()) +
                     " features per row, the model has " + llvm::Twine(layers[0].inputDims()));
  // Fixed draws: the same rows always get the same prediction.
  std::mt19937_64 rng(options.seed ^ 0x5eedULL);
  int samples = std::max(options.predictSamples, 1);
  const Layer &last = layers.back();
  llvm::Expected<LastLayerPredictor> lastLayer =
      LastLayerPredictor::create(last, options.jitter, jitter);
  if (!lastLayer)
    return lastLayer.takeError();
  mean.resize(x.rows());
  variance.resize(x.rows());
  const Eigen::Index chunk = 4096;
  VectorXd mu, var;
  for (Eigen::Index begin = 0; begin < x.rows(); begin += chunk) {
    Eigen::Index rows = std::min(chunk, x.rows() - begin);
    MatrixXd xc = x.middleRows(begin, rows);
    if (layers.size() == 1) {
      lastLayer->moments(last, xc, mu, var);
      mean.segment(begin, rows) = mu;
      variance.segment(begin, rows) = var.cwiseMax(0.0);
      continue;
    }
    llvm::Expected<LayerCache> first =
        forwardLayer(layers[0], xc, /*inner=*/true, options.jitter, false, jitter);
    if (!first)
      return first.takeError();
    ObjectiveDraws draws = drawNoise(rows, samples, rng);
    VectorXd sum = VectorXd::Zero(rows), sumSq = VectorXd::Zero(rows);
    for (int s = 0; s < samples; ++s) {
      MatrixXd f = sampleOutput(*first, draws.eps[s][0]);
      for (size_t l = 1; l + 1 < layers.size(); ++l) {
        llvm::Expected<LayerCache> c =
            forwardLayer(layers[l], f, /*inner=*/true, options.jitter, false, jitter);
        if (!c)
          return c.takeError();
        f = sampleOutput(*c, draws.eps[s][l]);
      }
      lastLayer->moments(last, f, mu, var);
      sum += mu;
      sumSq += mu.cwiseAbs2() + var.cwiseMax(0.0);
    }
    // Moments of the equally weighted Gaussian mixture.
    mu = sum / samples;
    mean.segment(begin, rows) = mu;
    variance.segment(begin, rows) = (sumSq / samples - mu.cwiseAbs2()).cwiseMax(0.0);
  }
  return llvm::Error::success();
}

json DeepGaussianProcess::toJson() const {
  json j;
  j["options"] = {{"layers", options.layers},
                  {"inducing_points", options.inducingPoints},
                  {"hidden_dims", options.hiddenDims},
                  {"train_samples", options.trainSamples},
                  {"predict_samples", options.predictSamples},
                  {"iterations", options.iterations},
                  {"minibatch", options.minibatch},
                  {"learning_rate", options.learningRate},
                  {"kernel", kernelKindName(options.kernel).str()},
                  {"seed", options.seed},
                  {"initial_noise_variance", options.initialNoiseVariance},
                  {"inner_q_sqrt_scale", options.innerQSqrtScale},
                  {"jitter", options.jitter}};
  json layerList = json::array();
  for (const Layer &layer : layers) {
    json qSqrt = json::array();
    for (const MatrixXd &s : layer.qSqrt)
      qSqrt.push_back(matrixToJson(s));
    layerList.push_back({{"log_lengthscales", vectorToJson(layer.kernel.logLengthscales)},
                         {"log_variance", layer.kernel.logVariance},
                         {"inducing", matrixToJson(layer.inducing)},
                         {"q_mu", matrixToJson(layer.qMu)},
                         {"q_sqrt", std::move(qSqrt)},
                         {"mean_weights", matrixToJson(layer.meanWeights)}});
  }
  j["layers"] = std::move(layerList);
  j["log_noise_variance"] = logNoiseVariance;
  return j;
}

llvm::Error DeepGaussianProcess::fromJson(const json &j) {
  auto corrupt = [](const llvm::Twine &what) {
    return makeError("deep GP model: bad or missing " + what);
  };
  if (!j.is_object() || !j.contains("options") || !j.contains("layers") || !j["layers"].is_array())
    return corrupt("options/layers");
  const json &o = j["options"];
  DeepGPOptions loaded;
  double num = 0;
  auto readInt = [&](const char *key, int &out) {
    if (!numberFromJson(o, key, num) || num < 0 || num > 1e9)
      return false;
    out = static_cast<int>(num);
    return true;
  };
  if (!readInt("layers", loaded.layers) || !readInt("inducing_points", loaded.inducingPoints) ||
      !readInt("hidden_dims", loaded.hiddenDims) ||
      !readInt("train_samples", loaded.trainSamples) ||
      !readInt("predict_samples", loaded.predictSamples) ||
      !readInt("iterations", loaded.iterations) || !readInt("minibatch", loaded.minibatch) ||
      !numberFromJson(o, "learning_rate", loaded.learningRate) ||
      !numberFromJson(o, "initial_noise_variance", loaded.initialNoiseVariance) ||
      !numberFromJson(o, "inner_q_sqrt_scale", loaded.innerQSqrtScale) ||
      !numberFromJson(o, "jitter", loaded.jitter) || !o.contains("seed") ||
      !o["seed"].is_number_unsigned() || !o.contains("kernel") || !o["kernel"].is_string())
    return corrupt("options");
  loaded.seed = o["seed"].get<uint64_t>();
  std::optional<KernelKind> kind = parseKernelKind(o["kernel"].get<std::string>());
  if (!kind)
    return corrupt("kernel");
  loaded.kernel = *kind;
  std::vector<Layer> loadedLayers;
  for (size_t l = 0; l < j["layers"].size(); ++l) {
    const json &lj = j["layers"][l];
    Layer layer;
    layer.kernel.kind = loaded.kernel;
    if (!lj.is_object() || !lj.contains("log_lengthscales") || !lj.contains("inducing") ||
        !lj.contains("q_mu") || !lj.contains("q_sqrt") || !lj.contains("mean_weights") ||
        !vectorFromJson(lj["log_lengthscales"], layer.kernel.logLengthscales) ||
        !numberFromJson(lj, "log_variance", layer.kernel.logVariance) ||
        !matrixFromJson(lj["inducing"], layer.inducing) || !matrixFromJson(lj["q_mu"], layer.qMu) ||
        !matrixFromJson(lj["mean_weights"], layer.meanWeights) || !lj["q_sqrt"].is_array())
      return corrupt("layer " + llvm::Twine(l));
    for (const json &s : lj["q_sqrt"]) {
      layer.qSqrt.emplace_back();
      if (!matrixFromJson(s, layer.qSqrt.back()))
        return corrupt("q_sqrt of layer " + llvm::Twine(l));
    }
    // Shapes must chain, or predict would read out of bounds.
    Eigen::Index m = layer.inducing.rows(), in = layer.inducing.cols();
    bool shapesOk =
        layer.kernel.logLengthscales.size() == in && layer.qMu.rows() == m &&
        static_cast<Eigen::Index>(layer.qSqrt.size()) == layer.qMu.cols() &&
        (layer.meanWeights.size() == 0 ||
         (layer.meanWeights.rows() == in && layer.meanWeights.cols() == layer.qMu.cols())) &&
        (loadedLayers.empty() || loadedLayers.back().outputDims() == in);
    for (const MatrixXd &s : layer.qSqrt)
      shapesOk &= s.rows() == m && s.cols() == m;
    if (!shapesOk || m == 0)
      return corrupt("shapes in layer " + llvm::Twine(l));
    loadedLayers.push_back(std::move(layer));
  }
  double noise = 0;
  if (loadedLayers.empty() || loadedLayers.back().outputDims() != 1 ||
      !numberFromJson(j, "log_noise_variance", noise))
    return corrupt("last layer or likelihood");
  options = loaded;
  layers = std::move(loadedLayers);
  logNoiseVariance = noise;
  clearPrior();
  return llvm::Error::success();
}
