//===- StridedCopyToLoops.cpp - Strided memref copies as vector rows ------===//
//
// A memref.copy between strided views (a pad's interior, a concat's part, a
// packed panel) lowers to the runtime's element-by-element memrefCopy, about
// 30x slower than a loop. Such copies become loops over the outer dimensions
// that move each row with vector loads and stores: as scalar loops LLVM does
// not vectorize them (it cannot rule out that source and target overlap),
// and a panel copy of 8-float rows 2 KB apart then costs more than the
// convolution reading it (ResNet-18's 7x7x512 layers). Rows that no chunk
// divides become linalg.copy loops. Contiguous copies stay (they become a
// memcpy).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNESTRIDEDCOPYTOLOOPS
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;

/// The innermost dimension's vector chunk for a copy between `source` and
/// `target`: static shapes, both unit-stride innermost, and a chunk (the
/// whole row of 4 to 64 elements, else 64/32/16/8 dividing it); 0 when the
/// copy cannot be vectorized so.
static int64_t getCopyChunk(MemRefType source, MemRefType target) {
  // Sub-byte elements (i1) are stored one per byte but load as packed
  // vector bits: they stay scalar.
  Type element = source.getElementType();
  if (!source.hasStaticShape() || source.getRank() == 0 || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  for (MemRefType type : {source, target}) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
      return 0;
  }
  int64_t row = source.getShape().back();
  if (row < 4)
    return 0;
  if (row <= 64)
    return row;
  for (int64_t chunk : {64, 32, 16, 8})
    if (row % chunk == 0)
      return chunk;
  return 0;
}

namespace {
struct StridedCopyToLoopsPass
    : public dltune::impl::DLTuneStridedCopyToLoopsBase<StridedCopyToLoopsPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto contiguous = [](Value v) {
        auto type = dyn_cast<MemRefType>(v.getType());
        return type && type.getLayout().isIdentity();
      };
      if (!contiguous(copy.getSource()) || !contiguous(copy.getTarget()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      Location loc = copy.getLoc();
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      int64_t chunk = source && target ? getCopyChunk(source, target) : 0;
      if (chunk == 0) {
        linalg::CopyOp::create(b, loc, copy.getSource(), copy.getTarget());
        copy.erase();
        continue;
      }
      ArrayRef<int64_t> shape = source.getShape();
      auto vectorType = VectorType::get({chunk}, source.getElementType());
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      SmallVector<Value> indices;
      for (size_t d = 0; d < shape.size(); ++d) {
        bool inner = d + 1 == shape.size();
        int64_t step = inner ? chunk : 1;
        if (shape[d] == step) { // one iteration: no loop
          indices.push_back(zero);
          continue;
        }
        auto loop = scf::ForOp::create(b, loc, zero,
                                       arith::ConstantIndexOp::create(b, loc, shape[d]),
                                       step == 1 ? one
                                                 : arith::ConstantIndexOp::create(b, loc, step));
        b.setInsertionPoint(loop.getBody()->getTerminator());
        indices.push_back(loop.getInductionVar());
      }
      Value row = vector::LoadOp::create(b, loc, vectorType, copy.getSource(), indices);
      vector::StoreOp::create(b, loc, row, copy.getTarget(), indices);
      copy.erase();
    }
  }
};
} // namespace
