//===- WinogradMatricesTest.cpp - F(m, 3) computes a correlation ----------===//

#include "dltune/Transforms/WinogradMatrices.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir::dltune;

namespace {

class WinogradMatricesTest : public ::testing::TestWithParam<int> {};

// y = A^T [(G g) . (B^T d)] equals y[i] = sum_k d[i + k] g[k], the
// (cross-)correlation a convolution layer computes.
TEST_P(WinogradMatricesTest, OneDimensionalIdentity) {
  const WinogradMatrices *w = WinogradMatrices::getForFilter3(GetParam());
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(w->alpha, w->outputTile + w->filterSize - 1);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> d(w->alpha), g(w->filterSize);
    for (double &v : d)
      v = dist(rng);
    for (double &v : g)
      v = dist(rng);
    std::vector<double> product(w->alpha);
    for (int xi = 0; xi < w->alpha; ++xi) {
      double gt = 0, dt = 0;
      for (int k = 0; k < w->filterSize; ++k)
        gt += w->g(xi, k) * g[k];
      for (int k = 0; k < w->alpha; ++k)
        dt += w->bt(xi, k) * d[k];
      product[xi] = gt * dt;
    }
    for (int i = 0; i < w->outputTile; ++i) {
      double y = 0, direct = 0;
      for (int xi = 0; xi < w->alpha; ++xi)
        y += w->at(i, xi) * product[xi];
      for (int k = 0; k < w->filterSize; ++k)
        direct += d[i + k] * g[k];
      EXPECT_NEAR(y, direct, 1e-12) << "output " << i << ", trial " << trial;
    }
  }
}

// Nested: Y = A^T [(G g G^T) . (B^T d B)] A is the 2-D correlation of an
// alpha x alpha tile with a 3x3 filter (what the pass emits).
TEST_P(WinogradMatricesTest, TwoDimensionalIdentity) {
  const WinogradMatrices *w = WinogradMatrices::getForFilter3(GetParam());
  ASSERT_NE(w, nullptr);
  int a = w->alpha, r = w->filterSize, m = w->outputTile;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> d(a * a), g(r * r);
  for (double &v : d)
    v = dist(rng);
  for (double &v : g)
    v = dist(rng);
  auto sandwich = [](int rows, int cols, auto matrix, const std::vector<double> &x) {
    // matrix (rows x cols) * x (cols x cols) * matrix^T
    std::vector<double> left(rows * cols, 0), out(rows * rows, 0);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        for (int k = 0; k < cols; ++k)
          left[i * cols + j] += matrix(i, k) * x[k * cols + j];
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < rows; ++j)
        for (int k = 0; k < cols; ++k)
          out[i * rows + j] += left[i * cols + k] * matrix(j, k);
    return out;
  };
  std::vector<double> u = sandwich(a, r, [&](int i, int k) { return w->g(i, k); }, g);
  std::vector<double> v = sandwich(a, a, [&](int i, int k) { return w->bt(i, k); }, d);
  for (int i = 0; i < a * a; ++i)
    u[i] *= v[i];
  std::vector<double> y = sandwich(m, a, [&](int i, int k) { return w->at(i, k); }, u);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      double direct = 0;
      for (int p = 0; p < r; ++p)
        for (int q = 0; q < r; ++q)
          direct += d[(i + p) * a + j + q] * g[p * r + q];
      EXPECT_NEAR(y[i * m + j], direct, 1e-12) << "output (" << i << ", " << j << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(OutputTiles, WinogradMatricesTest, ::testing::Values(2, 4));

TEST(WinogradMatrices, OnlyTwoAndFour) {
  EXPECT_EQ(WinogradMatrices::getForFilter3(3), nullptr);
  EXPECT_EQ(WinogradMatrices::getForFilter3(6), nullptr);
}

} // namespace
