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

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"

#include "llvm/ADT/StringExtras.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>
#include <utility>

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
  if (m == 0 || n <= 0)
    return 0;
  // trials = np.argsort(preds)[::-1]: ascending (stable), then reversed.
  std::vector<size_t> trials(m);
  std::iota(trials.begin(), trials.end(), 0);
  std::stable_sort(trials.begin(), trials.end(),
                   [&](size_t a, size_t b) { return predicted[a] < predicted[b]; });
  std::reverse(trials.begin(), trials.end());
  // ranks = get_rank(labels[trials]): 0-based, the largest label first.
  std::vector<double> labels(m);
  for (size_t i = 0; i < m; ++i)
    labels[i] = actual[trials[i]];
  std::vector<size_t> byLabel(m), ranks(m);
  std::iota(byLabel.begin(), byLabel.end(), 0);
  std::stable_sort(byLabel.begin(), byLabel.end(),
                   [&](size_t a, size_t b) { return labels[a] > labels[b]; });
  for (size_t i = 0; i < m; ++i)
    ranks[byLabel[i]] = i;
  // recall_curve: ret[i] = sum(ranks[:i] <= i) / (i + 1); the score is
  // sum(curve[:n]) / n.
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
/// Handles freed on every path out of fit and load.
struct DMatrix {
  DMatrixHandle handle = nullptr;
  ~DMatrix() {
    if (handle)
      XGDMatrixFree(handle);
  }
};
struct Booster {
  BoosterHandle handle = nullptr;
  ~Booster() {
    if (handle)
      XGBoosterFree(handle);
  }
  BoosterHandle release() { return std::exchange(handle, nullptr); }
};

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
    DMatrix dtrain;
    if (XGDMatrixCreateFromMat(x.data.data(), x.rows(), x.cols, NAN, &dtrain.handle))
      return xgbError("DMatrix");
    std::vector<float> labels(y.begin(), y.end());
    if (XGDMatrixSetFloatInfo(dtrain.handle, "label", labels.data(), labels.size()))
      return xgbError("labels");
    if (rank) {
      unsigned group = static_cast<unsigned>(x.rows());
      if (XGDMatrixSetUIntInfo(dtrain.handle, "group", &group, 1))
        return xgbError("groups");
    }
    if (booster)
      XGBoosterFree(booster);
    booster = nullptr;
    Booster b;
    if (XGBoosterCreate(&dtrain.handle, 1, &b.handle))
      return xgbError("booster");
    std::string seedText = std::to_string(seed);
    const char *params[][2] = {{"max_depth", "3"},        {"gamma", "0.0001"},
                               {"min_child_weight", "1"}, {"subsample", "1.0"},
                               {"eta", "0.3"},            {"lambda", "1.00"},
                               {"alpha", "0"},            {"nthread", "1"},
                               {"verbosity", "0"},        {"seed", seedText.c_str()},
                               {"objective", rank ? "rank:pairwise" : "reg:squarederror"}};
    for (auto &p : params)
      if (XGBoosterSetParam(b.handle, p[0], p[1]))
        return xgbError("parameter");
    // Early stopping on the training set's average recall@planSize, as
    // AutoTVM's custom callback does; keep the best round's model.
    double bestScore = -1;
    int bestRound = 0;
    std::vector<double> actual(y.begin(), y.end());
    for (int round = 0; round < 8000; ++round) {
      if (XGBoosterUpdateOneIter(b.handle, round, dtrain.handle))
        return xgbError("training");
      bst_ulong len;
      const float *out;
      if (XGBoosterPredict(b.handle, dtrain.handle, 0, 0, 0, &len, &out))
        return xgbError("prediction");
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
    if (XGBoosterSetAttr(b.handle, "dltune_best_rounds", std::to_string(rounds).c_str()))
      return xgbError("attribute");
    booster = b.release();
    cols = x.cols;
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<double>> predict(const FeatureMatrix &x) const override {
    if (!booster)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "XGBoost predict: the model is not trained");
    if (x.cols != cols)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "XGBoost predict: %zu features per row, the model has %zu",
                                     x.cols, cols);
    if (x.rows() == 0)
      return std::vector<double>();
    DMatrix d;
    if (XGDMatrixCreateFromMat(x.data.data(), x.rows(), x.cols, NAN, &d.handle))
      return xgbError("DMatrix");
    bst_ulong len;
    const float *out;
    // Only the trees of the best round count (ntree_limit).
    if (XGBoosterPredict(booster, d.handle, 0, rounds, 0, &len, &out))
      return xgbError("prediction");
    if (len != x.rows())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "XGBoost predict: %zu scores for %zu rows",
                                     static_cast<size_t>(len), x.rows());
    return std::vector<double>(out, out + len);
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
    Booster b;
    if (XGBoosterCreate(nullptr, 0, &b.handle))
      return xgbError("booster");
    if (XGBoosterLoadModel(b.handle, path.c_str()))
      return xgbError("load");
    bst_ulong features = 0;
    if (XGBoosterGetNumFeature(b.handle, &features))
      return xgbError("load");
    const char *value = nullptr;
    int found = 0;
    if (XGBoosterGetAttr(b.handle, "dltune_best_rounds", &value, &found))
      return xgbError("load");
    unsigned loadedRounds = 0; // without the attribute: all trees
    if (found && value && !llvm::to_integer(value, loadedRounds))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "XGBoost load: '%s' has a bad dltune_best_rounds '%s'",
                                     path.c_str(), value);
    if (booster)
      XGBoosterFree(booster);
    booster = b.release();
    rounds = loadedRounds;
    cols = features;
    return llvm::Error::success();
  }

private:
  bool rank;
  uint64_t seed;
  int planSize;
  BoosterHandle booster = nullptr;
  unsigned rounds = 0;
  size_t cols = 0; // features per row the booster was fitted on
};
} // namespace

std::unique_ptr<CostModel> mlir::dltune::createXGBoostCostModel(bool rank, uint64_t seed,
                                                               int planSize) {
  return std::make_unique<XGBoostCostModel>(rank, seed, planSize);
}
