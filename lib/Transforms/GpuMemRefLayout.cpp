//===- GpuMemRefLayout.cpp - Buffers and alignment in GPU kernels ---------===//

#include "GpuMemRefLayout.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value mlir::dltune::getViewedMemRef(Operation *op) {
  if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(op))
    return view.getViewSource();
  if (auto transpose = dyn_cast_or_null<memref::TransposeOp>(op))
    return transpose.getIn();
  return Value();
}

Value mlir::dltune::getViewSource(Value v) {
  while (Value source = getViewedMemRef(v.getDefiningOp()))
    v = source;
  return v;
}

SmallVector<Value> mlir::dltune::applyIndexingMap(OpBuilder &b, Location loc, AffineMap map,
                                                  ValueRange ivs) {
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    indices.push_back(affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), ivs));
  return indices;
}

std::optional<std::pair<SmallVector<int64_t>, int64_t>>
mlir::dltune::getStaticLayout(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, [](int64_t s) { return ShapedType::isDynamic(s); }))
    return std::nullopt;
  return std::make_pair(strides, offset);
}

int64_t mlir::dltune::commonAlignment(int64_t want, ArrayRef<int64_t> multiples) {
  int64_t a = 1;
  while (a * 2 <= want)
    a *= 2;
  for (int64_t m : multiples)
    while (a > 1 && m % a != 0)
      a /= 2;
  return a;
}

SmallVector<int64_t> mlir::dltune::layoutMultiples(MemRefType type, int64_t elemBytes) {
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout = getStaticLayout(type);
  if (!layout)
    return {elemBytes};
  SmallVector<int64_t> out = {layout->second * elemBytes};
  for (int64_t s : ArrayRef<int64_t>(layout->first).drop_back())
    out.push_back(s * elemBytes);
  return out;
}

int64_t mlir::dltune::getVectorAlignment(MemRefType type, int64_t lanes) {
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  return commonAlignment(lanes * elemBytes, layoutMultiples(type, elemBytes));
}

bool mlir::dltune::isContiguousInLastDim(MemRefType type) {
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout = getStaticLayout(type);
  return layout && (layout->first.empty() || layout->first.back() == 1);
}

bool mlir::dltune::isIndexedInnermostBy(AffineMap map, unsigned dim) {
  return map.getNumResults() != 0 &&
         map.getResults().back() == getAffineDimExpr(dim, map.getContext()) &&
         llvm::none_of(map.getResults().drop_back(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(dim); });
}

static bool isAllocationOrConstant(Value buffer) {
  return isa_and_nonnull<memref::AllocOp, memref::GetGlobalOp>(buffer.getDefiningOp());
}

bool mlir::dltune::mayShareMemory(Value x, Value y) {
  auto gx = x.getDefiningOp<memref::GetGlobalOp>(), gy = y.getDefiningOp<memref::GetGlobalOp>();
  return x == y || (gx && gy && gx.getName() == gy.getName()) ||
         (!isAllocationOrConstant(x) && !isAllocationOrConstant(y));
}

/// Whether `op` (or an op nested in it) uses a view of `buffer`, a fresh
/// allocation: nothing else can share its memory.
static bool usesBuffer(Operation *op, Value buffer) {
  auto isView = [&](Value v) {
    return isa<BaseMemRefType>(v.getType()) && mlir::dltune::getViewSource(v) == buffer;
  };
  WalkResult result = op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (isView(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

linalg::FillOp mlir::dltune::findFillToAbsorb(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  Value out = op.getDpsInitOperand(0)->get();
  auto type = dyn_cast<MemRefType>(out.getType());
  Value buffer = getViewSource(out);
  if (!type || !type.hasStaticShape() || !buffer.getDefiningOp<memref::AllocOp>())
    return nullptr;
  for (OpOperand *in : op.getDpsInputOperands())
    if (isa<BaseMemRefType>(in->get().getType()) && getViewSource(in->get()) == buffer)
      return nullptr;
  if (loadsFrom(op, buffer))
    return nullptr;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (!usesBuffer(prev, buffer))
      continue;
    // The start value must be of the output's element type as it is
    // (MLIR 22's linalg.fill on buffers requires it; kept as a guard).
    auto fill = dyn_cast<linalg::FillOp>(prev);
    return fill && fill.hasPureBufferSemantics() && fill.getOutputs()[0] == out &&
                   fill.getInputs()[0].getType() == type.getElementType()
               ? fill
               : nullptr;
  }
  return nullptr;
}

bool mlir::dltune::loadsFrom(Operation *op, Value buffer) {
  WalkResult loads = op->walk([&](memref::LoadOp load) {
    return getViewSource(load.getMemRef()) == buffer ? WalkResult::interrupt()
                                                     : WalkResult::advance();
  });
  return loads.wasInterrupted();
}

FailureOr<MemRefType> mlir::dltune::getReshapedType(Operation *reshape, MemRefType source) {
  auto collapse = [&](SmallVector<ReassociationIndices> groups) -> FailureOr<MemRefType> {
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(source, groups))
      return failure();
    return memref::CollapseShapeOp::computeCollapsedType(source, groups);
  };
  auto expand = [&](ArrayRef<int64_t> shape, SmallVector<ReassociationIndices> groups) {
    return memref::ExpandShapeOp::computeExpandedType(source, shape, groups);
  };
  if (auto c = dyn_cast<memref::CollapseShapeOp>(reshape))
    return collapse(c.getReassociationIndices());
  if (auto c = dyn_cast<tensor::CollapseShapeOp>(reshape))
    return collapse(c.getReassociationIndices());
  if (auto e = dyn_cast<memref::ExpandShapeOp>(reshape))
    return expand(e.getResultType().getShape(), e.getReassociationIndices());
  auto e = cast<tensor::ExpandShapeOp>(reshape);
  return expand(e.getResultType().getShape(), e.getReassociationIndices());
}
