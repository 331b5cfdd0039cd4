//===- ExactGaussianProcess.cpp - GP regression, marginal-likelihood fit --===//
//
// -log p(y) = y^T K^-1 y / 2 + log|K| / 2 + n log(2 pi) / 2 with
// K = k(X, X) + noise I; its gradient is -tr(W dK) / 2 with
// W = K^-1 y y^T K^-1 - K^-1, which the kernel's backward() maps to the
// hyper-parameters (all in log space, boxed to sane ranges for
// standardised data).
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/GaussianProcess/ExactGaussianProcess.h"

#include "Support/EigenJson.h"
#include "dltune/Tuning/Support/Error.h"

#include <nlohmann/json.hpp>
#include <nlopt.h>

#include <cmath>
#include <numeric>
#include <random>

using namespace mlir::dltune;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using json = nlohmann::json;

ArdKernel ExactGaussianProcess::kernelAt(const VectorXd &h) const {
  ArdKernel k;
  k.kind = options.kernel;
  Eigen::Index d = h.size() - 2;
  k.logLengthscales = h.head(d);
  k.logVariance = h[d];
  return k;
}

llvm::Expected<double>
ExactGaussianProcess::negativeLogMarginalLikelihood(const VectorXd &h, VectorXd *gradient) const {
  if (h.size() != trainX.cols() + 2)
    return makeError("exact GP: " + llvm::Twine(h.size()) + " hyper-parameters for " +
                     llvm::Twine(trainX.cols()) + " features");
  ArdKernel kernel = kernelAt(h);
  double noise = std::exp(h[h.size() - 1]);
  MatrixXd k = kernel.matrix(trainX, trainX);
  k.diagonal().array() += noise;
  llvm::Expected<MatrixXd> l = checkedCholesky(k, jitter);
  if (!l)
    return l.takeError();
  auto lower = l->triangularView<Eigen::Lower>();
  VectorXd a = lower.transpose().solve(lower.solve(trainY));
  double n = trainY.size();
  double value =
      0.5 * trainY.dot(a) + l->diagonal().array().log().sum() + 0.5 * n * std::log(2 * M_PI);
  if (gradient) {
    MatrixXd kInv = lower.transpose().solve(lower.solve(MatrixXd::Identity(k.rows(), k.cols())));
    MatrixXd w = a * a.transpose() - kInv;
    gradient->setZero(h.size());
    VectorXd gLengthscales = VectorXd::Zero(h.size() - 2);
    double gVariance = 0;
    kernel.backward(trainX, trainX, -0.5 * w, nullptr, nullptr, gLengthscales, gVariance);
    gradient->head(h.size() - 2) = gLengthscales;
    (*gradient)[h.size() - 2] = gVariance;
    (*gradient)[h.size() - 1] = -0.5 * w.trace() * noise;
  }
  return value;
}

llvm::Error ExactGaussianProcess::condition(const MatrixXd &x, const VectorXd &y,
                                            const VectorXd &hyperparameters) {
  if (x.rows() == 0 || x.rows() != y.size() || hyperparameters.size() != x.cols() + 2)
    return makeError("exact GP: " + llvm::Twine(x.rows()) + " rows, " + llvm::Twine(y.size()) +
                     " targets, " + llvm::Twine(hyperparameters.size()) + " hyper-parameters");
  MatrixXd k = kernelAt(hyperparameters).matrix(x, x);
  k.diagonal().array() += std::exp(hyperparameters[hyperparameters.size() - 1]);
  llvm::Expected<MatrixXd> l = checkedCholesky(k, jitter);
  if (!l)
    return l.takeError();
  trainX = x;
  trainY = y;
  hyper = hyperparameters;
  cholesky = std::move(*l);
  auto lower = cholesky.triangularView<Eigen::Lower>();
  alpha = lower.transpose().solve(lower.solve(trainY));
  return llvm::Error::success();
}

namespace {
struct NloptCall {
  const ExactGaussianProcess *gp;
  size_t *failures;
};

double nloptObjective(unsigned n, const double *x, double *grad, void *data) {
  auto *call = static_cast<NloptCall *>(data);
  VectorXd h = Eigen::Map<const VectorXd>(x, n), g;
  llvm::Expected<double> value = call->gp->negativeLogMarginalLikelihood(h, grad ? &g : nullptr);
  if (!value || !std::isfinite(*value)) {
    if (!value)
      llvm::consumeError(value.takeError()); // Counted and reported through failures.
    ++*call->failures;
    if (grad)
      std::fill(grad, grad + n, 0.0);
    return 1e300;
  }
  if (grad)
    Eigen::Map<VectorXd>(grad, n) = g;
  return *value;
}
} // namespace

llvm::Error ExactGaussianProcess::fit(const MatrixXd &x, const VectorXd &y) {
  if (x.rows() == 0 || x.rows() != y.size())
    return makeError("exact GP fit: " + llvm::Twine(x.rows()) + " rows, " + llvm::Twine(y.size()) +
                     " targets");
  std::mt19937_64 rng(options.seed);
  MatrixXd xs = x;
  VectorXd ys = y;
  if (static_cast<size_t>(x.rows()) > options.maxTrainPoints) {
    std::vector<Eigen::Index> rows(x.rows());
    std::iota(rows.begin(), rows.end(), 0);
    std::shuffle(rows.begin(), rows.end(), rng);
    rows.resize(options.maxTrainPoints);
    xs = x(rows, Eigen::all);
    ys = y(rows);
  }
  trainX = xs;
  trainY = ys;
  unsigned dims = static_cast<unsigned>(x.cols() + 2);
  std::vector<double> lower(dims, std::log(1e-2)), upper(dims, std::log(1e3));
  lower[dims - 2] = std::log(1e-3);
  upper[dims - 2] = std::log(1e2);
  lower[dims - 1] = std::log(options.minNoiseVariance);
  upper[dims - 1] = std::log(10.0);
  failedEvaluations = 0;
  NloptCall call{this, &failedEvaluations};
  VectorXd best;
  double bestValue = HUGE_VAL;
  std::uniform_real_distribution<double> unit(0, 1);
  for (int start = 0; start < std::max(options.restarts, 1); ++start) {
    std::vector<double> h(dims);
    for (unsigned i = 0; i + 2 < dims; ++i)
      h[i] = start == 0 ? 0.5 * std::log(static_cast<double>(x.cols()))
                        : std::log(0.1) + unit(rng) * std::log(100.0);
    h[dims - 2] = start == 0 ? 0.0 : std::log(0.3) + unit(rng) * std::log(10.0);
    h[dims - 1] = start == 0 ? std::log(0.1) : std::log(1e-4) + unit(rng) * std::log(3e3);
    for (unsigned i = 0; i < dims; ++i)
      h[i] = std::clamp(h[i], lower[i], upper[i]);
    nlopt_opt opt = nlopt_create(NLOPT_LD_LBFGS, dims);
    nlopt_set_lower_bounds(opt, lower.data());
    nlopt_set_upper_bounds(opt, upper.data());
    nlopt_set_min_objective(opt, nloptObjective, &call);
    nlopt_set_maxeval(opt, options.maxEvaluations);
    nlopt_set_ftol_rel(opt, 1e-9);
    double value = HUGE_VAL;
    // Failure codes (e.g. round-off limited) still leave the best point
    // found in h; it competes like any other start.
    nlopt_optimize(opt, h.data(), &value);
    nlopt_destroy(opt);
    if (value < bestValue) {
      bestValue = value;
      best = Eigen::Map<VectorXd>(h.data(), dims);
    }
  }
  if (!std::isfinite(bestValue) || bestValue >= 1e300)
    return makeError("exact GP fit: no start gave a finite marginal likelihood (" +
                     llvm::Twine(failedEvaluations) + " failed evaluations)");
  return condition(xs, ys, best);
}

llvm::Error ExactGaussianProcess::predict(const MatrixXd &x, VectorXd &mean,
                                          VectorXd &variance) const {
  if (alpha.size() == 0)
    return makeError("exact GP predict: the model is not trained");
  if (x.cols() != trainX.cols())
    return makeError("exact GP predict: " + llvm::Twine(x.cols()) +
                     " features per row, the model has " + llvm::Twine(trainX.cols()));
  ArdKernel kernel = kernelAt(hyper);
  mean.resize(x.rows());
  variance.resize(x.rows());
  const Eigen::Index chunk = 2048;
  for (Eigen::Index begin = 0; begin < x.rows(); begin += chunk) {
    Eigen::Index rows = std::min(chunk, x.rows() - begin);
    MatrixXd ks = kernel.matrix(trainX, x.middleRows(begin, rows));
    mean.segment(begin, rows) = ks.transpose() * alpha;
    MatrixXd v = cholesky.triangularView<Eigen::Lower>().solve(ks);
    variance.segment(begin, rows) =
        (kernel.variance() - v.colwise().squaredNorm().array()).cwiseMax(0.0).matrix().transpose();
  }
  return llvm::Error::success();
}

json ExactGaussianProcess::toJson() const {
  return {{"kernel", kernelKindName(options.kernel).str()},
          {"hyperparameters", vectorToJson(hyper)},
          {"x", matrixToJson(trainX)},
          {"y", vectorToJson(trainY)}};
}

llvm::Error ExactGaussianProcess::fromJson(const json &j) {
  MatrixXd x;
  VectorXd y, h;
  if (!j.is_object() || !j.contains("kernel") || !j["kernel"].is_string() ||
      !j.contains("hyperparameters") || !j.contains("x") || !j.contains("y") ||
      !vectorFromJson(j["hyperparameters"], h) || !matrixFromJson(j["x"], x) ||
      !vectorFromJson(j["y"], y))
    return makeError("exact GP model: bad or missing kernel/hyperparameters/x/y");
  std::optional<KernelKind> kind = parseKernelKind(j["kernel"].get<std::string>());
  if (!kind)
    return makeError("exact GP model: unknown kernel");
  options.kernel = *kind;
  // Refactorising the same numbers gives the same predictions.
  return condition(x, y, h);
}
