//===- CostModel.h - Predicting how good a configuration is -----*- C++ -*-===//
//
// A cost model maps feature rows to a score where higher is better
// (normalised throughput: 1 / time, divided by the best seen; 0 for failed
// configurations), as AutoTVM does. Models that can say how sure they are
// also predict a variance (Bayesian optimisation needs it).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_COSTMODEL_COSTMODEL_H
#define DLTUNE_TUNING_COSTMODEL_COSTMODEL_H

#include "dltune/Tuning/FeatureExtractor/FeatureExtractor.h"

#include "llvm/Support/Error.h"

namespace mlir::dltune {

class CostModel {
public:
  virtual ~CostModel() = default;
  virtual llvm::StringRef getName() const = 0;
  /// Trains from scratch on all rows (the caller keeps the history).
  virtual llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &y) = 0;
  /// Adds rows to those the model has seen through update() and refits on
  /// all of them (tree models have no cheaper incremental update).
  llvm::Error update(const FeatureMatrix &x, const std::vector<double> &y) {
    if (seen.cols == 0)
      seen.cols = x.cols;
    if (x.cols != seen.cols || x.rows() != y.size())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cost model update: %zu columns / %zu labels for %zu rows "
                                     "(model has %zu columns)",
                                     x.cols, y.size(), x.rows(), seen.cols);
    seen.data.insert(seen.data.end(), x.data.begin(), x.data.end());
    seenLabels.insert(seenLabels.end(), y.begin(), y.end());
    return fit(seen, seenLabels);
  }
  /// One score per row. Errors: not trained, or rows with a different
  /// number of features than the model was fitted on.
  virtual llvm::Expected<std::vector<double>> predict(const FeatureMatrix &x) const = 0;
  virtual bool hasVariance() const { return false; }
  /// Mean and variance per row; only for models with hasVariance().
  virtual llvm::Error predictWithVariance(const FeatureMatrix &x, std::vector<double> &mean,
                                          std::vector<double> &variance) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cost model '%s' has no variance", getName().str().c_str());
  }
  virtual bool isTrained() const = 0;
  virtual llvm::Error save(const std::string &path) const = 0;
  virtual llvm::Error load(const std::string &path) = 0;

protected:
  /// predict() for models whose mean comes with their variance.
  llvm::Expected<std::vector<double>> predictMeanOnly(const FeatureMatrix &x) const {
    std::vector<double> mean, variance;
    if (llvm::Error e = predictWithVariance(x, mean, variance))
      return std::move(e);
    return mean;
  }

private:
  FeatureMatrix seen;
  std::vector<double> seenLabels;
};

/// "xgb" (XGBoost, AutoTVM's rank objective), "xgb-reg" (XGBoost
/// regression), "rf" (random forest with variance), "dgp" (deep Gaussian
/// process) and "gp" (exact Gaussian process), both with their default
/// options (GaussianProcessCostModel.h). `planSize` is the k of
/// the top-k recall that XGBoost's early stopping watches.
llvm::Expected<std::unique_ptr<CostModel>> createCostModel(llvm::StringRef name,
                                                           uint64_t seed = 0,
                                                           int planSize = 64);

/// The "rf" model with `treeCount` trees (createCostModel's has 64;
/// NLMS's shift of a source model has the OpML'19 code's 16).
std::unique_ptr<CostModel> createRandomForestCostModel(uint64_t seed, int treeCount = 64);

/// "xgb" (`rank`) or "xgb-reg" (XGBoostCostModel.cpp).
std::unique_ptr<CostModel> createXGBoostCostModel(bool rank, uint64_t seed, int planSize);

/// AutoTVM's labels: throughput 1/time normalised by its maximum; failed
/// configurations (NaN or non-positive time) get 0.
std::vector<double> normalizedThroughput(const std::vector<double> &timesMs);

struct TuningHistory;
/// The labels of a history's records (failed ones 0), in record order.
std::vector<double> normalizedThroughput(const TuningHistory &history);

/// AutoTVM's average recall@n (xgb_average_recalln_curve_score): the
/// configurations in predicted order get their 0-based true rank, and
/// curve[i] = |{j < i : rank[j] <= i}| / (i + 1) (AutoTVM's recall_curve,
/// whose slice leaves out the i-th itself) is averaged over i < n. Ties
/// are ordered as numpy's stable argsort orders them.
double averageRecallAtN(const std::vector<double> &predicted,
                        const std::vector<double> &actual, int n);

/// Spearman's rank correlation of a model's predictions with the truth
/// (ties ordered arbitrarily), for tests and benchmarks of cost models.
double spearmanRankCorrelation(const std::vector<double> &x, const std::vector<double> &y);

/// Kendall's tau-b (ties in either vector count as neither concordant nor
/// discordant and shrink the denominator); 0 when either vector is constant.
double kendallRankCorrelation(const std::vector<double> &x, const std::vector<double> &y);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_COSTMODEL_COSTMODEL_H
