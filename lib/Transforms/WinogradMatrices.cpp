//===- WinogradMatrices.cpp - Transform matrices of F(m x m, 3 x 3) -------===//

#include "dltune/Transforms/WinogradMatrices.h"

using namespace mlir::dltune;

const WinogradMatrices *WinogradMatrices::getForFilter3(int outputTile) {
  static const WinogradMatrices f2{
      2, 3, 4,
      {1, 0, -1, 0, //
       0, 1, 1, 0,  //
       0, -1, 1, 0, //
       0, 1, 0, -1},
      {1, 0, 0,          //
       0.5, 0.5, 0.5,    //
       0.5, -0.5, 0.5,   //
       0, 0, 1},
      {1, 1, 1, 0, //
       0, 1, -1, -1}};
  static const WinogradMatrices f4{
      4, 3, 6,
      {4, 0, -5, 0, 1, 0,   //
       0, -4, -4, 1, 1, 0,  //
       0, 4, -4, -1, 1, 0,  //
       0, -2, -1, 2, 1, 0,  //
       0, 2, -1, -2, 1, 0,  //
       0, 4, 0, -5, 0, 1},
      {1.0 / 4, 0, 0,                  //
       -1.0 / 6, -1.0 / 6, -1.0 / 6,   //
       -1.0 / 6, 1.0 / 6, -1.0 / 6,    //
       1.0 / 24, 1.0 / 12, 1.0 / 6,    //
       1.0 / 24, -1.0 / 12, 1.0 / 6,   //
       0, 0, 1},
      {1, 1, 1, 1, 1, 0,   //
       0, 1, -1, 2, -2, 0, //
       0, 1, 1, 4, 4, 0,   //
       0, 1, -1, 8, -8, 1}};
  switch (outputTile) {
  case 2:
    return &f2;
  case 4:
    return &f4;
  default:
    return nullptr;
  }
}
