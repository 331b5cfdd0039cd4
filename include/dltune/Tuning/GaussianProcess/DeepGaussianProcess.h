//===- DeepGaussianProcess.h - Doubly stochastic deep GP --------*- C++ -*-===//
//
// A deep Gaussian process trained by doubly stochastic variational
// inference (Salimbeni & Deisenroth 2017), the model of Sun et al. (ICCV
// 2021, "deep GP transfer"). Each layer is a set of sparse variational GPs
// sharing one ARD kernel and M inducing inputs, with a whitened Gaussian
// q(u) per output; inner layers add a fixed linear (PCA) mean function,
// the last has zero mean and one output with a Gaussian likelihood.
// Samples travel through the layers by the reparameterisation trick, and
// the minibatch ELBO is maximised with Adam on analytic gradients.
//
// Every trainable number lives in one flat vector (getParameters /
// setParameters / objective's gradient), so that MAP adaptation is an
// added Gaussian prior over that vector (setPrior).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_GAUSSIANPROCESS_DEEPGAUSSIANPROCESS_H
#define DLTUNE_TUNING_GAUSSIANPROCESS_DEEPGAUSSIANPROCESS_H

#include "dltune/Tuning/GaussianProcess/GaussianProcessKernel.h"
#include "dltune/Tuning/CostModel/ProbabilisticRegressor.h"

#include <random>
#include <string>
#include <vector>

namespace mlir::dltune {

struct DeepGPOptions {
  /// GP layers; the last has one output.
  int layers = 2;
  /// Inducing points per layer (fewer when there are fewer rows).
  int inducingPoints = 100;
  /// Width of the inner layers; 0: min(input features, 30), DSVI's choice.
  int hiddenDims = 0;
  /// Samples per training step (DSVI: 1) and per prediction (DSVI: 100;
  /// 16 keeps 10,000 predictions well under a second on one core).
  int trainSamples = 1;
  int predictSamples = 16;
  /// Adam steps, rows per step and step size (DSVI: lr 0.01).
  int iterations = 2000;
  int minibatch = 256;
  double learningRate = 0.01;
  KernelKind kernel = KernelKind::Rbf;
  uint64_t seed = 0;
  /// DSVI's initialisation: likelihood variance 0.05, inner q_sqrt 1e-5.
  double initialNoiseVariance = 0.05;
  double innerQSqrtScale = 1e-5;
  /// Added to every K_uu diagonal (GPflow's default); inner layers also
  /// add it to the marginal variance (DSVI's white kernel).
  double jitter = 1e-6;
};

/// Where one block of parameters sits in the flat vector.
struct ParameterBlock {
  std::string name;
  size_t offset = 0, size = 0;
};

/// Standard normal draws that fix the stochastic ELBO: eps[s][l] is the
/// rows x width noise of sample s at the output of inner layer l.
struct ObjectiveDraws {
  std::vector<std::vector<Eigen::MatrixXd>> eps;
};

class DeepGaussianProcess : public ProbabilisticRegressor {
public:
  explicit DeepGaussianProcess(DeepGPOptions options = {}) : options(options) {}

  /// initialize() then train().
  llvm::Error fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y) override;
  /// Builds the layers for these data: k-means inducing inputs, PCA mean
  /// functions, q(u) and hyper-parameters at DSVI's starting values.
  llvm::Error initialize(const Eigen::MatrixXd &x, const Eigen::VectorXd &y);
  /// options.iterations Adam steps on the current parameters (no
  /// re-initialisation). With no rows only the prior term remains.
  llvm::Error train(const Eigen::MatrixXd &x, const Eigen::VectorXd &y);
  /// Mixture moments over options.predictSamples propagated samples.
  llvm::Error predict(const Eigen::MatrixXd &x, Eigen::VectorXd &mean,
                      Eigen::VectorXd &variance) const override;

  /// The training objective for one minibatch and fixed draws: the ELBO
  /// (data term scaled by dataSize / rows, minus the KL terms), or with a
  /// prior set the data term plus the log prior (see setPrior). Adds its
  /// gradient to *gradient when non-null (which is resized and zeroed).
  llvm::Expected<double> objective(const Eigen::MatrixXd &x, const Eigen::VectorXd &y,
                                   double dataSize, const ObjectiveDraws &draws,
                                   Eigen::VectorXd *gradient) const;
  ObjectiveDraws drawNoise(size_t rows, int samples, std::mt19937_64 &rng) const;

  Eigen::VectorXd getParameters() const;
  void setParameters(const Eigen::VectorXd &parameters);
  std::vector<ParameterBlock> getParameterBlocks() const;

  /// MAP adaptation: adds -strength/2 |theta - centre|^2 to the objective
  /// and replaces the KL terms, which pulled q(u) towards the GP prior in
  /// pretraining; here the pretrained parameters are the prior.
  void setPrior(const Eigen::VectorXd &centre, double strength);
  void clearPrior() { priorCentre.resize(0); }

  /// Adam steps of later train() calls (MAP adaptation takes fewer steps
  /// than pretraining).
  void setIterations(int iterations) { options.iterations = iterations; }
  bool isInitialized() const { return !layers.empty(); }
  const DeepGPOptions &getOptions() const { return options; }
  nlohmann::json toJson() const override;
  llvm::Error fromJson(const nlohmann::json &j) override;

  struct Layer {
    ArdKernel kernel;
    Eigen::MatrixXd inducing;           // M x in
    Eigen::MatrixXd qMu;                // M x out
    std::vector<Eigen::MatrixXd> qSqrt; // out of M x M, lower triangular
    Eigen::MatrixXd meanWeights;        // in x out; empty: zero mean
    int inputDims() const { return static_cast<int>(inducing.cols()); }
    int outputDims() const { return static_cast<int>(qMu.cols()); }
  };
  const std::vector<Layer> &getLayers() const { return layers; }
  /// Direct access for tests that build degenerate layers.
  std::vector<Layer> &getMutableLayers() { return layers; }
  double getNoiseVariance() const override { return std::exp(logNoiseVariance); }

private:
  DeepGPOptions options;
  std::vector<Layer> layers;
  double logNoiseVariance = 0;
  Eigen::VectorXd priorCentre;
  double priorStrength = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_GAUSSIANPROCESS_DEEPGAUSSIANPROCESS_H
