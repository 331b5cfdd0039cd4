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
#include "GpuLaneVectorizer.h"
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

/// Whether the rules cover `generic`'s body and its value is a zero-filled
/// copy of its element type.
static bool analyzeAsCopy(LaneVectorizer &vectorizer, linalg::GenericOp generic) {
  return vectorizer.analyze() &&
         vectorizer.isZeroFilledCopy(generic.getBody()->getArgument(0).getType());
}

bool GatheredOperand::copiesWholeVectors(int64_t lanes) const {
  LaneVectorizer vectorizer(generic.getBody(), lanes, /*laneDim=*/1);
  return analyzeAsCopy(vectorizer, generic);
}

GatheredOperand::CopySource GatheredOperand::emitCopySource(OpBuilder &b, Location loc,
                                                            Value row, Value col,
                                                            int64_t lanes) const {
  LaneVectorizer vectorizer(generic.getBody(), lanes, /*laneDim=*/1);
  bool copies = analyzeAsCopy(vectorizer, generic);
  assert(copies && "emitCopySource needs copiesWholeVectors");
  (void)copies;
  return vectorizer.emitCopySource(b, loc, {row, col});
}

Value GatheredOperand::emitLoad(OpBuilder &b, Location loc, Value row, Value col,
                                int64_t lanes) const {
  Block *body = generic.getBody();
  Type elemType = body->getArgument(0).getType();
  LaneVectorizer vectorizer(body, lanes, /*laneDim=*/1);
  if (vectorizer.analyze()) {
    IRMapping map;
    return vectorizer.emit(b, loc, {row, col}, map);
  }
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
