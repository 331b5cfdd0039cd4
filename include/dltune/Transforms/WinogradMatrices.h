//===- WinogradMatrices.h - Transform matrices of F(m x m, 3 x 3) -*- C++ -*-===//
//
// Winograd's minimal filtering algorithm F(m, r) computes m outputs of an
// r-tap filter from alpha = m + r - 1 inputs with alpha multiplications:
//   y = A^T [(G g) . (B^T d)]
// and nested in 2-D, Y = A^T [(G g G^T) . (B^T d B)] A (Lavin & Gray, "Fast
// Algorithms for Convolutional Neural Networks", CVPR 2016). MLIR-free so
// that unit tests can check the identity on its own.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_WINOGRADMATRICES_H
#define DLTUNE_TRANSFORMS_WINOGRADMATRICES_H

#include <vector>

namespace mlir::dltune {

struct WinogradMatrices {
  int outputTile = 0; // m
  int filterSize = 0; // r
  int alpha = 0;      // m + r - 1: the input tile
  // Row-major: B^T is alpha x alpha, G is alpha x r, A^T is m x alpha.
  std::vector<double> inputTransform, filterTransform, outputTransform;

  double bt(int row, int col) const { return inputTransform[row * alpha + col]; }
  double g(int row, int col) const { return filterTransform[row * filterSize + col]; }
  double at(int row, int col) const { return outputTransform[row * alpha + col]; }

  /// F(2, 3) or F(4, 3) (Lavin & Gray's matrices, interpolation points
  /// 0, +-1 and 0, +-1, +-2); null for any other output tile.
  static const WinogradMatrices *getForFilter3(int outputTile);
};

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_WINOGRADMATRICES_H
