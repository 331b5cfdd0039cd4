//===- GpuRowReduction.cpp - Reductions along rows, lanes cooperating -----===//
//
// The kernel, for R rows a block and L lanes a row (L = 32, or the row
// length rounded up to a power of two where that is shorter; L * R = 256
// threads, or fewer for few rows but never below a warp):
//
//   row = block.x * R + thread.y          (rows past the end compute row 0's
//                                          values and store nothing)
//   acc = identity of the combiner
//   for k = thread.x; k < K; k += L:  acc = combine(acc, body(inputs at row, k))
//   total = gpu.subgroup_reduce(acc) over the L lanes of the row
//   if thread.x == 0 and the row exists:  out[row] = combine(total, out[row])
//
// Every thread reaches the subgroup_reduce (uniform), so upstream's shuffle
// lowering and the CPU emulation's barriers both apply. Lanes read
// consecutive elements of a row: coalesced where the row is contiguous.
//
//===----------------------------------------------------------------------===//

#include "GpuRowReduction.h"
#include "GpuMemRefLayout.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dltune;

/// Threads of a block, at most; a warp at least.
static constexpr int64_t kBlockThreads = 256;
static constexpr int64_t kWarpSize = 32;

namespace {
/// A linalg op whose innermost loop is its only reduction, folded by one
/// arith op per element.
struct RowReduction {
  linalg::LinalgOp op;
  /// The body's op `out = combine(element, out)` (either operand order).
  Operation *combiner = nullptr;
  /// Which of the combiner's operands is the element (the other is the
  /// output's region argument).
  unsigned elementOperand = 0;
  gpu::AllReduceOperation kind = gpu::AllReduceOperation::ADD;
  /// The loops' static sizes; the last is the row length.
  SmallVector<int64_t> ranges;
  /// The product of the outer sizes: the number of rows.
  int64_t rows = 1;
};
} // namespace

/// The subgroup reduction `op` performs, if gpu.subgroup_reduce has it.
static std::optional<gpu::AllReduceOperation> getReductionKind(Operation *op) {
  using Kind = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return Kind::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Kind::MUL; })
      .Case<arith::MaximumFOp>([](auto) { return Kind::MAXIMUMF; })
      .Case<arith::MinimumFOp>([](auto) { return Kind::MINIMUMF; })
      .Case<arith::MaxNumFOp>([](auto) { return Kind::MAXNUMF; })
      .Case<arith::MinNumFOp>([](auto) { return Kind::MINNUMF; })
      .Case<arith::MaxSIOp>([](auto) { return Kind::MAXSI; })
      .Case<arith::MinSIOp>([](auto) { return Kind::MINSI; })
      .Case<arith::MaxUIOp>([](auto) { return Kind::MAXUI; })
      .Case<arith::MinUIOp>([](auto) { return Kind::MINUI; })
      .Case<arith::AndIOp>([](auto) { return Kind::AND; })
      .Case<arith::OrIOp>([](auto) { return Kind::OR; })
      .Case<arith::XOrIOp>([](auto) { return Kind::XOR; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The value that `kind` leaves any other unchanged with.
static TypedAttr getIdentity(gpu::AllReduceOperation kind, Type type) {
  using Kind = gpu::AllReduceOperation;
  if (auto f = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    if (!llvm::APFloat::semanticsHasInf(sem)) // no identity for min and max
      return {};
    switch (kind) {
    case Kind::ADD: // -0 + x is x, also for x = -0
      return FloatAttr::get(f, llvm::APFloat::getZero(sem, /*Negative=*/true));
    case Kind::MUL:
      return FloatAttr::get(f, llvm::APFloat::getOne(sem));
    case Kind::MAXIMUMF:
    case Kind::MAXNUMF:
      return FloatAttr::get(f, llvm::APFloat::getInf(sem, /*Negative=*/true));
    case Kind::MINIMUMF:
    case Kind::MINNUMF:
      return FloatAttr::get(f, llvm::APFloat::getInf(sem, /*Negative=*/false));
    default:
      return {};
    }
  }
  auto i = cast<IntegerType>(type);
  unsigned bits = i.getWidth();
  switch (kind) {
  case Kind::ADD:
  case Kind::OR:
  case Kind::XOR:
  case Kind::MAXUI:
    return IntegerAttr::get(i, llvm::APInt::getZero(bits));
  case Kind::MUL:
    return IntegerAttr::get(i, llvm::APInt(bits, 1));
  case Kind::AND:
  case Kind::MINUI:
    return IntegerAttr::get(i, llvm::APInt::getAllOnes(bits));
  case Kind::MAXSI:
    return IntegerAttr::get(i, llvm::APInt::getSignedMinValue(bits));
  case Kind::MINSI:
    return IntegerAttr::get(i, llvm::APInt::getSignedMaxValue(bits));
  default:
    return {};
  }
}

/// `op` as a row reduction, or nullopt.
static std::optional<RowReduction> matchRowReduction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumRegions() != 1 || op->getRegion(0).empty())
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.empty() || llvm::count(iterators, utils::IteratorType::reduction) != 1 ||
      iterators.back() != utils::IteratorType::reduction)
    return std::nullopt;
  RowReduction red;
  red.op = op;
  red.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(red.ranges, [](int64_t r) { return ShapedType::isDynamic(r) || r == 0; }) ||
      red.ranges.back() < kMinRowLength)
    return std::nullopt; // a launch of no blocks is an error on the GPU
  for (int64_t r : ArrayRef<int64_t>(red.ranges).drop_back())
    red.rows *= r;
  // Each row writes its own output element, which does not move along the
  // row: the output's map reads every outer loop once (and constant
  // zeros), never the row's.
  OpOperand *init = op.getDpsInitOperand(0);
  unsigned rowDim = iterators.size() - 1;
  AffineMap outMap = op.getMatchingIndexingMap(init);
  if (!outMap.isProjectedPermutation(/*allowZeroInResults=*/true) ||
      outMap.isFunctionOfDim(rowDim))
    return std::nullopt;
  for (unsigned d = 0; d < rowDim; ++d)
    if (!outMap.isFunctionOfDim(d))
      return std::nullopt;
  // Lanes read consecutive elements: every input that moves along the row
  // has it as its innermost, unit-stride dimension. Otherwise (a reduction
  // over columns) one thread a row is the coalesced mapping: neighbouring
  // threads read neighbouring elements.
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!map.isFunctionOfDim(rowDim))
      continue;
    auto type = dyn_cast<MemRefType>(in->get().getType());
    AffineExpr row = getAffineDimExpr(rowDim, op.getContext());
    if (!type || map.getResults().back() != row ||
        llvm::any_of(map.getResults().drop_back(),
                      [&](AffineExpr e) { return e.isFunctionOfDim(rowDim); }))
      return std::nullopt;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
      return std::nullopt;
  }
  Type elementType = getElementTypeOrSelf(init->get().getType());
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() > 32)
    return std::nullopt;

  // out = combine(element, out): the output's argument read once, by the
  // op whose result the body yields, and only there.
  Block &body = op->getRegion(0).front();
  BlockArgument outArg = op.getMatchingBlockArgument(init);
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1 || !outArg.hasOneUse())
    return std::nullopt;
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  if (!combiner || combiner->getBlock() != &body || combiner->getNumOperands() != 2 ||
      !combiner->getResult(0).hasOneUse() || *outArg.getUsers().begin() != combiner ||
      combiner->getOperand(0) == combiner->getOperand(1))
    return std::nullopt;
  std::optional<gpu::AllReduceOperation> kind = getReductionKind(combiner);
  if (!kind || !getIdentity(*kind, elementType))
    return std::nullopt;
  red.combiner = combiner;
  red.elementOperand = combiner->getOperand(0) == outArg ? 1 : 0;
  red.kind = *kind;
  return red;
}

/// The linalg.fill of `red`'s output that the op reads (findFillToAbsorb),
/// where the kernel writes all the fill wrote: the output has one element a
/// row. nullptr otherwise.
static linalg::FillOp findAbsorbableFill(RowReduction red) {
  auto type = dyn_cast<MemRefType>(red.op.getDpsInitOperand(0)->get().getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() != red.rows)
    return nullptr;
  return findFillToAbsorb(red.op);
}

/// Replaces `red.op` by its kernel.
static void buildKernel(RowReduction red) {
  linalg::LinalgOp op = red.op;
  Location loc = op.getLoc();
  OpBuilder b(op);
  int64_t rowLength = red.ranges.back(), rows = red.rows;
  int64_t lanes = std::min<int64_t>(kWarpSize, llvm::PowerOf2Ceil(rowLength));
  int64_t rowsPerBlock = std::min<int64_t>(kBlockThreads / lanes, llvm::PowerOf2Ceil(rows));
  rowsPerBlock = std::max<int64_t>(rowsPerBlock, kWarpSize / lanes);
  int64_t blocks = llvm::divideCeil(rows, rowsPerBlock);

  linalg::FillOp fill = findAbsorbableFill(red);
  Value initial = fill ? fill.getInputs()[0] : Value();
  if (fill)
    fill->erase();

  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value one = idx(1);
  auto launch = gpu::LaunchOp::create(b, loc, idx(blocks), one, one, idx(lanes),
                                      idx(rowsPerBlock), one);
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToStart(&kernel);
  Value lane = launch.getThreadIds().x;
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, idx(rowsPerBlock)),
      launch.getThreadIds().y);
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, idx(rows));
  Value safeRow = arith::SelectOp::create(b, loc, exists, row, idx(0));
  // The row's outer loop indices, the last fastest.
  SmallVector<Value> ivs(red.ranges.size() - 1);
  Value rest = safeRow;
  for (int64_t d = static_cast<int64_t>(ivs.size()) - 1; d >= 0; --d) {
    ivs[d] = arith::RemUIOp::create(b, loc, rest, idx(red.ranges[d]));
    rest = arith::DivUIOp::create(b, loc, rest, idx(red.ranges[d]));
  }

  OpOperand *init = op.getDpsInitOperand(0);
  Type elementType = getElementTypeOrSelf(init->get().getType());
  Value identity = arith::ConstantOp::create(b, loc, getIdentity(red.kind, elementType));
  unsigned accOperand = 1 - red.elementOperand;
  Block &body = op->getRegion(0).front();
  auto loop = scf::ForOp::create(
      b, loc, lane, idx(rowLength), idx(lanes), ValueRange{identity},
      [&](OpBuilder &lb, Location l, Value k, ValueRange iter) {
        SmallVector<Value> loopIvs(ivs);
        loopIvs.push_back(k);
        IRMapping mapping;
        for (OpOperand *in : op.getDpsInputOperands()) {
          Value value = in->get();
          if (isa<MemRefType>(value.getType()))
            value = memref::LoadOp::create(
                lb, l, value, applyIndexingMap(lb, l, op.getMatchingIndexingMap(in), loopIvs));
          mapping.map(op.getMatchingBlockArgument(in), value);
        }
        for (Operation &inner : body.without_terminator()) {
          if (&inner == red.combiner)
            continue;
          if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
            mapping.map(index.getResult(), loopIvs[index.getDim()]);
            continue;
          }
          lb.clone(inner, mapping);
        }
        Operation *fold = lb.clone(*red.combiner, mapping);
        fold->setOperand(accOperand, iter[0]);
        fold->setOperand(red.elementOperand,
                         mapping.lookupOrDefault(red.combiner->getOperand(red.elementOperand)));
        scf::YieldOp::create(lb, l, fold->getResult(0));
      });
  std::optional<uint32_t> cluster;
  if (lanes < kWarpSize)
    cluster = static_cast<uint32_t>(lanes);
  Value total = gpu::SubgroupReduceOp::create(b, loc, loop.getResult(0), red.kind,
                                              /*uniform=*/true, cluster);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, idx(0));
  Value writes = arith::AndIOp::create(b, loc, exists, first);
  auto store = scf::IfOp::create(b, loc, writes, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  SmallVector<Value> outIvs(ivs);
  outIvs.push_back(idx(0)); // the output's map does not read it
  Value out = init->get();
  SmallVector<Value> at = applyIndexingMap(b, loc, op.getMatchingIndexingMap(init), outIvs);
  Value old = initial ? initial : memref::LoadOp::create(b, loc, out, at).getResult();
  Operation *fold = b.clone(*red.combiner);
  fold->setOperand(accOperand, old);
  fold->setOperand(red.elementOperand, total);
  memref::StoreOp::create(b, loc, fold->getResult(0), out, at);
  b.setInsertionPointToEnd(&kernel);
  gpu::TerminatorOp::create(b, loc);
  op->erase();
}

void mlir::dltune::buildGpuRowReductions(ModuleOp module) {
  SmallVector<RowReduction> found;
  module.walk([&](linalg::LinalgOp op) {
    if (op->getParentOfType<gpu::LaunchOp>())
      return;
    if (std::optional<RowReduction> red = matchRowReduction(op))
      found.push_back(*red);
  });
  for (RowReduction &red : found)
    buildKernel(red);
}

LogicalResult mlir::dltune::lowerSubgroupReducesToShuffles(ModuleOp module) {
  RewritePatternSet patterns(module.getContext());
  populateGpuLowerSubgroupReduceToShufflePatterns(patterns, kWarpSize);
  populateGpuLowerClusteredSubgroupReduceToShufflePatterns(patterns, kWarpSize);
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    return module.emitError() << "dltune-lower-gpu: subgroup reductions did not lower";
  bool left = false;
  module.walk([&](gpu::SubgroupReduceOp) { left = true; });
  if (left)
    return module.emitError() << "dltune-lower-gpu: a subgroup reduction has no shuffle lowering";
  return success();
}
