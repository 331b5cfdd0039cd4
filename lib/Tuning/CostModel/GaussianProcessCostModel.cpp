//===- GaussianProcessCostModel.cpp - Log-throughput GP with feasibility --===//

#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"

#include "Support/EigenJson.h"
#include "Support/JsonFields.h"
#include "dltune/Tuning/Support/Error.h"
#include "dltune/Tuning/CostModel/FeasibilityClassifier.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::dltune;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {
MatrixXd toEigen(const FeatureMatrix &x) {
  MatrixXd m(x.rows(), x.cols);
  for (size_t r = 0; r < x.rows(); ++r)
    for (size_t c = 0; c < x.cols; ++c)
      m(r, c) = x.row(r)[c];
  return m;
}

class GaussianProcessCostModel : public CostModel {
public:
  GaussianProcessCostModel(std::string name, std::unique_ptr<ProbabilisticRegressor> regressor)
      : name(std::move(name)), regressor(std::move(regressor)) {}
  llvm::StringRef getName() const override { return name; }
  bool isTrained() const override { return trained; }
  bool hasVariance() const override { return true; }
  const ProbabilisticRegressor &getRegressor() const { return *regressor; }

  llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &y) override {
    if (x.rows() != y.size() || x.rows() == 0)
      return makeError(name + " fit: " + llvm::Twine(x.rows()) + " rows, " + llvm::Twine(y.size()) +
                       " labels");
    MatrixXd features = toEigen(x);
    inputMean = features.colwise().mean().transpose();
    inputScale =
        ((features.rowwise() - inputMean.transpose()).colwise().squaredNorm() / features.rows())
            .cwiseSqrt()
            .transpose();
    // A column constant over the training rows says nothing the model could
    // learn: scale 0 drops it (standardise maps it to 0 for every row), so
    // that a new value at prediction - an unseen device's features - is not
    // read as a far-away input.
    for (double &s : inputScale)
      if (!(s > 1e-12))
        s = 0;
    MatrixXd standard = standardise(features);
    VectorXd feasible(y.size());
    std::vector<Eigen::Index> feasibleRows;
    for (size_t i = 0; i < y.size(); ++i) {
      feasible[i] = isFeasibleLabel(y[i]);
      if (feasible[i] > 0)
        feasibleRows.push_back(static_cast<Eigen::Index>(i));
    }
    if (feasibleRows.empty())
      return makeError(name + " fit: no feasible configuration (every label is 0)");
    classifier.fit(standard, feasible);
    VectorXd logY(feasibleRows.size());
    for (size_t i = 0; i < feasibleRows.size(); ++i)
      logY[i] = std::log(y[feasibleRows[i]]);
    targetMean = logY.mean();
    targetScale = std::sqrt((logY.array() - targetMean).square().mean());
    if (!(targetScale > 1e-12))
      targetScale = 1;
    VectorXd target = (logY.array() - targetMean) / targetScale;
    trained = false;
    if (llvm::Error e = regressor->fit(standard(feasibleRows, Eigen::all), target))
      return e;
    trained = true;
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<double>> predict(const FeatureMatrix &x) const override {
    return predictMeanOnly(x);
  }

  llvm::Error predictLogLabel(const FeatureMatrix &x, std::vector<double> &mean,
                              std::vector<double> &variance, bool includeNoise) const {
    if (!trained)
      return makeError(name + " predict: the model is not trained");
    if (static_cast<Eigen::Index>(x.cols) != inputMean.size())
      return makeError(name + " predict: " + llvm::Twine(x.cols) +
                       " features per row, the model has " + llvm::Twine(inputMean.size()));
    VectorXd latentMean, latentVariance;
    if (llvm::Error e = regressor->predict(standardise(toEigen(x)), latentMean, latentVariance))
      return e;
    double noise = includeNoise ? regressor->getNoiseVariance() : 0;
    mean.resize(x.rows());
    variance.resize(x.rows());
    for (size_t i = 0; i < x.rows(); ++i) {
      mean[i] = targetMean + targetScale * latentMean[i];
      variance[i] = targetScale * targetScale * (latentVariance[i] + noise);
    }
    return llvm::Error::success();
  }

  llvm::Error predictWithVariance(const FeatureMatrix &x, std::vector<double> &mean,
                                  std::vector<double> &variance) const override {
    if (!trained)
      return makeError(name + " predict: the model is not trained");
    if (static_cast<Eigen::Index>(x.cols) != inputMean.size())
      return makeError(name + " predict: " + llvm::Twine(x.cols) +
                       " features per row, the model has " + llvm::Twine(inputMean.size()));
    MatrixXd standard = standardise(toEigen(x));
    VectorXd latentMean, latentVariance;
    if (llvm::Error e = regressor->predict(standard, latentMean, latentVariance))
      return e;
    VectorXd p = classifier.probability(standard);
    mean.resize(x.rows());
    variance.resize(x.rows());
    for (size_t i = 0; i < x.rows(); ++i) {
      double m = targetMean + targetScale * latentMean[i];
      double v = targetScale * targetScale * latentVariance[i];
      mean[i] = p[i] * std::exp(m + 0.5 * v);
      variance[i] = std::max(0.0, p[i] * std::exp(2 * m + 2 * v) - mean[i] * mean[i]);
    }
    return llvm::Error::success();
  }

  llvm::Error save(const std::string &path) const override {
    if (!trained)
      return makeError(name + " save: the model is not trained");
    json j = {{"format", "dltune-gp-cost-model-v1"},
              {"model", name},
              {"input_mean", vectorToJson(inputMean)},
              {"input_scale", vectorToJson(inputScale)},
              {"target_mean", targetMean},
              {"target_scale", targetScale},
              {"feasibility", classifier.toJson()},
              {"regressor", regressor->toJson()}};
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (ec)
      return makeError("cannot write '" + path + "': " + ec.message());
    out << j.dump();
    out.close();
    if (out.has_error())
      return makeError("writing '" + path + "' failed");
    return llvm::Error::success();
  }

  llvm::Error load(const std::string &path) override {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return makeError("cannot read '" + path + "': " + buffer.getError().message());
    llvm::Expected<json> parsed = parseJson((*buffer)->getBuffer());
    if (!parsed)
      return makeError("'" + path + "': " + llvm::toString(parsed.takeError()));
    const json &j = *parsed;
    VectorXd mean, scale;
    double tMean = 0, tScale = 0;
    if (!j.is_object() || !j.contains("format") || j["format"] != "dltune-gp-cost-model-v1" ||
        !j.contains("model") || j["model"] != name)
      return makeError("'" + path + "' is not a dltune " + name + " model");
    FeasibilityClassifier loadedClassifier;
    if (!j.contains("input_mean") || !j.contains("input_scale") ||
        !vectorFromJson(j["input_mean"], mean) || !vectorFromJson(j["input_scale"], scale) ||
        mean.size() != scale.size() || !numberFromJson(j, "target_mean", tMean) ||
        !numberFromJson(j, "target_scale", tScale) || !j.contains("feasibility") ||
        !loadedClassifier.fromJson(j["feasibility"], mean.size()) || !j.contains("regressor"))
      return makeError("'" + path + "' is corrupt");
    if (llvm::Error e = regressor->fromJson(j["regressor"]))
      return makeError("'" + path + "': " + llvm::toString(std::move(e)));
    inputMean = mean;
    inputScale = scale;
    targetMean = tMean;
    targetScale = tScale;
    classifier = loadedClassifier;
    trained = true;
    return llvm::Error::success();
  }

  /// See adaptDeepGPCostModel.
  llvm::Expected<std::unique_ptr<CostModel>>
  adapted(const FeatureMatrix &x, const std::vector<double> &y, double priorStrength,
          int iterations, const GaussianProcessCostModel *warmStart) const {
    auto *deep = dynamic_cast<const DeepGaussianProcess *>(regressor.get());
    if (!deep || !trained)
      return makeError("MAP adaptation needs a trained dgp cost model");
    const DeepGaussianProcess *start = deep;
    if (warmStart) {
      start = dynamic_cast<const DeepGaussianProcess *>(warmStart->regressor.get());
      if (!start || start->getParameters().size() != deep->getParameters().size())
        return makeError("MAP adaptation: the warm start is not an adaptation of this model");
    }
    if (x.rows() != y.size() || static_cast<Eigen::Index>(x.cols) != inputMean.size())
      return makeError("MAP adaptation: " + llvm::Twine(x.rows()) + " rows of " +
                       llvm::Twine(x.cols) + " features, " + llvm::Twine(y.size()) +
                       " labels; the model has " + llvm::Twine(inputMean.size()) + " features");
    std::vector<Eigen::Index> feasibleRows;
    for (size_t i = 0; i < y.size(); ++i)
      if (isFeasibleLabel(y[i]))
        feasibleRows.push_back(static_cast<Eigen::Index>(i));
    // With no feasible row nothing is trained: the copy is the pretrained
    // model (whose target mean it keeps), not the warm start.
    auto copy = std::make_unique<DeepGaussianProcess>(feasibleRows.empty() ? *deep : *start);
    auto result = std::make_unique<GaussianProcessCostModel>(name, nullptr);
    result->classifier = classifier;
    result->inputMean = inputMean;
    result->inputScale = inputScale;
    result->targetScale = targetScale;
    result->targetMean = targetMean;
    result->trained = true;
    if (!feasibleRows.empty()) {
      MatrixXd standard = standardise(toEigen(x))(feasibleRows, Eigen::all);
      VectorXd latentMean, latentVariance;
      if (llvm::Error e = deep->predict(standard, latentMean, latentVariance))
        return std::move(e);
      VectorXd logY(feasibleRows.size());
      for (size_t i = 0; i < feasibleRows.size(); ++i)
        logY[i] = std::log(y[feasibleRows[i]]);
      result->targetMean = (logY - targetScale * latentMean).mean();
      VectorXd target = (logY.array() - result->targetMean) / targetScale;
      VectorXd centre = deep->getParameters();
      copy->setPrior(centre, priorStrength);
      copy->setIterations(iterations);
      if (llvm::Error e = copy->train(standard, target))
        return std::move(e);
      copy->clearPrior();
    }
    result->regressor = std::move(copy);
    return std::unique_ptr<CostModel>(std::move(result));
  }

private:
  MatrixXd standardise(const MatrixXd &x) const {
    VectorXd inverse = inputScale.unaryExpr([](double s) { return s > 0 ? 1 / s : 0.0; });
    return (x.rowwise() - inputMean.transpose()) * inverse.asDiagonal();
  }

  std::string name;
  std::unique_ptr<ProbabilisticRegressor> regressor;
  FeasibilityClassifier classifier;
  VectorXd inputMean, inputScale;
  double targetMean = 0, targetScale = 1;
  bool trained = false;
};
} // namespace

std::unique_ptr<CostModel> mlir::dltune::createDeepGPCostModel(const DeepGPOptions &options) {
  return std::make_unique<GaussianProcessCostModel>("dgp",
                                                    std::make_unique<DeepGaussianProcess>(options));
}

std::unique_ptr<CostModel> mlir::dltune::createExactGPCostModel(const ExactGPOptions &options) {
  return std::make_unique<GaussianProcessCostModel>(
      "gp", std::make_unique<ExactGaussianProcess>(options));
}

const ProbabilisticRegressor *mlir::dltune::getGaussianProcessRegressor(const CostModel &model) {
  if (model.getName() != "dgp" && model.getName() != "gp")
    return nullptr;
  return &static_cast<const GaussianProcessCostModel &>(model).getRegressor();
}

llvm::Error mlir::dltune::predictLogLabel(const CostModel &model, const FeatureMatrix &x,
                                          std::vector<double> &mean,
                                          std::vector<double> &variance, bool includeNoise) {
  if (!getGaussianProcessRegressor(model))
    return makeError("cost model '" + model.getName() + "' is not a Gaussian process");
  return static_cast<const GaussianProcessCostModel &>(model).predictLogLabel(x, mean, variance,
                                                                               includeNoise);
}

llvm::Expected<std::unique_ptr<CostModel>>
mlir::dltune::adaptDeepGPCostModel(const CostModel &pretrained, const FeatureMatrix &x,
                                   const std::vector<double> &y, double priorStrength,
                                   int iterations, const CostModel *warmStart) {
  // By type, not name: a transfer model wrapping a dgp is also called "dgp".
  auto *from = dynamic_cast<const GaussianProcessCostModel *>(&pretrained);
  auto *warm = dynamic_cast<const GaussianProcessCostModel *>(warmStart);
  if (!from || from->getName() != "dgp" || (warmStart && (!warm || warm->getName() != "dgp"))) {
    const CostModel &bad = from && from->getName() == "dgp" ? *warmStart : pretrained;
    return makeError("MAP adaptation needs a dgp cost model itself, not '" + bad.getName() +
                     "'" + (bad.getName() == "dgp" ? " wrapped in another model" : ""));
  }
  return from->adapted(x, y, priorStrength, iterations, warm);
}
