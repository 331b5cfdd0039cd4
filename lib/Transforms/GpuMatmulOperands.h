//===- GpuMatmulOperands.h - A GPU matmul's buffers and sizes ---*- C++ -*-===//
//
// Private to lib/Transforms: what the GPU matmul kernel builders (mma.sync
// and SIMT in GpuMatmulKernel.cpp, warpgroup MMA in GpuWarpgroupMatmul.cpp)
// know of the op they replace.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUMATMULOPERANDS_H
#define DLTUNE_LIB_TRANSFORMS_GPUMATMULOPERANDS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

namespace mlir::dltune {

/// The operands of a (batch) matmul on static memrefs, batch dimension
/// first.
struct MatmulOperands {
  Value a, b, c;
  MemRefType aType, bType, cType;
  bool batched = false;
  /// B contiguous along k rather than n (a transposed view, K^T in an
  /// attention): the SIMT kernel loads it through `bT`, a view with k
  /// innermost, and stores it transposed into shared memory.
  bool bTransposed = false;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  int64_t elemBytes = 4; // of A and B

  /// Indices into an operand: the batch index first when batched.
  SmallVector<Value> at(Value batchIdx, Value row, Value col) const {
    SmallVector<Value> i;
    if (batched)
      i.push_back(batchIdx);
    i.append({row, col});
    return i;
  }
};

/// `values` with its last two entries swapped: a (batch) matmul operand's
/// shape or strides transposed.
inline SmallVector<int64_t> swapLastTwo(ArrayRef<int64_t> values) {
  SmallVector<int64_t> swapped(values);
  std::swap(swapped[swapped.size() - 2], swapped.back());
  return swapped;
}

/// The permutation (as a map) that swaps the last two of `rank` dimensions.
inline AffineMap getSwapLastTwoMap(MLIRContext *ctx, unsigned rank) {
  SmallVector<unsigned> perm = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  std::swap(perm[rank - 2], perm[rank - 1]);
  return AffineMap::getPermutationMap(perm, ctx);
}

/// The index arithmetic the kernel builders emit at `b`'s insertion point.
class KernelIndexArith {
protected:
  KernelIndexArith(OpBuilder &b, Location loc) : b(b), loc(loc) {}
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, idx(y)) : x; }
  Value mul(Value x, int64_t y) { return arith::MulIOp::create(b, loc, x, idx(y)); }
  Value divui(Value x, int64_t y) { return arith::DivUIOp::create(b, loc, x, idx(y)); }
  Value remui(Value x, int64_t y) { return arith::RemUIOp::create(b, loc, x, idx(y)); }

  OpBuilder &b;
  Location loc;
};

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUMATMULOPERANDS_H
