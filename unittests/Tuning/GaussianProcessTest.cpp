//===- GaussianProcessTest.cpp - Deep GP, exact GP and their cost models --===//

#include "dltune/Tuning/GaussianProcess/CheckedCholesky.h"
#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/GaussianProcess/DeepGaussianProcess.h"
#include "dltune/Tuning/GaussianProcess/ExactGaussianProcess.h"
#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"

#include "gtest/gtest.h"

#include <cmath>
#include <fstream>
#include <random>
#include <unistd.h>

using namespace mlir::dltune;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {
MatrixXd uniformMatrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64 &rng, double lo = -2,
                       double hi = 2) {
  std::uniform_real_distribution<double> u(lo, hi);
  return MatrixXd::NullaryExpr(rows, cols, [&]() { return u(rng); });
}

double rmse(const VectorXd &a, const VectorXd &b) {
  return std::sqrt((a - b).squaredNorm() / a.size());
}

/// Central differences of f at theta for the given entries.
template <typename F> double centralDifference(F f, VectorXd theta, size_t i, double h = 1e-5) {
  double saved = theta[i];
  theta[i] = saved + h;
  double up = f(theta);
  theta[i] = saved - h;
  double down = f(theta);
  return (up - down) / (2 * h);
}

class KernelKinds : public ::testing::TestWithParam<KernelKind> {};

TEST_P(KernelKinds, KernelBackwardMatchesFiniteDifferences) {
  std::mt19937_64 rng(1);
  MatrixXd a = uniformMatrix(5, 3, rng), b = uniformMatrix(4, 3, rng);
  MatrixXd gK = uniformMatrix(5, 4, rng, -1, 1);
  ArdKernel kernel;
  kernel.kind = GetParam();
  kernel.logLengthscales = VectorXd::Random(3) * 0.5;
  kernel.logVariance = 0.3;
  MatrixXd gA = MatrixXd::Zero(5, 3), gB = MatrixXd::Zero(4, 3);
  VectorXd gL = VectorXd::Zero(3);
  double gV = 0;
  kernel.backward(a, b, gK, &gA, &gB, gL, gV);
  auto objective = [&](const MatrixXd &aa, const MatrixXd &bb, const ArdKernel &k) {
    return (gK.array() * k.matrix(aa, bb).array()).sum();
  };
  const double h = 1e-6;
  // Perturbs each entry of one input set (a when first, else b).
  auto checkInput = [&](const MatrixXd &analytic, bool first) {
    MatrixXd base = first ? a : b;
    for (Eigen::Index i = 0; i < base.size(); ++i) {
      MatrixXd up = base, down = base;
      up.data()[i] += h;
      down.data()[i] -= h;
      double fd = first ? objective(up, b, kernel) - objective(down, b, kernel)
                        : objective(a, up, kernel) - objective(a, down, kernel);
      EXPECT_NEAR(analytic.data()[i], fd / (2 * h), 1e-6) << (first ? "a" : "b") << i;
    }
  };
  checkInput(gA, true);
  checkInput(gB, false);
  for (int j = 0; j < 3; ++j) {
    ArdKernel up = kernel, down = kernel;
    up.logLengthscales[j] += h;
    down.logLengthscales[j] -= h;
    EXPECT_NEAR(gL[j], (objective(a, b, up) - objective(a, b, down)) / (2 * h), 1e-6);
  }
  ArdKernel up = kernel, down = kernel;
  up.logVariance += h;
  down.logVariance -= h;
  EXPECT_NEAR(gV, (objective(a, b, up) - objective(a, b, down)) / (2 * h), 1e-6);
}

/// Every block of the flat gradient against central differences, with the
/// draws fixed so the stochastic objective is a deterministic function.
void checkDeepGPGradient(KernelKind kind, int numLayers, bool withPrior) {
  SCOPED_TRACE(std::string(kernelKindName(kind)) + ", " + std::to_string(numLayers) + " layers" +
               (withPrior ? ", prior" : ""));
  std::mt19937_64 rng(numLayers * 10 + static_cast<int>(kind));
  MatrixXd x = uniformMatrix(7, 3, rng);
  VectorXd y = x.col(0).array().sin() + 0.5 * x.col(1).array();
  DeepGPOptions options;
  options.layers = numLayers;
  options.inducingPoints = 4;
  options.hiddenDims = 2;
  options.kernel = kind;
  options.innerQSqrtScale = 0.5; // Far from the near-deterministic start.
  DeepGaussianProcess dgp(options);
  ASSERT_FALSE(static_cast<bool>(dgp.initialize(x, y)));
  // Move every parameter away from its structured start.
  VectorXd theta = dgp.getParameters();
  theta += 0.2 * uniformMatrix(theta.size(), 1, rng, -1, 1);
  dgp.setParameters(theta);
  if (withPrior)
    dgp.setPrior(theta + 0.1 * VectorXd::Ones(theta.size()), 3.0);
  ObjectiveDraws draws = dgp.drawNoise(x.rows(), /*samples=*/2, rng);
  VectorXd gradient;
  double value = llvm::cantFail(dgp.objective(x, y, 20.0, draws, &gradient));
  ASSERT_TRUE(std::isfinite(value));
  ASSERT_EQ(gradient.size(), theta.size());
  auto f = [&](const VectorXd &t) {
    DeepGaussianProcess copy = dgp;
    copy.setParameters(t);
    return llvm::cantFail(copy.objective(x, y, 20.0, draws, nullptr));
  };
  for (const ParameterBlock &block : dgp.getParameterBlocks()) {
    double worst = 0;
    for (size_t i = block.offset; i < block.offset + block.size; ++i) {
      double fd = centralDifference(f, theta, i);
      worst = std::max(worst, std::abs(gradient[i] - fd) / std::max(1.0, std::abs(fd)));
    }
    EXPECT_LT(worst, 1e-5) << block.name;
  }
}

TEST_P(KernelKinds, DeepGPGradientMatchesFiniteDifferencesPerBlock) {
  for (int layers : {1, 2, 3})
    checkDeepGPGradient(GetParam(), layers, /*withPrior=*/false);
  checkDeepGPGradient(GetParam(), 2, /*withPrior=*/true);
}

TEST_P(KernelKinds, ExactGPMarginalLikelihoodGradientMatchesFiniteDifferences) {
  std::mt19937_64 rng(5);
  MatrixXd x = uniformMatrix(12, 2, rng);
  VectorXd y = x.col(0).array().cos();
  ExactGPOptions options;
  options.kernel = GetParam();
  ExactGaussianProcess gp(options);
  VectorXd h(4);
  h << 0.2, -0.3, 0.1, std::log(0.05);
  llvm::cantFail(gp.condition(x, y, h));
  VectorXd gradient;
  llvm::cantFail(gp.negativeLogMarginalLikelihood(h, &gradient));
  auto f = [&](const VectorXd &t) {
    return llvm::cantFail(gp.negativeLogMarginalLikelihood(t, nullptr));
  };
  for (Eigen::Index i = 0; i < h.size(); ++i)
    EXPECT_NEAR(gradient[i], centralDifference(f, h, i),
                1e-5 * std::max(1.0, std::abs(gradient[i])))
        << "hyper-parameter " << i;
}

INSTANTIATE_TEST_SUITE_P(GaussianProcess, KernelKinds,
                         ::testing::Values(KernelKind::Rbf, KernelKind::Matern52),
                         [](const auto &info) { return kernelKindName(info.param).str(); });

TEST(ExactGP, InterpolatesAndRecoversTheLengthscaleOrder) {
  std::mt19937_64 rng(3);
  MatrixXd x = uniformMatrix(80, 3, rng);
  // Fast in x0, slow in x1, irrelevant x2.
  VectorXd y = (2.0 * x.col(0)).array().sin() + 0.5 * x.col(1).array();
  ExactGaussianProcess gp;
  llvm::cantFail(gp.fit(x, y));
  VectorXd h = gp.getHyperparameters();
  EXPECT_LT(h[0], h[1]);
  EXPECT_LT(h[1], h[2]);
  VectorXd mean, variance;
  llvm::cantFail(gp.predict(x, mean, variance));
  EXPECT_LT((mean - y).cwiseAbs().maxCoeff(), 0.02);
  MatrixXd test = uniformMatrix(50, 3, rng, -1.5, 1.5);
  VectorXd truth = (2.0 * test.col(0)).array().sin() + 0.5 * test.col(1).array();
  llvm::cantFail(gp.predict(test, mean, variance));
  EXPECT_LT(rmse(mean, truth), 0.05);
  EXPECT_EQ(gp.getFailedEvaluations(), 0u);
}

TEST(DeepGP, OneLayerWithInducingPointsAtTheDataMatchesTheExactGP) {
  std::mt19937_64 rng(4);
  MatrixXd x = uniformMatrix(15, 1, rng);
  VectorXd y = (1.5 * x.col(0)).array().sin() + 0.1 * uniformMatrix(15, 1, rng, -1, 1).array();
  ExactGPOptions gpOptions;
  gpOptions.kernel = KernelKind::Rbf;
  ExactGaussianProcess gp(gpOptions);
  llvm::cantFail(gp.fit(x, y));
  DeepGPOptions options;
  options.layers = 1;
  options.inducingPoints = 15; // M = N: the inducing inputs start at the data.
  options.iterations = 8000;
  options.minibatch = 15;
  options.learningRate = 0.003;
  DeepGaussianProcess dgp(options);
  llvm::cantFail(dgp.initialize(x, y));
  // Start from the exact GP's hyper-parameters; the ELBO's optimum with
  // Z = X is the same posterior.
  VectorXd h = gp.getHyperparameters(), theta = dgp.getParameters();
  for (const ParameterBlock &b : dgp.getParameterBlocks()) {
    if (b.name == "layer0.log_lengthscales")
      theta[b.offset] = h[0];
    if (b.name == "layer0.log_variance")
      theta[b.offset] = h[1];
    if (b.name == "likelihood.log_noise_variance")
      theta[b.offset] = h[2];
  }
  dgp.setParameters(theta);
  llvm::cantFail(dgp.train(x, y));
  // Beyond the data too, where the variance is large.
  MatrixXd test = uniformMatrix(40, 1, rng, -3.5, 3.5);
  VectorXd gpMean, gpVar, dgpMean, dgpVar;
  llvm::cantFail(gp.predict(test, gpMean, gpVar));
  llvm::cantFail(dgp.predict(test, dgpMean, dgpVar));
  EXPECT_GT(gpVar.maxCoeff(), 0.1);
  for (Eigen::Index i = 0; i < test.rows(); ++i) {
    EXPECT_NEAR(dgpMean[i], gpMean[i], 0.02) << "at " << test(i, 0);
    double gpSd = std::sqrt(gpVar[i]), dgpSd = std::sqrt(dgpVar[i]);
    EXPECT_NEAR(dgpSd, gpSd, 0.005 + 0.05 * gpSd) << "at " << test(i, 0);
  }
}

TEST(DeepGP, InnerMeanFunctionProjectsOntoThePrincipalDirections) {
  std::mt19937_64 rng(9);
  MatrixXd x = uniformMatrix(200, 4, rng, -1, 1);
  // Spread: large along features 0 and 2, small along 1 and 3.
  x = x * Eigen::Vector4d(5, 0.1, 3, 0.2).asDiagonal();
  VectorXd y = x.col(0);
  DeepGPOptions options;
  options.inducingPoints = 10;
  options.hiddenDims = 2;
  DeepGaussianProcess narrowing(options);
  llvm::cantFail(narrowing.initialize(x, y));
  const MatrixXd &w = narrowing.getLayers()[0].meanWeights;
  ASSERT_EQ(w.rows(), 4);
  ASSERT_EQ(w.cols(), 2);
  EXPECT_NEAR(std::abs(w(0, 0)), 1.0, 1e-2);
  EXPECT_NEAR(std::abs(w(2, 1)), 1.0, 1e-2);
  EXPECT_TRUE(narrowing.getLayers()[1].meanWeights.size() == 0) << "the last layer has zero mean";
  // The next layer's inducing inputs are the projected ones.
  EXPECT_TRUE(narrowing.getLayers()[1].inducing.isApprox(narrowing.getLayers()[0].inducing * w));
  options.hiddenDims = 4;
  DeepGaussianProcess sameWidth(options);
  llvm::cantFail(sameWidth.initialize(x, y));
  EXPECT_TRUE(sameWidth.getLayers()[0].meanWeights.isIdentity());
}

TEST(DeepGP, PredictsThePriorBeforeTraining) {
  // At the start q(u) of the last layer is the prior (m = 0, S = I), so
  // every propagated sample has mean 0 and variance k(f, f) = 1, and so
  // has the mixture.
  std::mt19937_64 rng(10);
  MatrixXd x = uniformMatrix(50, 3, rng);
  DeepGPOptions options;
  options.inducingPoints = 10;
  options.layers = 3;
  DeepGaussianProcess dgp(options);
  llvm::cantFail(dgp.initialize(x, x.col(0)));
  VectorXd mean, variance;
  llvm::cantFail(dgp.predict(uniformMatrix(20, 3, rng), mean, variance));
  EXPECT_LT(mean.cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((variance.array() - 1.0).abs().maxCoeff(), 1e-4);
}

TEST(DeepGP, TwoLayersFitAStepBetterThanOne) {
  std::mt19937_64 rng(6);
  auto step = [](const MatrixXd &x) {
    return VectorXd((x.col(0).array() > 0).cast<double>() * 2.0 - 1.0);
  };
  MatrixXd x = uniformMatrix(120, 1, rng), test = uniformMatrix(300, 1, rng);
  VectorXd y = step(x), truth = step(test);
  double error[2];
  for (int layers : {1, 2}) {
    DeepGPOptions options;
    options.layers = layers;
    options.inducingPoints = 20;
    options.iterations = 2500;
    options.minibatch = 120;
    options.seed = 2;
    DeepGaussianProcess dgp(options);
    llvm::cantFail(dgp.fit(x, y));
    VectorXd mean, variance;
    llvm::cantFail(dgp.predict(test, mean, variance));
    error[layers - 1] = rmse(mean, truth);
  }
  EXPECT_LT(error[1], 0.8 * error[0]) << "1 layer " << error[0] << ", 2 layers " << error[1];
}

TEST(DeepGP, PriorHoldsParametersWithoutDataAndDataMovesPredictions) {
  std::mt19937_64 rng(7);
  MatrixXd x = uniformMatrix(60, 2, rng);
  VectorXd y = x.col(0).array().sin();
  DeepGPOptions options;
  options.inducingPoints = 20;
  options.iterations = 400;
  options.minibatch = 60;
  DeepGaussianProcess pretrained(options);
  llvm::cantFail(pretrained.fit(x, y));
  VectorXd centre = pretrained.getParameters();

  DeepGaussianProcess noData = pretrained;
  noData.setPrior(centre, 1.0);
  llvm::cantFail(noData.train(MatrixXd(0, 2), VectorXd(0)));
  EXPECT_EQ((noData.getParameters() - centre).cwiseAbs().maxCoeff(), 0.0);

  // Target task: the same function shifted by +1, seen at 10 points.
  MatrixXd target = uniformMatrix(10, 2, rng);
  VectorXd targetY = target.col(0).array().sin() + 1.0;
  auto distanceToTarget = [&](const DeepGaussianProcess &model) {
    VectorXd mean, variance;
    llvm::cantFail(model.predict(target, mean, variance));
    return rmse(mean, targetY);
  };
  double before = distanceToTarget(pretrained), moved[2];
  for (int i = 0; i < 2; ++i) {
    DeepGaussianProcess adapted = pretrained;
    adapted.setPrior(centre, i == 0 ? 1.0 : 1e4);
    llvm::cantFail(adapted.train(target, targetY));
    moved[i] = distanceToTarget(adapted);
  }
  EXPECT_LT(moved[0], 0.5 * before);
  // A strong prior keeps the model near the pretrained one.
  EXPECT_GT(moved[1], moved[0]);
}

TEST(DeepGP, JitterIsReportedOnASingularKernel) {
  JitterReport report;
  MatrixXd ones = MatrixXd::Ones(4, 4);
  llvm::Expected<MatrixXd> l = checkedCholesky(ones, report);
  ASSERT_TRUE(static_cast<bool>(l));
  EXPECT_EQ(report.jitterEvents, 1u);
  EXPECT_GT(report.largestJitter, 0.0);
  EXPECT_NE(report.lastMessage.find("jitter"), std::string::npos);
  MatrixXd nan = ones;
  nan(1, 2) = NAN;
  llvm::Expected<MatrixXd> bad = checkedCholesky(nan, report);
  ASSERT_FALSE(static_cast<bool>(bad));
  llvm::consumeError(bad.takeError());

  // Duplicate inducing inputs with no built-in jitter: K_uu is singular.
  std::mt19937_64 rng(8);
  MatrixXd x = uniformMatrix(10, 2, rng);
  VectorXd y = x.col(0);
  DeepGPOptions options;
  options.layers = 1;
  options.inducingPoints = 3;
  options.jitter = 0;
  DeepGaussianProcess dgp(options);
  llvm::cantFail(dgp.initialize(x, y));
  auto &z = dgp.getMutableLayers()[0].inducing;
  z.row(1) = z.row(0);
  EXPECT_EQ(dgp.getJitterReport().jitterEvents, 0u);
  ObjectiveDraws draws = dgp.drawNoise(10, 1, rng);
  llvm::cantFail(dgp.objective(x, y, 10, draws, nullptr));
  EXPECT_GT(dgp.getJitterReport().jitterEvents, 0u);
}

/// Smooth synthetic timing with a failing region (c == 4).
struct Synthetic {
  FeatureMatrix train, test;
  std::vector<double> trainLabels, testThroughput;
  std::vector<bool> testFeasible;
};

Synthetic synthetic(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> a(1, 12), b(1, 16), c(1, 4);
  Synthetic s;
  s.train.cols = s.test.cols = 3;
  std::vector<double> times;
  for (int i = 0; i < 300; ++i) {
    int va = a(rng), vb = b(rng), vc = c(rng);
    double t =
        1.0 + 0.05 * (va - 5) * (va - 5) + 0.02 * (vb - 11) * (vb - 11) + 0.3 * (vc - 2) * (vc - 2);
    bool fails = vc == 4;
    FeatureMatrix &m = i < 200 ? s.train : s.test;
    m.append({float(va), float(vb), float(vc)});
    if (i < 200) {
      times.push_back(fails ? NAN : t);
    } else {
      s.testThroughput.push_back(1.0 / t);
      s.testFeasible.push_back(!fails);
    }
  }
  s.trainLabels = normalizedThroughput(times);
  return s;
}

std::vector<std::unique_ptr<CostModel>> smallGaussianProcessModels() {
  DeepGPOptions dgp;
  dgp.inducingPoints = 40;
  dgp.iterations = 500;
  dgp.minibatch = 100;
  dgp.predictSamples = 16;
  ExactGPOptions gp;
  gp.restarts = 2;
  std::vector<std::unique_ptr<CostModel>> models;
  models.push_back(createDeepGPCostModel(dgp));
  models.push_back(createExactGPCostModel(gp));
  return models;
}

TEST(GaussianProcessCostModel, RanksFeasibleConfigsAndScoresFailuresLow) {
  Synthetic s = synthetic(1);
  for (auto &model : smallGaussianProcessModels()) {
    SCOPED_TRACE(model->getName().str());
    EXPECT_TRUE(model->hasVariance());
    llvm::cantFail(model->fit(s.train, s.trainLabels));
    std::vector<double> mean, variance;
    llvm::cantFail(model->predictWithVariance(s.test, mean, variance));
    std::vector<double> feasibleMean, feasibleTruth;
    double failedScore = 0, feasibleScore = 0;
    size_t failed = 0;
    for (size_t i = 0; i < mean.size(); ++i) {
      EXPECT_GE(variance[i], 0.0);
      if (s.testFeasible[i]) {
        feasibleMean.push_back(mean[i]);
        feasibleTruth.push_back(s.testThroughput[i]);
        feasibleScore += mean[i];
      } else {
        failedScore += mean[i];
        ++failed;
      }
    }
    EXPECT_GT(spearmanRankCorrelation(feasibleMean, feasibleTruth), 0.8);
    ASSERT_GT(failed, 0u);
    EXPECT_LT(failedScore / failed, 0.5 * feasibleScore / feasibleMean.size());
  }
}

TEST(GaussianProcessCostModel, SaveLoadRoundTripGivesIdenticalPredictions) {
  Synthetic s = synthetic(2);
  auto models = smallGaussianProcessModels();
  auto fresh = smallGaussianProcessModels();
  for (size_t k = 0; k < models.size(); ++k) {
    CostModel &model = *models[k];
    SCOPED_TRACE(model.getName().str());
    llvm::Error untrained = model.save(::testing::TempDir() + "/never");
    EXPECT_TRUE(static_cast<bool>(untrained));
    llvm::consumeError(std::move(untrained));
    llvm::cantFail(model.fit(s.train, s.trainLabels));
    std::string path =
        ::testing::TempDir() + "/gp_model_" + model.getName().str() + std::to_string(::getpid());
    llvm::cantFail(model.save(path));
    llvm::cantFail(fresh[k]->load(path));
    std::vector<double> m1, v1, m2, v2;
    llvm::cantFail(model.predictWithVariance(s.test, m1, v1));
    llvm::cantFail(fresh[k]->predictWithVariance(s.test, m2, v2));
    EXPECT_EQ(m1, m2);
    EXPECT_EQ(v1, v2);
    // The other kind's file and a corrupt file are refused.
    llvm::Error wrongKind = fresh[1 - k]->load(path);
    EXPECT_TRUE(static_cast<bool>(wrongKind));
    llvm::consumeError(std::move(wrongKind));
    std::ofstream(path) << "{\"format\": \"dltune-gp-cost-model-v1\", \"model\": \""
                        << model.getName().str() << "\", \"input_mean\": [1]}";
    llvm::Error corrupt = fresh[k]->load(path);
    EXPECT_TRUE(static_cast<bool>(corrupt));
    llvm::consumeError(std::move(corrupt));
    ::unlink(path.c_str());
  }
}

TEST(GaussianProcessCostModel, RefusesUntrainedAllFailedAndOtherWidths) {
  Synthetic s = synthetic(3);
  for (auto &model : smallGaussianProcessModels()) {
    SCOPED_TRACE(model->getName().str());
    llvm::Expected<std::vector<double>> untrained = model->predict(s.test);
    ASSERT_FALSE(static_cast<bool>(untrained));
    EXPECT_NE(llvm::toString(untrained.takeError()).find("not trained"), std::string::npos);
    llvm::Error allFailed = model->fit(s.train, std::vector<double>(s.train.rows(), 0.0));
    ASSERT_TRUE(static_cast<bool>(allFailed));
    EXPECT_NE(llvm::toString(std::move(allFailed)).find("no feasible"), std::string::npos);
    llvm::cantFail(model->fit(s.train, s.trainLabels));
    FeatureMatrix wide;
    wide.cols = 4;
    wide.data.assign(8, 1.0f);
    llvm::Expected<std::vector<double>> p = model->predict(wide);
    ASSERT_FALSE(static_cast<bool>(p));
    EXPECT_NE(llvm::toString(p.takeError()).find("features per row"), std::string::npos);
  }
  for (const char *name : {"dgp", "gp"}) {
    auto model = llvm::cantFail(createCostModel(name, 1));
    EXPECT_EQ(model->getName(), name);
    EXPECT_NE(getGaussianProcessRegressor(*model), nullptr);
  }
  EXPECT_EQ(getGaussianProcessRegressor(*llvm::cantFail(createCostModel("rf"))), nullptr);
}
} // namespace
