//===- GpuMatmulEpilogue.cpp - Element-wise ops run by a matmul kernel ----===//
//
// An imported convolution on the GPU is a GEMM (--dltune-conv-to-matmul)
// whose product is cropped to the real pixels, reshaped to NHWC and then
// biased and activated by an element-wise linalg.generic. As its own kernel
// that generic reads the whole product back from memory and writes it again
// (and costs a launch); computed on the accumulators as the matmul kernel
// stores them it costs neither, and the product is never stored.
//
//===----------------------------------------------------------------------===//

#include "GpuMatmulEpilogue.h"
#include "GpuMemRefLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::dltune;

/// Whether `map` (of the generic's `rank` dimensions) names dimensions only,
/// with the last dimension, where it appears, as its last result.
static bool isSupportedOperandMap(AffineMap map, unsigned rank) {
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return false;
    if (dim.getPosition() == rank - 1 && i + 1 != map.getNumResults())
      return false;
  }
  return true;
}

/// Whether the last dimension of the iteration space is a result of `map`.
static bool readsAlongColumns(AffineMap map) {
  return llvm::any_of(map.getResults(), [&](AffineExpr e) {
    return cast<AffineDimExpr>(e).getPosition() == map.getNumDims() - 1;
  });
}

std::optional<MatmulEpilogue> MatmulEpilogue::match(linalg::LinalgOp matmul, int64_t lanes) {
  if (!matmul.hasPureBufferSemantics() || matmul.getNumDpsInits() != 1 || lanes < 1)
    return std::nullopt;
  Value product = matmul.getDpsInits()[0];
  auto productType = dyn_cast<MemRefType>(product.getType());
  if (!productType || !product.getDefiningOp<memref::AllocOp>() ||
      !productType.hasStaticShape() || productType.getRank() < 1)
    return std::nullopt;
  // A matmul's product may reach the generic through a crop and an
  // expansion of its rows, and so may any other 2-D product (split-K's sum
  // of slices is a window kernel writing C, which a convolution's epilogue
  // reads as NHWC); any other op's (a window kernel's) is read as it is:
  // its leading dimensions are the rows.
  bool isMatmul = isa<linalg::MatmulOp>(matmul.getOperation());
  ArrayRef<int64_t> productShape = productType.getShape();
  if (isMatmul && productShape.size() != 2)
    return std::nullopt;
  bool viewedAsMatrix = productShape.size() == 2;

  // The first op after the matmul that is not an allocation, a constant or a
  // view: nothing in between reads or writes memory.
  linalg::GenericOp generic;
  for (Operation *op = matmul->getNextNode(); op && !generic; op = op->getNextNode()) {
    if (auto g = dyn_cast<linalg::GenericOp>(op)) {
      generic = g;
      break;
    }
    bool allocation = isa<memref::AllocOp>(op);
    if (!isa<memref::AllocOp, memref::GetGlobalOp, arith::ConstantOp, ViewLikeOpInterface>(op) ||
        (!allocation && !isMemoryEffectFree(op)))
      return std::nullopt;
  }
  if (!generic || !generic.hasPureBufferSemantics() || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0)
    return std::nullopt;

  MatmulEpilogue e;
  e.generic = generic;
  e.matmulCols = productShape.back();
  e.matmulRows = 1;
  for (int64_t d : productShape.drop_back())
    e.matmulRows *= d;

  // Which input is the product: a view of it through at most a crop (a
  // subview at the origin) and an expansion of its rows.
  std::optional<unsigned> found;
  for (auto [i, input] : llvm::enumerate(generic.getDpsInputs())) {
    Value v = input;
    SmallVector<Operation *> views;
    SmallVector<int64_t> rowShape;
    if (!viewedAsMatrix) {
      if (v != product)
        continue;
      rowShape.assign(productShape.begin(), productShape.end() - 1);
    } else if (auto expand = v.getDefiningOp<memref::ExpandShapeOp>()) {
      SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
      ArrayRef<int64_t> shape = expand.getResultType().getShape();
      if (groups.size() != 2 || groups[1].size() != 1)
        continue;
      rowShape.assign(shape.begin(), shape.end() - 1);
      views.push_back(expand);
      v = expand.getSrc();
    }
    int64_t rows = e.matmulRows, cols = e.matmulCols;
    if (auto crop = viewedAsMatrix ? v.getDefiningOp<memref::SubViewOp>() : memref::SubViewOp()) {
      if (!crop.hasZeroOffset() || !crop.hasUnitStride() ||
          crop.getSourceType().getRank() != 2 || crop.getType().getRank() != 2 ||
          !crop.getType().hasStaticShape())
        continue;
      rows = crop.getType().getDimSize(0);
      cols = crop.getType().getDimSize(1);
      views.push_back(crop);
      v = crop.getSource();
    }
    if (v != product)
      continue;
    if (found)
      return std::nullopt; // read twice: not an element-wise epilogue
    if (rowShape.empty())
      rowShape.push_back(rows);
    int64_t expanded = 1;
    for (int64_t d : rowShape) {
      if (ShapedType::isDynamic(d))
        return std::nullopt;
      expanded *= d;
    }
    if (expanded != rows)
      return std::nullopt;
    found = i;
    e.views = views;
    e.rowShape = rowShape;
    e.rows = rows;
    e.cols = cols;
  }
  if (!found || e.cols % lanes != 0)
    return std::nullopt;
  e.productInput = *found;

  // The generic: identity on the product, every other operand indexed by
  // dimensions, a body of pure scalar ops.
  unsigned rank = generic.getNumLoops();
  if (rank != e.rowShape.size() + 1 ||
      !generic.getMatchingIndexingMap(generic.getDpsInputOperand(e.productInput)).isIdentity())
    return std::nullopt;
  for (OpOperand &operand : generic->getOpOperands()) {
    if (operand.getOperandNumber() == e.productInput)
      continue;
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) {
      if (isa<ShapedType>(operand.get().getType()))
        return std::nullopt;
      continue; // a scalar
    }
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    if (!type.hasStaticShape() || !isSupportedOperandMap(map, rank) ||
        (readsAlongColumns(map) && !isContiguousInLastDim(type)))
      return std::nullopt;
  }
  if (!readsAlongColumns(generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))))
    return std::nullopt;
  for (Operation &op : generic.getBody()->without_terminator())
    if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0 || isa<linalg::IndexOp>(op))
      return std::nullopt;

  // Nothing but the matmul, a fill before it, the views and the generic
  // touches the product. Where the generic writes its result over the
  // product (bufferization reuses the buffer), what follows the generic
  // reads that result, which the kernel stores.
  Value init = generic.getDpsInits()[0];
  bool inPlace = init == generic.getDpsInputs()[e.productInput];
  if (!inPlace && llvm::is_contained(e.views, init.getDefiningOp()))
    return std::nullopt;
  // In place, the output's old value is the product, which the kernel does
  // not store: the body must not read it.
  if (inPlace && !generic.getBody()->getArguments().back().use_empty())
    return std::nullopt;
  // A block writes the output as soon as it is done while others still
  // read A and B: they must not share memory.
  Value outSource = getViewSource(init);
  for (Value operand : matmul.getDpsInputs())
    if (isa<MemRefType>(operand.getType()) && mayShareMemory(getViewSource(operand), outSource))
      return std::nullopt;
  // Nor what the op's body loads (a padded input read in place).
  WalkResult loadsOutput = matmul->walk([&](memref::LoadOp load) {
    return mayShareMemory(getViewSource(load.getMemRef()), outSource) ? WalkResult::interrupt()
                                                                       : WalkResult::advance();
  });
  if (loadsOutput.wasInterrupted())
    return std::nullopt;
  SmallPtrSet<Operation *, 4> allowed(e.views.begin(), e.views.end());
  allowed.insert(matmul);
  allowed.insert(generic);
  // After an in-place generic the views hold its result; with a crop, the
  // rest of the product holds nothing any more (the kernel skips it).
  bool cropped = e.rows < e.matmulRows || e.cols < e.matmulCols;
  auto isAllowed = [&](Operation *user, bool wholeProduct) {
    if (allowed.contains(user))
      return true;
    Block *block = matmul->getBlock();
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (auto fill = dyn_cast<linalg::FillOp>(user);
        fill && fill->getBlock() == block && fill->isBeforeInBlock(matmul))
      return true;
    return inPlace && !(wholeProduct && cropped) && inBlock && generic->isBeforeInBlock(inBlock);
  };
  for (Operation *user : product.getUsers())
    if (!isAllowed(user, /*wholeProduct=*/true))
      return std::nullopt;
  for (Operation *view : e.views)
    for (Operation *user : view->getResult(0).getUsers())
      if (!isAllowed(user, /*wholeProduct=*/false))
        return std::nullopt;
  return e;
}

/// Moves the op defining `v`, and those defining its operands, before
/// `point` where they come after it in its block.
static void hoistDefinition(Value v, Operation *point) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != point->getBlock() || def->isBeforeInBlock(point))
    return;
  for (Value operand : def->getOperands())
    hoistDefinition(operand, point);
  def->moveBefore(point);
}

void MatmulEpilogue::hoistOperandsBefore(Operation *matmul) const {
  for (OpOperand &operand : generic->getOpOperands())
    if (!generic.isDpsInput(&operand) ||
        generic.getDpsInputOperand(productInput) != &operand)
      hoistDefinition(operand.get(), matmul);
  // The body is cloned into the kernel: what it uses from outside too.
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(generic.getRegion(), captured);
  for (Value v : captured)
    hoistDefinition(v, matmul);
}

void MatmulEpilogue::emitStore(OpBuilder &b, Location loc, Value acc, Value row,
                               Value col) const {
  OpBuilder::InsertionGuard guard(b);
  auto accType = cast<VectorType>(acc.getType());
  int64_t lanes = accType.getNumElements();
  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };

  // Rows and columns the crop drops are not stored (a whole vector is in or
  // out: the columns kept are a multiple of the lanes).
  Value keep;
  auto both = [&](Value c) { keep = keep ? arith::AndIOp::create(b, loc, keep, c) : c; };
  if (rows < matmulRows)
    both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, idx(rows)));
  if (cols < matmulCols)
    both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, idx(cols)));
  if (keep) {
    auto inside = scf::IfOp::create(b, loc, keep, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&inside.getThenRegion().front());
  }

  // The element's coordinates in the generic: the row expanded, the column.
  SmallVector<Value> dims;
  int64_t stride = rows;
  for (int64_t d : rowShape) {
    stride /= d;
    Value q = arith::DivUIOp::create(b, loc, row, idx(stride));
    dims.push_back(dims.empty() ? q : arith::RemUIOp::create(b, loc, q, idx(d)));
  }
  dims.push_back(col);

  // Per operand of the generic, its value at each lane.
  auto lanesOf = [&](OpOperand &operand) -> SmallVector<Value> {
    Value v = operand.get();
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type)
      return SmallVector<Value>(lanes, v);
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    SmallVector<Value> at;
    for (AffineExpr expr : map.getResults())
      at.push_back(dims[cast<AffineDimExpr>(expr).getPosition()]);
    if (!readsAlongColumns(map))
      return SmallVector<Value>(lanes, memref::LoadOp::create(b, loc, v, at));
    auto vecType = VectorType::get({lanes}, type.getElementType());
    int64_t align = getVectorAlignment(type, lanes);
    Value loaded = vector::LoadOp::create(b, loc, vecType, v, at, false, llvm::MaybeAlign(align));
    SmallVector<Value> out;
    for (int64_t l = 0; l < lanes; ++l)
      out.push_back(vector::ExtractOp::create(b, loc, loaded, l));
    return out;
  };
  Block *body = generic.getBody();
  SmallVector<SmallVector<Value>> args;
  for (OpOperand &operand : generic->getOpOperands()) {
    bool isProduct = generic.isDpsInput(&operand) &&
                     generic.getDpsInputOperand(productInput) == &operand;
    if (isProduct) {
      SmallVector<Value> values;
      for (int64_t l = 0; l < lanes; ++l)
        values.push_back(vector::ExtractOp::create(b, loc, acc, l));
      args.push_back(values);
    } else if (body->getArgument(operand.getOperandNumber()).use_empty()) {
      args.push_back(SmallVector<Value>(lanes, Value())); // output not read
    } else {
      args.push_back(lanesOf(operand));
    }
  }

  // The body, once a lane.
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<Value> results;
  for (int64_t l = 0; l < lanes; ++l) {
    IRMapping map;
    for (auto [arg, values] : llvm::zip(body->getArguments(), args))
      if (values[l])
        map.map(arg, values[l]);
    for (Operation &op : body->without_terminator())
      b.clone(op, map);
    results.push_back(map.lookupOrDefault(yield.getOperand(0)));
  }

  OpOperand *out = generic.getDpsInitOperand(0);
  auto outType = cast<MemRefType>(out->get().getType());
  auto vecType = VectorType::get({lanes}, outType.getElementType());
  Value vec = vector::FromElementsOp::create(b, loc, vecType, results);
  SmallVector<Value> at;
  for (AffineExpr expr : generic.getMatchingIndexingMap(out).getResults())
    at.push_back(dims[cast<AffineDimExpr>(expr).getPosition()]);
  int64_t align = getVectorAlignment(outType, lanes);
  vector::StoreOp::create(b, loc, vec, out->get(), at, false, llvm::MaybeAlign(align));
}

Value MatmulEpilogue::getOutputBuffer() const {
  return getViewSource(generic.getDpsInits()[0]);
}

void MatmulEpilogue::eraseAbsorbed(RewriterBase &rewriter) const {
  rewriter.eraseOp(generic);
  for (Operation *view : views)
    if (view->use_empty())
      rewriter.eraseOp(view);
}
