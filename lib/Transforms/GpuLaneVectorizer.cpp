//===- GpuLaneVectorizer.cpp - A linalg body over a vector of lanes -------===//

#include "GpuLaneVectorizer.h"
#include "GpuMemRefLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::dltune;

std::optional<int64_t> LaneVectorizer::constantMultiple(Value v) const {
  std::optional<int64_t> c = getConstantIntValue(v);
  if (c && *c % lanes == 0)
    return c;
  return std::nullopt;
}

std::optional<LaneShape> LaneVectorizer::shapeOfOp(Operation &op) const {
  if (auto index = dyn_cast<linalg::IndexOp>(op))
    return index.getDim() == laneDim ? LaneShape::Consecutive : LaneShape::Uniform;
  if (op.getNumResults() != 1)
    return std::nullopt;
  bool anyConsecutive = false, anyVarying = false;
  for (Value v : op.getOperands()) {
    anyConsecutive |= shapeOf(v) == LaneShape::Consecutive;
    anyVarying |= shapeOf(v) == LaneShape::Varying;
  }
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    if (shapeOf(load.getMemRef()) != LaneShape::Uniform || anyVarying)
      return std::nullopt;
    ValueRange indices = load.getIndices();
    if (!anyConsecutive)
      return LaneShape::Uniform;
    // Whole bytes an element (a vector of i1 would be packed bits).
    Type elem = load.getMemRefType().getElementType();
    if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0)
      return std::nullopt;
    if (indices.empty() || !isContiguousInLastDim(load.getMemRefType()) ||
        llvm::any_of(indices.drop_back(),
                     [&](Value i) { return shapeOf(i) != LaneShape::Uniform; }))
      return std::nullopt;
    return LaneShape::Varying;
  }
  if (!anyConsecutive && !anyVarying)
    return isMemoryEffectFree(&op) && op.getNumRegions() == 0
               ? std::optional<LaneShape>(LaneShape::Uniform)
               : std::nullopt;
  if (anyConsecutive && anyVarying)
    return std::nullopt;
  if (anyVarying) {
    // Element-wise ops of scalars become the same op of vectors.
    if (!op.hasTrait<OpTrait::Elementwise>() || !op.hasTrait<OpTrait::Vectorizable>() ||
        isa<ShapedType>(op.getResult(0).getType()))
      return std::nullopt;
    return LaneShape::Varying;
  }
  // Index arithmetic on a Consecutive operand.
  Value lhs = op.getNumOperands() == 2 ? op.getOperand(0) : Value();
  Value rhs = op.getNumOperands() == 2 ? op.getOperand(1) : Value();
  bool lhsConsecutive = lhs && shapeOf(lhs) == LaneShape::Consecutive;
  if (isa<arith::DivUIOp>(op) && lhsConsecutive && constantMultiple(rhs))
    return LaneShape::Uniform;
  if (isa<arith::RemUIOp, arith::SubIOp>(op) && lhsConsecutive && constantMultiple(rhs))
    return LaneShape::Consecutive;
  if (isa<arith::AddIOp>(op) && ((lhsConsecutive && constantMultiple(rhs)) ||
                                 (shapeOf(rhs) == LaneShape::Consecutive && constantMultiple(lhs))))
    return LaneShape::Consecutive;
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    P p = cmp.getPredicate();
    if (lhsConsecutive && constantMultiple(rhs) &&
        (p == P::ult || p == P::slt || p == P::uge || p == P::sge))
      return LaneShape::Uniform;
    return std::nullopt;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op))
    if (shapeOf(select.getCondition()) == LaneShape::Uniform &&
        shapeOf(select.getTrueValue()) == LaneShape::Consecutive &&
        shapeOf(select.getFalseValue()) == LaneShape::Consecutive)
      return LaneShape::Consecutive;
  return std::nullopt;
}

bool LaneVectorizer::analyze() {
  // The rules' arithmetic (and the vector loads' alignment) needs a power
  // of two.
  if (!llvm::isPowerOf2_64(lanes))
    return false;
  for (Operation &op : body->without_terminator()) {
    std::optional<LaneShape> shape = shapeOfOp(op);
    if (!shape)
      return false;
    for (Value r : op.getResults())
      shapes[r] = *shape;
  }
  return shapeOf(body->getTerminator()->getOperand(0)) != LaneShape::Consecutive;
}

Value LaneVectorizer::emit(OpBuilder &b, Location loc, ArrayRef<Value> indices,
                           IRMapping &map) {
  emitOps(b, loc, indices, map, SmallPtrSet<Operation *, 1>());
  Value yielded = body->getTerminator()->getOperand(0);
  Value mapped = map.lookupOrDefault(yielded);
  if (shapeOf(yielded) == LaneShape::Varying)
    return mapped;
  return vector::BroadcastOp::create(b, loc, VectorType::get({lanes}, mapped.getType()), mapped);
}

bool LaneVectorizer::isZeroFilledCopy(Type elemType) {
  copyChain.clear();
  copyConditions.clear();
  Value v = body->getTerminator()->getOperand(0);
  while (auto select = v.getDefiningOp<arith::SelectOp>()) {
    Value falseValue = select.getFalseValue();
    if (select->getBlock() != body || !v.hasOneUse() ||
        shapeOf(select.getCondition()) != LaneShape::Uniform ||
        !(matchPattern(falseValue, m_PosZeroFloat()) || matchPattern(falseValue, m_Zero())))
      return false;
    copyChain.insert(select);
    copyConditions.push_back(select.getCondition());
    v = select.getTrueValue();
  }
  copyLoad = v.getDefiningOp<memref::LoadOp>();
  if (!copyLoad || copyLoad->getBlock() != body || !v.hasOneUse() ||
      shapeOf(v) != LaneShape::Varying || copyLoad.getMemRefType().getElementType() != elemType)
    return false;
  // cp.async reads its source aligned to the copy's size.
  MemRefType type = copyLoad.getMemRefType();
  if (getVectorAlignment(type, lanes) < lanes * type.getElementTypeBitWidth() / 8)
    return false;
  copyChain.insert(copyLoad);
  return true;
}

LaneCopySource LaneVectorizer::emitCopySource(OpBuilder &b, Location loc,
                                             ArrayRef<Value> indices) {
  IRMapping map;
  emitOps(b, loc, indices, map, copyChain);
  LaneCopySource source;
  source.buffer = map.lookupOrDefault(copyLoad.getMemRef());
  for (Value i : copyLoad.getIndices())
    source.indices.push_back(map.lookupOrDefault(i));
  for (Value c : copyConditions) {
    Value mapped = map.lookupOrDefault(c);
    source.valid = source.valid ? arith::AndIOp::create(b, loc, source.valid, mapped) : mapped;
  }
  return source;
}

void LaneVectorizer::emitOps(OpBuilder &b, Location loc, ArrayRef<Value> indices,
                             IRMapping &map, const SmallPtrSetImpl<Operation *> &skip) {
  // Uniform values map to themselves, Consecutive ones to their first lane
  // (the rules' operations on x0 are the ops themselves), Varying ones to
  // vectors.
  auto asVector = [&](Value v) -> Value {
    Value mapped = map.lookupOrDefault(v);
    if (shapeOf(v) == LaneShape::Varying)
      return mapped;
    return vector::BroadcastOp::create(b, loc, VectorType::get({lanes}, mapped.getType()),
                                       mapped);
  };
  for (Operation &op : body->without_terminator()) {
    if (skip.contains(&op))
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      map.map(index.getResult(), indices[index.getDim()]);
      continue;
    }
    Value result = op.getResult(0);
    if (shapeOf(result) != LaneShape::Varying) {
      b.clone(op, map);
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      MemRefType type = load.getMemRefType();
      SmallVector<Value> indices;
      for (Value i : load.getIndices())
        indices.push_back(map.lookupOrDefault(i));
      int64_t align = getVectorAlignment(type, lanes);
      map.map(result, vector::LoadOp::create(
                          b, loc, VectorType::get({lanes}, type.getElementType()),
                          map.lookupOrDefault(load.getMemRef()), indices, false,
                          llvm::MaybeAlign(align)));
      continue;
    }
    // An element-wise op: its scalar operands broadcast, except a select's
    // uniform condition (it picks whole vectors).
    SmallVector<Value> operands;
    for (OpOperand &operand : op.getOpOperands()) {
      bool condition = isa<arith::SelectOp>(op) && operand.getOperandNumber() == 0;
      operands.push_back(condition && shapeOf(operand.get()) == LaneShape::Uniform
                             ? map.lookupOrDefault(operand.get())
                             : asVector(operand.get()));
    }
    OperationState state(loc, op.getName());
    state.addOperands(operands);
    state.addTypes(VectorType::get({lanes}, result.getType()));
    state.addAttributes(op.getAttrs());
    map.map(result, b.create(state)->getResult(0));
  }
}

