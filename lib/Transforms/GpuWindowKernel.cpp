//===- GpuWindowKernel.cpp - Window reductions with register tiles --------===//
//
// The kernel, for an op whose parallel loops are p_0 .. p_{P-1} (the lanes
// along p_{P-1}, the outputs along p_{P-2}) and whose other loops reduce:
//
//   item = block.x * threads + thread.x  (items past the end compute item
//                                         0's points and store nothing)
//   (p_0, .., o0 / outputs, x0 / vector) = item, the last fastest
//   acc[j] = the fill's value, or out[.., o0 + j, x0 ..]       j < outputs
//   for each reduction loop, in order:
//     acc[j] = body(inputs at (.., o0 + j, x0 .., r ..), acc[j])
//   out[.., o0 + j, x0 ..] = acc[j] (or the epilogue of it), o0 + j inside
//
// Neighbouring threads take neighbouring vectors of channels: loads and
// stores along NHWC's channels are coalesced. Each output is reduced in the
// loops' order, as the CPU lowering does, so results are the same bits.
// Points past a ragged last group of outputs are clamped to the last one
// (their loads stay inside) and not stored.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/GpuWindowKernel.h"
#include "dltune/Transforms/GpuRowReduction.h"
#include "GpuKernelTiles.h"
#include "GpuLaneVectorizer.h"
#include "GpuMatmulEpilogue.h"
#include "GpuMemRefLayout.h"

#include "dltune/Dialect/DLTuneDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dltune;

GpuWindowTiles GpuWindowTiles::fromValues(const std::map<std::string, int64_t> &values) {
  GpuWindowTiles t;
  auto read = [&](const char *name, int64_t &field) {
    if (auto it = values.find(name); it != values.end())
      field = it->second;
  };
  read("vector", t.vector);
  read("outputs", t.outputs);
  read("block_threads", t.blockThreads);
  return t;
}

DictionaryAttr GpuWindowTiles::toAttr(MLIRContext *ctx) const {
  Builder b(ctx);
  return b.getDictionaryAttr({b.getNamedAttr("vector", b.getI64IntegerAttr(vector)),
                              b.getNamedAttr("outputs", b.getI64IntegerAttr(outputs)),
                              b.getNamedAttr("block_threads", b.getI64IntegerAttr(blockThreads))});
}

std::optional<GpuWindowTiles> GpuWindowTiles::fromAttr(DictionaryAttr attr) {
  std::optional<std::map<std::string, int64_t>> values =
      readPositiveTileEntries(attr, {"vector", "outputs", "block_threads"});
  return values ? std::optional<GpuWindowTiles>(fromValues(*values)) : std::nullopt;
}

bool mlir::dltune::isGpuWindowOpKind(Operation *op) {
  return isa<linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcSumOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcMinOp>(op);
}

/// Elements of 1, 2, 4, 8 or 16 bytes: vector accesses of a power of two
/// of them are aligned as getVectorAlignment says.
static bool hasPowerOfTwoBytes(Type type) {
  Type elem = getElementTypeOrSelf(type);
  return elem.isIntOrFloat() && elem.getIntOrFloatBitWidth() % 8 == 0 &&
         llvm::isPowerOf2_64(elem.getIntOrFloatBitWidth() / 8);
}

/// The parallel and the reduction loops of `op`, in order.
static void splitLoops(linalg::LinalgOp op, SmallVectorImpl<unsigned> &parallel,
                       SmallVectorImpl<unsigned> &reduction) {
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (type == utils::IteratorType::parallel ? parallel : reduction).push_back(d);
}

std::string mlir::dltune::whyNotGpuWindowOp(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return "it has more than one output";
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return "it has no body";
  SmallVector<unsigned> parallel, reduction;
  splitLoops(op, parallel, reduction);
  if (reduction.empty())
    return "it has no reduction loop";
  if (parallel.empty())
    return "it has no parallel loop";
  for (int64_t r : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(r) || r == 0)
      return "its loops are not all static and non-empty";
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() != parallel.size())
    return "its output is not indexed by its parallel loops in order";
  for (auto [i, expr] : llvm::enumerate(outMap.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != parallel[i])
      return "its output is not indexed by its parallel loops in order";
  }
  for (Value operand : op->getOperands())
    if (!hasPowerOfTwoBytes(operand.getType()))
      return "an operand's elements are not 1, 2, 4, 8 or 16 bytes";
  Block &body = op->getRegion(0).front();
  if (body.getTerminator()->getNumOperands() != 1)
    return "its body does not yield one value";
  for (Operation &inner : body.without_terminator())
    if (!isa<memref::LoadOp, tensor::ExtractOp>(inner) &&
        (!isMemoryEffectFree(&inner) || inner.getNumRegions() != 0))
      return "its body has an op with memory effects or regions";
  return "";
}

std::string mlir::dltune::whyNotGpuWindowKernel(linalg::LinalgOp op,
                                                const GpuWindowTiles &tiles) {
  if (std::string why = whyNotGpuWindowOp(op); !why.empty())
    return why;
  SmallVector<unsigned> parallel, reduction;
  splitLoops(op, parallel, reduction);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t laneRange = ranges[parallel.back()];
  if (!llvm::isPowerOf2_64(tiles.vector) || laneRange % tiles.vector != 0)
    return "vector = " + std::to_string(tiles.vector) +
           " must be a power of two dividing the innermost parallel loop (" +
           std::to_string(laneRange) + ")";
  if (tiles.outputs < 1 || tiles.outputs > 16 || (parallel.size() < 2 && tiles.outputs != 1))
    return "outputs = " + std::to_string(tiles.outputs) +
           " must be 1 to 16 (1 without a second parallel loop)";
  if (tiles.blockThreads < 32 || tiles.blockThreads > 1024 || tiles.blockThreads % 32 != 0)
    return "block_threads = " + std::to_string(tiles.blockThreads) +
           " must be a multiple of 32 up to 1024";
  if (tiles.vector * tiles.outputs > 64)
    return "a thread's tile (vector x outputs) must be at most 64 elements";
  return "";
}

namespace {
/// One op and its kernel's tiles.
class WindowKernelBuilder {
public:
  WindowKernelBuilder(linalg::LinalgOp op, const GpuWindowTiles &tiles)
      : op(op), tiles(tiles), ranges(op.getStaticLoopRanges()) {
    splitLoops(op, parallel, reduction);
    laneDim = parallel.back();
    if (parallel.size() >= 2)
      outDim = parallel[parallel.size() - 2];
  }

  /// Whether the kernel may compute the op: its output is contiguous along
  /// the lanes (or one lane), and not a buffer it reads (a block would
  /// store while others still read). Buffers that only may share memory
  /// (two arguments) are taken to be distinct, as the element-wise loops
  /// take them: bufferization never writes a window op's output over its
  /// own live input.
  bool canBuild() const;
  void build(bool fuseEpilogues);

private:
  /// How an input operand is read for a vector of lanes: nullopt where the
  /// lanes do not read it as one vector (the body then runs once a lane).
  std::optional<LaneShape> getInputShape(OpOperand *in) const;
  /// Whether the body runs once for all lanes (LaneVectorizer).
  bool analyzeVectorized(LaneVectorizer &vectorizer) const;
  /// The body at loop indices `ivs` (the lane loop's at its first lane)
  /// folded into `acc`.
  Value emitStep(OpBuilder &b, Location loc, ArrayRef<Value> ivs, Value acc,
                 LaneVectorizer *vectorizer) const;

  mutable linalg::LinalgOp op; // op handles are not const-correct
  GpuWindowTiles tiles;
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> parallel, reduction;
  unsigned laneDim = 0;
  std::optional<unsigned> outDim;
};
} // namespace

bool WindowKernelBuilder::canBuild() const {
  // Vectors of the output need its channels contiguous.
  auto outType = cast<MemRefType>(op.getDpsInits()[0].getType());
  if (tiles.vector > 1 && !isContiguousInLastDim(outType))
    return false;
  Value out = getViewSource(op.getDpsInits()[0]);
  for (OpOperand *in : op.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType()) && getViewSource(in->get()) == out)
      return false;
  return !loadsFrom(op, out);
}

std::optional<LaneShape> WindowKernelBuilder::getInputShape(OpOperand *in) const {
  auto type = dyn_cast<MemRefType>(in->get().getType());
  if (!type)
    return LaneShape::Uniform; // a scalar
  AffineMap map = op.getMatchingIndexingMap(in);
  if (!map.isFunctionOfDim(laneDim))
    return LaneShape::Uniform;
  if (!isIndexedInnermostBy(map, laneDim) || !isContiguousInLastDim(type))
    return std::nullopt;
  return LaneShape::Varying;
}

bool WindowKernelBuilder::analyzeVectorized(LaneVectorizer &vectorizer) const {
  for (OpOperand *in : op.getDpsInputOperands()) {
    std::optional<LaneShape> shape = getInputShape(in);
    if (!shape)
      return false;
    vectorizer.setArgumentShape(op.getMatchingBlockArgument(in), *shape);
  }
  vectorizer.setArgumentShape(op.getMatchingBlockArgument(op.getDpsInitOperand(0)),
                              LaneShape::Varying);
  return vectorizer.analyze();
}

Value WindowKernelBuilder::emitStep(OpBuilder &b, Location loc, ArrayRef<Value> ivs, Value acc,
                                    LaneVectorizer *vectorizer) const {
  Block &body = op->getRegion(0).front();
  BlockArgument outArg = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  int64_t lanes = tiles.vector;
  if (vectorizer) {
    IRMapping map;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value value = in->get();
      if (auto type = dyn_cast<MemRefType>(value.getType())) {
        SmallVector<Value> at = applyIndexingMap(b, loc, op.getMatchingIndexingMap(in), ivs);
        if (*getInputShape(in) == LaneShape::Varying)
          value = vector::LoadOp::create(b, loc, VectorType::get({lanes}, type.getElementType()),
                                         value, at, false,
                                         llvm::MaybeAlign(getVectorAlignment(type, lanes)));
        else
          value = memref::LoadOp::create(b, loc, value, at);
      }
      map.map(op.getMatchingBlockArgument(in), value);
    }
    map.map(outArg, acc);
    return vectorizer->emit(b, loc, ivs, map);
  }
  // The body once a lane.
  SmallVector<Value> results;
  for (int64_t l = 0; l < lanes; ++l) {
    SmallVector<Value> laneIvs(ivs);
    if (l)
      laneIvs[laneDim] = arith::AddIOp::create(b, loc, ivs[laneDim],
                                               arith::ConstantIndexOp::create(b, loc, l));
    IRMapping map;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value value = in->get();
      if (isa<MemRefType>(value.getType()))
        value = memref::LoadOp::create(b, loc, value,
                                       applyIndexingMap(b, loc, op.getMatchingIndexingMap(in), laneIvs));
      map.map(op.getMatchingBlockArgument(in), value);
    }
    map.map(outArg, vector::ExtractOp::create(b, loc, acc, l));
    for (Operation &inner : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner))
        map.map(index.getResult(), laneIvs[index.getDim()]);
      else
        b.clone(inner, map);
    }
    results.push_back(map.lookupOrDefault(body.getTerminator()->getOperand(0)));
  }
  return vector::FromElementsOp::create(b, loc, cast<VectorType>(acc.getType()), results);
}

void WindowKernelBuilder::build(bool fuseEpilogues) {
  Location loc = op.getLoc();
  int64_t lanes = tiles.vector;
  int64_t laneGroups = ranges[laneDim] / lanes;
  int64_t outRange = outDim ? ranges[*outDim] : 1;
  int64_t outGroups = llvm::divideCeil(outRange, tiles.outputs);
  bool ragged = outRange % tiles.outputs != 0;
  int64_t items = laneGroups * outGroups;
  for (unsigned d : parallel)
    if (d != laneDim && d != outDim)
      items *= ranges[d];
  int64_t blocks = llvm::divideCeil(items, tiles.blockThreads);

  std::optional<MatmulEpilogue> epilogue;
  if (fuseEpilogues)
    epilogue = MatmulEpilogue::match(op, lanes);
  if (epilogue)
    epilogue->hoistOperandsBefore(op);
  linalg::FillOp fill = findFillToAbsorb(op);
  Value initial = fill ? fill.getInputs()[0] : Value();
  if (fill)
    fill->erase();

  OpBuilder b(op);
  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value one = idx(1);
  auto launch =
      gpu::LaunchOp::create(b, loc, idx(blocks), one, one, idx(tiles.blockThreads), one, one);
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToStart(&kernel);
  Value item = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, idx(tiles.blockThreads)),
      launch.getThreadIds().x);
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, item, idx(items));
  Value rest = arith::SelectOp::create(b, loc, exists, item, idx(0));
  // The item's parallel indices, the lanes' fastest, then the outputs'.
  SmallVector<Value> ivs(op.getNumLoops());
  auto take = [&](int64_t extent) {
    Value q = arith::RemUIOp::create(b, loc, rest, idx(extent));
    rest = arith::DivUIOp::create(b, loc, rest, idx(extent));
    return q;
  };
  ivs[laneDim] = arith::MulIOp::create(b, loc, take(laneGroups), idx(lanes));
  Value o0;
  if (outDim)
    ivs[*outDim] = o0 = arith::MulIOp::create(b, loc, take(outGroups), idx(tiles.outputs));
  for (unsigned d : llvm::reverse(parallel))
    if (d != laneDim && d != outDim)
      ivs[d] = take(ranges[d]);

  // Output point j: the outputs' index o0 + j, clamped to the last point.
  auto pointIvs = [&](OpBuilder &pb, int64_t j) {
    SmallVector<Value> at(ivs);
    if (outDim && j > 0) {
      Value o = arith::AddIOp::create(pb, loc, o0, arith::ConstantIndexOp::create(pb, loc, j));
      if (ragged)
        o = arith::MinUIOp::create(pb, loc, o,
                                   arith::ConstantIndexOp::create(pb, loc, outRange - 1));
      at[*outDim] = o;
    }
    return at;
  };
  auto outIndices = [&](ArrayRef<Value> at) {
    SmallVector<Value> indices;
    for (unsigned d : parallel)
      indices.push_back(at[d]);
    return indices;
  };

  Value out = op.getDpsInits()[0];
  auto outType = cast<MemRefType>(out.getType());
  auto accType = VectorType::get({lanes}, outType.getElementType());
  int64_t outAlign = getVectorAlignment(outType, lanes);
  SmallVector<Value> accs;
  for (int64_t j = 0; j < tiles.outputs; ++j)
    accs.push_back(initial ? vector::BroadcastOp::create(b, loc, accType, initial).getResult()
                           : vector::LoadOp::create(b, loc, accType, out,
                                                    outIndices(pointIvs(b, j)), false,
                                                    llvm::MaybeAlign(outAlign))
                                 .getResult());

  LaneVectorizer vectorizer(&op->getRegion(0).front(), lanes, laneDim);
  bool vectorized = analyzeVectorized(vectorizer);
  SmallVector<Value> lbs, ubs, steps;
  for (unsigned d : reduction) {
    lbs.push_back(idx(0));
    ubs.push_back(idx(ranges[d]));
    steps.push_back(one);
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, accs,
      [&](OpBuilder &lb, Location l, ValueRange reductionIvs, ValueRange iter) {
        scf::ValueVector next;
        for (int64_t j = 0; j < tiles.outputs; ++j) {
          SmallVector<Value> at = pointIvs(lb, j);
          for (auto [d, iv] : llvm::zip(reduction, reductionIvs))
            at[d] = iv;
          next.push_back(emitStep(lb, l, at, iter[j], vectorized ? &vectorizer : nullptr));
        }
        return next;
      });

  auto store = scf::IfOp::create(b, loc, exists, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  for (int64_t j = 0; j < tiles.outputs; ++j) {
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Value> at(ivs);
    if (outDim && j > 0) {
      at[*outDim] = arith::AddIOp::create(b, loc, o0, idx(j));
      if (ragged) {
        Value inside =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at[*outDim], idx(outRange));
        auto guardIf = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
        b.setInsertionPointToStart(&guardIf.getThenRegion().front());
      }
    }
    Value acc = nest.results[j];
    if (!epilogue) {
      vector::StoreOp::create(b, loc, acc, out, outIndices(at), false,
                              llvm::MaybeAlign(outAlign));
      continue;
    }
    // The epilogue's row: the output's indices but the last, flattened.
    Value row = idx(0);
    for (unsigned d : ArrayRef<unsigned>(parallel).drop_back())
      row = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, row, idx(ranges[d])),
                                  at[d]);
    epilogue->emitStore(b, loc, acc, row, at[laneDim]);
  }
  b.setInsertionPointToEnd(&kernel);
  gpu::TerminatorOp::create(b, loc);
  if (epilogue) {
    IRRewriter rewriter(op.getContext());
    epilogue->eraseAbsorbed(rewriter);
  }
  op->erase();
}

/// The next op outside GPU kernels with window tiles, or null.
static linalg::LinalgOp findNextWindowOp(ModuleOp module) {
  linalg::LinalgOp found;
  module.walk([&](linalg::LinalgOp op) {
    auto tiles = op->getAttrOfType<DictionaryAttr>(DLTuneDialect::kGpuKernelAttrName);
    if (tiles && !GpuRowTiles::isRowTilesAttr(tiles) &&
        !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) &&
        !op->getParentOfType<gpu::LaunchOp>()) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

LogicalResult mlir::dltune::buildGpuWindowKernels(ModuleOp module, bool fuseEpilogues) {
  // One at a time: a kernel may absorb the next op (its epilogue), tiles
  // and all.
  while (linalg::LinalgOp op = findNextWindowOp(module)) {
    std::optional<GpuWindowTiles> tiles = GpuWindowTiles::fromAttr(
        op->getAttrOfType<DictionaryAttr>(DLTuneDialect::kGpuKernelAttrName));
    if (!tiles)
      return op->emitOpError() << DLTuneDialect::kGpuKernelAttrName
                               << " must be a dictionary of the window kernel's vector, "
                                  "outputs and block_threads";
    if (!op.hasPureBufferSemantics())
      return op->emitOpError() << "a window kernel needs buffers (run after bufferization)";
    if (std::string why = whyNotGpuWindowKernel(op, *tiles); !why.empty())
      return op->emitOpError() << "cannot be a GPU window kernel: " << why;
    WindowKernelBuilder builder(op, *tiles);
    if (!builder.canBuild()) {
      // Left to the element-wise loops, one point a thread, as before.
      op->removeAttr(DLTuneDialect::kGpuKernelAttrName);
      continue;
    }
    builder.build(fuseEpilogues);
  }
  return success();
}
