//===- RandomForestCostModel.cpp - Random forest with variance ------------===//
//
// Bagged CART regression trees (bootstrap rows, a third of the features
// per split, min 2 rows per leaf). The spread of the trees' predictions is
// the model's variance, which Bayesian optimisation uses, and the forest is
// the non-linear mapping later transfer-learning work builds on.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/CostModel/CostModel.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

using namespace mlir::dltune;

namespace {
struct Node {
  int feature = -1; // -1: leaf
  float threshold = 0;
  int left = -1, right = -1;
  double value = 0;
};

struct Tree {
  std::vector<Node> nodes;
  double predict(const float *row) const {
    int i = 0;
    while (nodes[i].feature >= 0)
      i = row[nodes[i].feature] <= nodes[i].threshold ? nodes[i].left : nodes[i].right;
    return nodes[i].value;
  }
};

class RandomForest : public CostModel {
public:
  RandomForest(uint64_t seed, int treeCount) : seed(seed), treeCount(treeCount) {}
  llvm::StringRef getName() const override { return "rf"; }
  bool isTrained() const override { return !trees.empty(); }
  bool hasVariance() const override { return true; }

  llvm::Error fit(const FeatureMatrix &x, const std::vector<double> &y) override {
    if (x.rows() != y.size() || x.rows() == 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "random forest fit: %zu rows, %zu labels", x.rows(),
                                     y.size());
    std::mt19937_64 rng(seed);
    trees.assign(treeCount, Tree());
    cols = x.cols;
    for (Tree &t : trees) {
      std::vector<size_t> rows(x.rows());
      std::uniform_int_distribution<size_t> pick(0, x.rows() - 1);
      for (size_t &r : rows)
        r = pick(rng);
      build(t, x, y, rows, 0, rng);
    }
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<double>> predict(const FeatureMatrix &x) const override {
    return predictMeanOnly(x);
  }

  llvm::Error predictWithVariance(const FeatureMatrix &x, std::vector<double> &mean,
                                  std::vector<double> &variance) const override {
    if (trees.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "random forest predict: the model is not trained");
    // Trees index features by column: other widths would read past a row.
    if (x.cols != cols)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "random forest predict: %zu features per row, the model has %zu", x.cols, cols);
    mean.assign(x.rows(), 0.0);
    variance.assign(x.rows(), 0.0);
    for (size_t r = 0; r < x.rows(); ++r) {
      double s = 0, sq = 0;
      for (const Tree &t : trees) {
        double p = t.predict(x.row(r));
        s += p;
        sq += p * p;
      }
      double m = s / trees.size();
      mean[r] = m;
      variance[r] = std::max(0.0, sq / trees.size() - m * m);
    }
    return llvm::Error::success();
  }

  llvm::Error save(const std::string &path) const override {
    std::ofstream out(path);
    if (!out)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot write '%s'",
                                     path.c_str());
    out << "dltune-rf-v1 " << cols << " " << trees.size() << "\n";
    out.precision(17);
    for (const Tree &t : trees) {
      out << t.nodes.size() << "\n";
      for (const Node &n : t.nodes)
        out << n.feature << " " << n.threshold << " " << n.left << " " << n.right << " "
            << n.value << "\n";
    }
    return out ? llvm::Error::success()
               : llvm::createStringError(llvm::inconvertibleErrorCode(), "write failed");
  }

  llvm::Error load(const std::string &path) override {
    std::ifstream in(path);
    std::string magic;
    size_t n = 0, loadedCols = 0;
    if (!(in >> magic >> loadedCols >> n) || magic != "dltune-rf-v1")
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'%s' is not a dltune random forest", path.c_str());
    // Bounds keep a corrupt header from allocating without limit.
    constexpr size_t kMaxTrees = 1 << 16, kMaxNodes = 1 << 24;
    if (n > kMaxTrees)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "'%s' is corrupt",
                                     path.c_str());
    std::vector<Tree> loaded(n);
    for (Tree &t : loaded) {
      size_t m = 0;
      if (!(in >> m) || m == 0 || m > kMaxNodes)
        return llvm::createStringError(llvm::inconvertibleErrorCode(), "'%s' is corrupt",
                                       path.c_str());
      t.nodes.resize(m);
      for (Node &node : t.nodes)
        in >> node.feature >> node.threshold >> node.left >> node.right >> node.value;
      // Children come after their parent (preorder), so no walk can loop.
      for (int i = 0; i < static_cast<int>(m); ++i) {
        const Node &node = t.nodes[i];
        if (node.feature >= static_cast<int>(loadedCols) || node.feature < -1 ||
            (node.feature >= 0 && (node.left <= i || node.right <= i)) ||
            node.left >= static_cast<int>(m) || node.right >= static_cast<int>(m))
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "'%s' is corrupt", path.c_str());
      }
    }
    if (!in)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "'%s' is truncated",
                                     path.c_str());
    cols = loadedCols;
    trees = std::move(loaded);
    return llvm::Error::success();
  }

private:
  static constexpr int kMaxDepth = 14, kMinLeaf = 2;

  int build(Tree &t, const FeatureMatrix &x, const std::vector<double> &y,
            std::vector<size_t> &rows, int depth, std::mt19937_64 &rng) {
    int id = static_cast<int>(t.nodes.size());
    t.nodes.push_back(Node());
    double sum = 0;
    for (size_t r : rows)
      sum += y[r];
    t.nodes[id].value = sum / rows.size();
    if (depth >= kMaxDepth || rows.size() < 2 * kMinLeaf)
      return id;
    // Best variance-reducing split over a random third of the features.
    std::vector<size_t> feats(x.cols);
    std::iota(feats.begin(), feats.end(), 0);
    std::shuffle(feats.begin(), feats.end(), rng);
    feats.resize(std::max<size_t>(1, x.cols / 3));
    double bestGain = 1e-12;
    int bestFeature = -1;
    float bestThreshold = 0;
    std::vector<std::pair<float, double>> vals(rows.size());
    double total = sum, totalSq = 0;
    for (size_t r : rows)
      totalSq += y[r] * y[r];
    double parentSse = totalSq - total * total / rows.size();
    for (size_t f : feats) {
      for (size_t i = 0; i < rows.size(); ++i)
        vals[i] = {x.row(rows[i])[f], y[rows[i]]};
      std::sort(vals.begin(), vals.end());
      double ls = 0, lsq = 0;
      for (size_t i = 0; i + 1 < vals.size(); ++i) {
        ls += vals[i].second;
        lsq += vals[i].second * vals[i].second;
        if (vals[i].first == vals[i + 1].first)
          continue;
        size_t nl = i + 1, nr = vals.size() - nl;
        if (nl < kMinLeaf || nr < kMinLeaf)
          continue;
        double rs = total - ls, rsq = totalSq - lsq;
        double sse = (lsq - ls * ls / nl) + (rsq - rs * rs / nr);
        double gain = parentSse - sse;
        if (gain > bestGain) {
          bestGain = gain;
          bestFeature = static_cast<int>(f);
          bestThreshold = 0.5f * (vals[i].first + vals[i + 1].first);
        }
      }
    }
    if (bestFeature < 0)
      return id;
    std::vector<size_t> left, right;
    for (size_t r : rows)
      (x.row(r)[bestFeature] <= bestThreshold ? left : right).push_back(r);
    t.nodes[id].feature = bestFeature;
    t.nodes[id].threshold = bestThreshold;
    int l = build(t, x, y, left, depth + 1, rng);
    int r = build(t, x, y, right, depth + 1, rng);
    t.nodes[id].left = l;
    t.nodes[id].right = r;
    return id;
  }

  uint64_t seed;
  int treeCount;
  size_t cols = 0;
  std::vector<Tree> trees;
};
} // namespace

std::unique_ptr<CostModel> mlir::dltune::createRandomForestCostModel(uint64_t seed,
                                                                     int treeCount) {
  return std::make_unique<RandomForest>(seed, std::max(1, treeCount));
}
