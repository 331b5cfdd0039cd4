//===- XGBoostCostModel.cpp - AutoTVM's XGBoost cost model ----------------===//
//
// The AutoTVM baseline, kept faithful: gradient-boosted trees through the
// XGBoost C API with max_depth 3, eta 0.3, gamma 1e-4, min_child_weight 1,
// lambda 1, alpha 0, the pairwise rank objective ("rank") or squared error
// ("reg") on normalised throughput (failures labelled 0), up to 8000 rounds
// with early stopping after 20 rounds without improvement of the average
// top-k recall on the training set (k = plan size).
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/CostModel.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <numeric>

using namespace mlir::dltune;

static llvm::Error xgbError(const char *what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "XGBoost %s: %s", what,
                                 XGBGetLastError());
}

std::vector<double> mlir::dltune::normalizedThroughput(const std::vector<double> &timesMs) {
  std::vector<double> y(timesMs.size(), 0.0);
  double best = 0;
  for (size_t i = 0; i < timesMs.size(); ++i)
    if (timesMs[i] > 0 && std::isfinite(timesMs[i])) {
      y[i] = 1.0 / timesMs[i];
      best = std::max(best, y[i]);
    }
  for (double &v : y)
    v /= std::max(best, 1e-8);
  return y;
}

double mlir::dltune::averageRecallAtN(const std::vector<double> &predicted,
                                      const std::vector<double> &actual, int n) {
  size_t m = predicted.size();
  if (m == 0)
    return 0;
  // trials: configs in predicted order; ranks: their 1-based true rank.
  std::vector<size_t> trials(m), byActual(m);
  std::iota(trials.begin(), trials.end(), 0);
  std::stable_sort(trials.begin(), trials.end(),
                   [&](size_t a, size_t b) { return predicted[a] > predicted[b]; });
  std::iota(byActual.begin(), byActual.end(), 0);
  std::vector<double> labels(m);
  for (size_t i = 0; i < m; ++i)
    labels[i] = actual[trials[i]];
  std::stable_sort(byActual.begin(), byActual.end(),
                   [&](size_t a, size_t b) { return labels[a] > labels[b]; });
  std::vector<size_t> ranks(m);
  for (size_t i = 0; i < m; ++i)
    ranks[byActual[i]] = i + 1;
  // recall_curve as AutoTVM writes it: ret[i] = sum(ranks[:i] <= i) / (i+1).
  double sum = 0;
  size_t upto = std::min<size_t>(n, m);
  for (size_t i = 0; i < upto; ++i) {
    size_t hits = 0;
    for (size_t j = 0; j < i; ++j)
      hits += ranks[j] <= i;
    sum += static_cast<double>(hits) / (i + 1);
  }
  return sum / n;
}

namespace {
class XGBoostCostModel : public CostModel {
public:
  XGBoostCostModel(bool rank, uint64_t seed, int planSize)
      : rank(rank), seed(seed), planSize(planSize) {}
  ~XGBoostCostModel() override {
    if (booster)
      XGBoosterFree(booster);
  }
  llvm::StringRef getName() const override { return rank ? "xgb" : "xgb-reg"; }
  bool isTrained() const override { return booster != nullptr; }

  llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &y) override {
    if (x.rows() != y.size() || x.rows() == 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "XGBoost fit: %zu rows, %zu labels", x.rows(), y.size());
    DMatrixHandle dtrain;
    if (XGDMatrixCreateFromMat(x.data.data(), x.rows(), x.cols, NAN, &dtrain))
      return xgbError("DMatrix");
    std::vector<float> labels(y.begin(), y.end());
    XGDMatrixSetFloatInfo(dtrain, "label", labels.data(), labels.size());
    if (rank) {
      unsigned group = static_cast<unsigned>(x.rows());
      XGDMatrixSetUIntInfo(dtrain, "group", &group, 1);
    }
    if (booster)
      XGBoosterFree(booster);
    booster = nullptr;
    BoosterHandle b;
    if (XGBoosterCreate(&dtrain, 1, &b)) {
      XGDMatrixFree(dtrain);
      return xgbError("booster");
    }
    std::string seedText = std::to_string(seed);
    const char *params[][2] = {{"max_depth", "3"},        {"gamma", "0.0001"},
                               {"min_child_weight", "1"}, {"subsample", "1.0"},
                               {"eta", "0.3"},            {"lambda", "1.00"},
                               {"alpha", "0"},            {"nthread", "1"},
                               {"verbosity", "0"},        {"seed", seedText.c_str()},
                               {"objective", rank ? "rank:pairwise" : "reg:squarederror"}};
    for (auto &p : params)
      XGBoosterSetParam(b, p[0], p[1]);
    // Early stopping on the training set's average recall@planSize, as
    // AutoTVM's custom callback does; keep the best round's model.
    double bestScore = -1;
    int bestRound = 0;
    std::vector<double> actual(y.begin(), y.end());
    for (int round = 0; round < 8000; ++round) {
      if (XGBoosterUpdateOneIter(b, round, dtrain)) {
        XGDMatrixFree(dtrain);
        XGBoosterFree(b);
        return xgbError("training");
      }
      bst_ulong len;
      const float *out;
      if (XGBoosterPredict(b, dtrain, 0, 0, 0, &len, &out)) {
        XGDMatrixFree(dtrain);
        XGBoosterFree(b);
        return xgbError("prediction");
      }
      std::vector<double> pred(out, out + len);
      double score = averageRecallAtN(pred, actual, planSize);
      if (score > bestScore) {
        bestScore = score;
        bestRound = round;
      } else if (round - bestRound >= 20) {
        break;
      }
    }
    rounds = bestRound + 1;
    // Recorded in the model, so that a saved and reloaded model predicts
    // with the same trees.
    XGBoosterSetAttr(b, "dltune_best_rounds", std::to_string(rounds).c_str());
    XGDMatrixFree(dtrain);
    booster = b;
    return llvm::Error::success();
  }

  std::vector<double> predict(const FeatureMatrix &x) const override {
    std::vector<double> result(x.rows(), 0.0);
    if (!booster || x.rows() == 0)
      return result;
    DMatrixHandle d;
    if (XGDMatrixCreateFromMat(x.data.data(), x.rows(), x.cols, NAN, &d))
      return result;
    bst_ulong len;
    const float *out;
    // Only the trees of the best round count (ntree_limit).
    if (!XGBoosterPredict(booster, d, 0, rounds, 0, &len, &out))
      result.assign(out, out + len);
    XGDMatrixFree(d);
    return result;
  }

  llvm::Error save(const std::string &path) const override {
    if (!booster)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "XGBoost save: the model is not trained");
    if (XGBoosterSaveModel(booster, path.c_str()))
      return xgbError("save");
    return llvm::Error::success();
  }

  llvm::Error load(const std::string &path) override {
    BoosterHandle b;
    if (XGBoosterCreate(nullptr, 0, &b))
      return xgbError("booster");
    if (XGBoosterLoadModel(b, path.c_str())) {
      XGBoosterFree(b);
      return xgbError("load");
    }
    if (booster)
      XGBoosterFree(booster);
    booster = b;
    const char *value = nullptr;
    int found = 0;
    rounds = 0; // without the attribute: all trees
    if (!XGBoosterGetAttr(b, "dltune_best_rounds", &value, &found) && found && value)
      rounds = static_cast<unsigned>(std::atoi(value));
    return llvm::Error::success();
  }

private:
  bool rank;
  uint64_t seed;
  int planSize;
  BoosterHandle booster = nullptr;
  unsigned rounds = 0;
};
} // namespace

namespace mlir::dltune {
std::unique_ptr<CostModel> createRandomForestCostModel(uint64_t seed);
} // namespace mlir::dltune

llvm::Expected<std::unique_ptr<CostModel>>
mlir::dltune::createCostModel(llvm::StringRef name, uint64_t seed, int planSize) {
  if (name == "xgb")
    return std::make_unique<XGBoostCostModel>(true, seed, planSize);
  if (name == "xgb-reg")
    return std::make_unique<XGBoostCostModel>(false, seed, planSize);
  if (name == "rf")
    return createRandomForestCostModel(seed);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown cost model '%s' (known: xgb, xgb-reg, rf)",
                                 name.str().c_str());
}
