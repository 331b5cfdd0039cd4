//===- GpuGatheredOperand.cpp - A matmul operand gathered in its loads ----===//
//
// An imported convolution on the GPU is a GEMM whose A is the input's
// patches, gathered by a linalg.generic into a buffer of N*OH*OW x KH*KW*C
// elements (9x the input for a 3x3 filter) that the matmul then reads:
// the buffer is written and read once a call, and the gather is a launch
// of its own. The matmul kernel stages A through registers or cp.async
// copies of `vector` elements anyway; evaluating the gather's body there
// instead reads the input directly (an implicit GEMM).
//
// The body is index arithmetic on (row, column) and a load. Where the
// `vector` columns a thread loads are provably one contiguous run of the
// input (the same pixel, consecutive channels: C a multiple of the lanes),
// the arithmetic is done once and the load is one vector load; the proof
// is a small abstract interpretation of the body over the lanes (below).
// Elsewhere (the stem's 3 channels) the body runs once a lane.
//
//===----------------------------------------------------------------------===//

#include "GpuGatheredOperand.h"
#include "GpuMemRefLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::dltune;

/// Whether the regions of `op` (a linalg op's scalar body) neither read nor
/// write memory: its effects are its operands'.
static bool hasPureBody(Operation *op) {
  WalkResult r = op->walk([&](Operation *inner) {
    return inner == op || isMemoryEffectFree(inner) ? WalkResult::advance()
                                                    : WalkResult::interrupt();
  });
  return !r.wasInterrupted();
}

/// Whether `generic` writes all of `buffer` from its indices alone: a
/// 2-d all-parallel generic without inputs, its output `buffer` through the
/// identity, whose old values it never reads.
static bool isWholeGather(linalg::GenericOp generic, Value buffer) {
  return generic.hasPureBufferSemantics() && generic.getNumDpsInputs() == 0 &&
         generic.getNumDpsInits() == 1 && generic.getDpsInits()[0] == buffer &&
         generic.getNumLoops() == 2 && generic.getNumReductionLoops() == 0 &&
         generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)).isIdentity() &&
         generic.getBody()->getArgument(0).use_empty() &&
         !generic.getBody()->walk([&](memref::LoadOp load) {
           return getViewSource(load.getMemRef()) == buffer ? WalkResult::interrupt()
                                                            : WalkResult::advance();
         }).wasInterrupted();
}

std::optional<GatheredOperand> GatheredOperand::match(linalg::LinalgOp matmul) {
  if (!isa<linalg::MatmulOp>(matmul.getOperation()) || !matmul.hasPureBufferSemantics())
    return std::nullopt;
  Value a = matmul.getDpsInputs()[0];
  auto alloc = a.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != matmul->getBlock() || matmul.getDpsInputs()[1] == a ||
      matmul.getDpsInits()[0] == a)
    return std::nullopt;
  // The gather: the last op before the matmul to use A. Bufferization
  // gives equally shaped patch buffers one allocation (each gather
  // overwrites it whole): uses before the gather do not matter, and the
  // first use after the matmul must be another such gather.
  Block *block = matmul->getBlock();
  Operation *lastUse = nullptr, *nextUse = nullptr;
  for (Operation *user : alloc->getUsers()) {
    Operation *op = block->findAncestorOpInBlock(*user);
    if (!op || isa<ViewLikeOpInterface>(user))
      return std::nullopt;
    if (op == matmul.getOperation())
      continue;
    if (op->isBeforeInBlock(matmul)) {
      if (!lastUse || lastUse->isBeforeInBlock(op))
        lastUse = op;
    } else if (!nextUse || op->isBeforeInBlock(nextUse)) {
      nextUse = op;
    }
  }
  auto generic = dyn_cast_or_null<linalg::GenericOp>(lastUse);
  if (!generic || !isWholeGather(generic, a) ||
      (nextUse && !(isa<linalg::GenericOp>(nextUse) &&
                    isWholeGather(cast<linalg::GenericOp>(nextUse), a))))
    return std::nullopt;
  GatheredOperand g;
  g.generic = generic;
  for (Operation &op : generic.getBody()->without_terminator()) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      g.readBuffers.push_back(getViewSource(load.getMemRef()));
      continue;
    }
    if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
      return std::nullopt;
  }
  // The kernel reads at the matmul what the gather read before it: nothing
  // in between may write those buffers (views, allocations, constants, and
  // ops writing only other allocations: the fill of C, a padded B).
  for (Operation *op = generic->getNextNode(); op != matmul.getOperation();
       op = op->getNextNode()) {
    if (isa<memref::AllocOp>(op) || isMemoryEffectFree(op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    // Ops with regions report only their own effects, except linalg ops
    // (a fill's region is its scalar body) whose bodies touch no memory.
    if (!effects ||
        (op->getNumRegions() != 0 && !(isa<linalg::LinalgOp>(op) && hasPureBody(op))))
      return std::nullopt;
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
        continue;
      Value written = e.getValue();
      if (!written)
        return std::nullopt;
      Value source = getViewSource(written);
      if (!source.getDefiningOp<memref::AllocOp>() ||
          llvm::any_of(g.readBuffers, [&](Value r) { return mayShareMemory(r, source); }))
        return std::nullopt;
    }
  }
  return g;
}

bool GatheredOperand::mayRead(Value buffer) const {
  return llvm::any_of(readBuffers, [&](Value r) { return mayShareMemory(r, buffer); });
}

//===----------------------------------------------------------------------===//
// The body over a vector of columns
//===----------------------------------------------------------------------===//

namespace {
/// How a value of the body varies over the lanes of a vector of columns
/// col0 + l (col0 a multiple of the lanes, l < lanes).
enum class LaneShape {
  Uniform,     // the same in every lane: a scalar
  Consecutive, // an index x0 + l with x0 a multiple of the lanes: x0
  Varying,     // anything else: a vector, one element a lane
};

/// The body evaluated for a vector of columns with its index arithmetic
/// done once. Rules (c a constant multiple of the lanes; a Consecutive x
/// is x0 + l):
///   col                                  Consecutive
///   ops of Uniform operands              Uniform
///   x / c                                Uniform     (x0 / c)
///   x % c, x + c, c + x, x - c           Consecutive (the same of x0)
///   x < c, x >= c (signed or unsigned)   Uniform     (the same of x0)
///   select(Uniform, x, y), y Consecutive Consecutive
///   load(Uniform.., x), unit last stride Varying     (one vector load)
///   elementwise ops of Uniform/Varying   Varying
/// Anything else is refused (and the body runs once a lane).
class LaneVectorizer {
public:
  LaneVectorizer(Block *body, int64_t lanes) : body(body), lanes(lanes) {}

  /// Whether the rules cover every op of the body.
  bool analyze();
  /// The body's value for the columns `col0` .. of `row`.
  Value emit(OpBuilder &b, Location loc, Value row, Value col0);

  /// After analyze: whether the yield is one vector load of `elemType`,
  /// perhaps through selects of it or zero under uniform conditions (the
  /// bounds checks of padding): a copy that zero-fills where a condition
  /// fails. Fills `copyChain` (the load and the selects).
  bool isZeroFilledCopy(Type elemType);
  /// The copy's source and its validity (null: always valid) for the
  /// columns `col0` .. of `row`: every op of the body but the chain.
  GatheredOperand::CopySource emitCopySource(OpBuilder &b, Location loc, Value row, Value col0);

private:
  LaneShape shapeOf(Value v) const {
    auto it = shapes.find(v);
    return it == shapes.end() ? LaneShape::Uniform : it->second; // defined above
  }
  std::optional<int64_t> constantMultiple(Value v) const {
    std::optional<int64_t> c = getConstantIntValue(v);
    if (c && *c % lanes == 0)
      return c;
    return std::nullopt;
  }
  std::optional<LaneShape> shapeOfOp(Operation &op) const;

  /// The ops emit() runs for `col0`, the chain's skipped.
  void emitOps(OpBuilder &b, Location loc, Value row, Value col0, IRMapping &map,
               const SmallPtrSetImpl<Operation *> &skip);

  Block *body;
  int64_t lanes;
  DenseMap<Value, LaneShape> shapes;
  SmallPtrSet<Operation *, 4> copyChain;
  memref::LoadOp copyLoad;
  SmallVector<Value> copyConditions;
};
} // namespace

std::optional<LaneShape> LaneVectorizer::shapeOfOp(Operation &op) const {
  if (auto index = dyn_cast<linalg::IndexOp>(op))
    return index.getDim() == 1 ? LaneShape::Consecutive : LaneShape::Uniform;
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

Value LaneVectorizer::emit(OpBuilder &b, Location loc, Value row, Value col0) {
  IRMapping map;
  emitOps(b, loc, row, col0, map, SmallPtrSet<Operation *, 1>());
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

GatheredOperand::CopySource LaneVectorizer::emitCopySource(OpBuilder &b, Location loc,
                                                           Value row, Value col0) {
  IRMapping map;
  emitOps(b, loc, row, col0, map, copyChain);
  GatheredOperand::CopySource source;
  source.buffer = map.lookupOrDefault(copyLoad.getMemRef());
  for (Value i : copyLoad.getIndices())
    source.indices.push_back(map.lookupOrDefault(i));
  for (Value c : copyConditions) {
    Value mapped = map.lookupOrDefault(c);
    source.valid = source.valid ? arith::AndIOp::create(b, loc, source.valid, mapped) : mapped;
  }
  return source;
}

void LaneVectorizer::emitOps(OpBuilder &b, Location loc, Value row, Value col0, IRMapping &map,
                             const SmallPtrSetImpl<Operation *> &skip) {
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
      map.map(index.getResult(), index.getDim() == 0 ? row : col0);
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

/// Whether the rules cover `generic`'s body and its value is a zero-filled
/// copy of its element type.
static bool analyzeAsCopy(LaneVectorizer &vectorizer, linalg::GenericOp generic) {
  return vectorizer.analyze() &&
         vectorizer.isZeroFilledCopy(generic.getBody()->getArgument(0).getType());
}

bool GatheredOperand::copiesWholeVectors(int64_t lanes) const {
  LaneVectorizer vectorizer(generic.getBody(), lanes);
  return analyzeAsCopy(vectorizer, generic);
}

GatheredOperand::CopySource GatheredOperand::emitCopySource(OpBuilder &b, Location loc,
                                                            Value row, Value col,
                                                            int64_t lanes) const {
  LaneVectorizer vectorizer(generic.getBody(), lanes);
  bool copies = analyzeAsCopy(vectorizer, generic);
  assert(copies && "emitCopySource needs copiesWholeVectors");
  (void)copies;
  return vectorizer.emitCopySource(b, loc, row, col);
}

Value GatheredOperand::emitLoad(OpBuilder &b, Location loc, Value row, Value col,
                                int64_t lanes) const {
  Block *body = generic.getBody();
  Type elemType = body->getArgument(0).getType();
  LaneVectorizer vectorizer(body, lanes);
  if (vectorizer.analyze())
    return vectorizer.emit(b, loc, row, col);
  // The body once a lane.
  SmallVector<Value> elems;
  for (int64_t l = 0; l < lanes; ++l) {
    Value colL = l ? arith::AddIOp::create(b, loc, col, arith::ConstantIndexOp::create(b, loc, l))
                       .getResult()
                   : col;
    IRMapping map;
    for (Operation &op : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(op))
        map.map(index.getResult(), index.getDim() == 0 ? row : colL);
      else
        b.clone(op, map);
    }
    elems.push_back(map.lookupOrDefault(body->getTerminator()->getOperand(0)));
  }
  return vector::FromElementsOp::create(b, loc, VectorType::get({lanes}, elemType), elems);
}

void GatheredOperand::eraseAbsorbed(RewriterBase &rewriter) const {
  Value buffer = generic.getDpsInits()[0];
  rewriter.eraseOp(generic);
  // Other gathers may still write it, for their own matmuls.
  if (buffer.use_empty())
    rewriter.eraseOp(buffer.getDefiningOp());
}
