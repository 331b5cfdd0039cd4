//===- GpuRowReduction.cpp - Reductions along rows, lanes cooperating -----===//
//
// The kernel, for R rows a block and L lanes a row (L = 32, or the longest
// reduction's row length rounded up to a power of two where that is
// shorter; L * R = 256 threads, or fewer for few rows but never below a
// warp), runs its steps in program order:
//
//   row = block.x * R + thread.y          (rows past the end compute row 0's
//                                          values and store nothing)
//   a reduction:
//     acc = identity of the combiner
//     for k = thread.x; k < K; k += L:  acc = combine(acc, body(inputs at row, k))
//     total = gpu.subgroup_reduce(acc) over the L lanes of the row
//     if thread.x == 0 and the row exists:  out[row] = combine(total, out[row])
//   an element-wise op over the same rows:
//     if the row exists: for k = thread.x; k < K; k += L:  out[row, k] = body(...)
//   (where chooseVector allows, k runs over vectors of v elements instead:
//   k = thread.x * v; k < K; k += L * v, the body once on vectors, a
//   reduction's partial results a vector folded before the shuffles)
//   gpu.barrier between two steps where the later touches what an earlier
//   one since the last barrier writes, or the reverse.
//
// Every thread reaches the subgroup_reduce and the barriers (uniform), so
// upstream's shuffle lowering and the CPU emulation's barriers both apply.
// Lanes read consecutive elements of a row: coalesced where the row is
// contiguous. Steps share a kernel only where every element one writes and
// another touches is touched at the same row coordinates (the same linear
// address function of one buffer): a row then depends on nothing but its
// own earlier steps, which its own threads ran before the barrier.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/GpuRowReduction.h"
#include "GpuKernelTiles.h"
#include "GpuLaneVectorizer.h"
#include "GpuMemRefLayout.h"

#include "dltune/Dialect/DLTuneDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dltune;

/// Threads of a block by default, at most; a warp at least.
static constexpr int64_t kBlockThreads = 256;
static constexpr int64_t kWarpSize = 32;

//===----------------------------------------------------------------------===//
// The frame
//===----------------------------------------------------------------------===//

GpuRowTiles GpuRowTiles::getDefault(int64_t longestReduction, int64_t rows, int64_t elemBytes) {
  GpuRowTiles t;
  t.lanes = std::min<int64_t>(kWarpSize, llvm::PowerOf2Ceil(longestReduction));
  t.rows = std::min<int64_t>(kBlockThreads / t.lanes, llvm::PowerOf2Ceil(rows));
  t.rows = std::max<int64_t>(t.rows, kWarpSize / t.lanes);
  t.vector = std::max<int64_t>(1, 16 / std::max<int64_t>(1, elemBytes));
  return t;
}

static constexpr std::pair<const char *, int64_t GpuRowTiles::*> kRowTileFields[] = {
    {"lanes", &GpuRowTiles::lanes}, {"rows", &GpuRowTiles::rows}, {"vector", &GpuRowTiles::vector}};

GpuRowTiles GpuRowTiles::fromValues(const std::map<std::string, int64_t> &values) {
  GpuRowTiles t;
  for (auto [name, field] : kRowTileFields)
    if (auto it = values.find(name); it != values.end())
      t.*field = it->second;
  return t;
}

DictionaryAttr GpuRowTiles::toAttr(MLIRContext *ctx) const {
  Builder b(ctx);
  SmallVector<NamedAttribute> entries;
  for (auto [name, field] : kRowTileFields)
    entries.push_back(b.getNamedAttr(name, b.getI64IntegerAttr(this->*field)));
  return b.getDictionaryAttr(entries);
}

std::optional<GpuRowTiles> GpuRowTiles::fromAttr(DictionaryAttr attr) {
  std::optional<std::map<std::string, int64_t>> values =
      readPositiveTileEntries(attr, {"lanes", "rows", "vector"});
  return values ? std::optional<GpuRowTiles>(fromValues(*values)) : std::nullopt;
}

bool GpuRowTiles::isRowTilesAttr(DictionaryAttr attr) {
  return attr && attr.get("lanes");
}

std::string mlir::dltune::whyNotGpuRowTiles(const GpuRowTiles &t) {
  if (t.lanes < 2 || t.lanes > kWarpSize || !llvm::isPowerOf2_64(t.lanes))
    return "lanes must be a power of two from 2 to 32 (a cluster of a warp)";
  if (t.rows < 1 || !llvm::isPowerOf2_64(t.rows))
    return "rows must be a power of two";
  // Shuffles need whole warps: a row's lanes never straddle two.
  if (t.lanes * t.rows < kWarpSize || t.lanes * t.rows > 1024)
    return "lanes x rows must be 32 to 1024 threads";
  if (t.vector < 1 || t.vector > 16 || !llvm::isPowerOf2_64(t.vector))
    return "vector must be a power of two up to 16";
  return "";
}

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

/// `op` (buffers or tensors) as a row reduction, or nullopt with `why`.
static std::optional<RowReduction> matchRowReduction(linalg::LinalgOp op, std::string &why) {
  auto fail = [&](const char *reason) {
    why = reason;
    return std::nullopt;
  };
  if (!(op.hasPureBufferSemantics() || op.hasPureTensorSemantics()) ||
      op.getNumDpsInits() != 1 || op->getNumRegions() != 1 || op->getRegion(0).empty())
    return fail("a row reduction has one output, and buffers or tensors alone");
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.empty() || llvm::count(iterators, utils::IteratorType::reduction) != 1 ||
      iterators.back() != utils::IteratorType::reduction)
    return fail("a row reduction's only reduction loop is its innermost");
  RowReduction red;
  red.op = op;
  red.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(red.ranges, [](int64_t r) { return ShapedType::isDynamic(r) || r == 0; }) ||
      red.ranges.back() < kMinRowLength)
    return fail("a row reduction needs static, non-empty loops and rows of at least 8 elements");
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
    return fail("a row reduction's output is indexed by its outer loops alone");
  for (unsigned d = 0; d < rowDim; ++d)
    if (!outMap.isFunctionOfDim(d))
      return fail("a row reduction's output is indexed by every outer loop");
  // Lanes read consecutive elements: every input that moves along the row
  // has it as its innermost, unit-stride dimension. Otherwise (a reduction
  // over columns) one thread a row is the coalesced mapping: neighbouring
  // threads read neighbouring elements.
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!map.isFunctionOfDim(rowDim))
      continue;
    if (!isIndexedInnermostBy(map, rowDim))
      return fail("a row reduction's inputs are indexed along the row in their innermost "
                  "dimension");
    auto type = dyn_cast<MemRefType>(in->get().getType());
    if (!type)
      continue; // tensors bufferize contiguous
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
      return fail("a row reduction's inputs are contiguous along the row");
  }
  Type elementType = getElementTypeOrSelf(init->get().getType());
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() > 32)
    return fail("a row reduction's output has integer or float elements of at most 32 bits");

  // out = combine(element, out): the output's argument read once, by the
  // op whose result the body yields, and only there.
  Block &body = op->getRegion(0).front();
  BlockArgument outArg = op.getMatchingBlockArgument(init);
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  const char *notFold = "a row reduction's body is out = combine(element, out) with one arith "
                        "op gpu.subgroup_reduce has";
  if (!yield || yield.getNumOperands() != 1 || !outArg.hasOneUse())
    return fail(notFold);
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  if (!combiner || combiner->getBlock() != &body || combiner->getNumOperands() != 2 ||
      !combiner->getResult(0).hasOneUse() || *outArg.getUsers().begin() != combiner ||
      combiner->getOperand(0) == combiner->getOperand(1))
    return fail(notFold);
  std::optional<gpu::AllReduceOperation> kind = getReductionKind(combiner);
  if (!kind || !getIdentity(*kind, elementType))
    return fail(notFold);
  red.combiner = combiner;
  red.elementOperand = combiner->getOperand(0) == outArg ? 1 : 0;
  red.kind = *kind;
  return red;
}

std::string mlir::dltune::whyNotGpuRowReductionOp(linalg::LinalgOp op) {
  std::string why;
  return matchRowReduction(op, why) ? "" : why;
}

//===----------------------------------------------------------------------===//
// Runs on tensors (what a tuning task of a row kernel holds)
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> getRowShape(ArrayRef<int64_t> ranges);

/// Ops a run steps over on tensors: once bufferized they are views,
/// constants, scalar arithmetic or nothing (what mayRunAcross lets a
/// kernel's steps stand across).
static bool isSkippedOnTensors(Operation *op) {
  if (isa<tensor::EmptyOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
          tensor::ExtractSliceOp>(op))
    return true;
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         llvm::none_of(op->getResultTypes(), llvm::IsaPred<ShapedType>);
}

/// The element-wise part of getRowStepKindOnTensors: `op` (static `ranges`)
/// writes its output through a permutation of its loops, and its loops are
/// `rowShape`'s rows along a row whose operands move innermost, or the
/// rows alone (a row of one element).
static bool isElementwiseRowStepOnTensors(linalg::LinalgOp op, SmallVector<int64_t> ranges,
                                          ArrayRef<int64_t> rowShape) {
  // An element-wise op (matchElementwiseStep): its output indexed by a
  // permutation of its loops.
  if (op.getNumReductionLoops() != 0 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isPermutation())
    return false;
  if (getRowShape(ranges) == rowShape) {
    if (ranges.back() == 1)
      return true;
    // fitToRows: operands along the row move along their innermost
    // dimension.
    unsigned rowDim = ranges.size() - 1;
    return ranges.back() >= kMinRowLength &&
           llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
             AffineMap map = op.getMatchingIndexingMap(&operand);
             return !isa<ShapedType>(operand.get().getType()) || !map.isFunctionOfDim(rowDim) ||
                    isIndexedInnermostBy(map, rowDim);
           });
  }
  ranges.push_back(1); // a row of one element
  return getRowShape(ranges) == rowShape;
}

namespace {
/// What an op is to a kernel over given rows, as far as tensors tell.
enum class RowStepKind { None, Reduction, Elementwise };
} // namespace

/// On tensors: whether `o` may be a step of a kernel over rows `rowShape`:
/// a row reduction of those rows, or an element-wise op or fill that
/// fitToRows would fit by its loops. The memref rules that need buffers
/// (contiguity, the row-local rule) are left to the lowering.
static RowStepKind getRowStepKindOnTensors(Operation *o, ArrayRef<int64_t> rowShape) {
  auto op = dyn_cast<linalg::LinalgOp>(o);
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInits() != 1)
    return RowStepKind::None;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || llvm::any_of(ranges, ShapedType::isDynamic))
    return RowStepKind::None;
  std::string why;
  if (matchRowReduction(op, why))
    return getRowShape(ranges) == rowShape ? RowStepKind::Reduction : RowStepKind::None;
  return isElementwiseRowStepOnTensors(op, ranges, rowShape) ? RowStepKind::Elementwise
                                                             : RowStepKind::None;
}

namespace {
/// What a walk along a run on tensors does at an op: take it as a step (a
/// reduction of the run's rows apart: it begins a run of its own), carry
/// it along (a view or a constant the steps may read through: it goes into
/// the task but is no step), step over it, or end the run.
enum class RunMove { Step, Reduction, Carry, Skip, Stop };
} // namespace

/// `o` on a walk along a run over rows `rowShape`: a step of it, a row
/// reduction of those rows, an op to carry (views, constants, scalar
/// arithmetic), one to step over (a fill that starts another kernel's
/// output, such as the next matmul's C, which that kernel absorbs), or its
/// end.
static RunMove getRunMove(Operation *o, ArrayRef<int64_t> rowShape) {
  switch (getRowStepKindOnTensors(o, rowShape)) {
  case RowStepKind::Reduction:
    return RunMove::Reduction;
  case RowStepKind::Elementwise:
    if (!isa<linalg::FillOp>(o) || llvm::all_of(o->getUsers(), [&](Operation *user) {
          return user->getBlock() == o->getBlock() &&
                 getRowStepKindOnTensors(user, rowShape) != RowStepKind::None;
        }))
      return RunMove::Step;
    return RunMove::Skip;
  case RowStepKind::None:
    break;
  }
  if (isa<linalg::FillOp>(o))
    return RunMove::Skip;
  return isSkippedOnTensors(o) ? RunMove::Carry : RunMove::Stop;
}

/// The rows of the row reduction `op` on tensors, or nullopt.
static std::optional<SmallVector<int64_t>> getRowShapeOnTensors(linalg::LinalgOp op) {
  std::string why;
  std::optional<RowReduction> red = matchRowReduction(op, why);
  if (!red || !op.hasPureTensorSemantics())
    return std::nullopt;
  return getRowShape(red->ranges);
}

/// The ops before `op` on its run over `rowShape`, nearest first, with
/// their moves (none a Stop or a Reduction): back to the run's start, or
/// to an earlier row reduction of the same rows, which `earlier` gets.
static SmallVector<std::pair<Operation *, RunMove>>
walkBackAlongRun(Operation *op, ArrayRef<int64_t> rowShape, Operation *&earlier) {
  SmallVector<std::pair<Operation *, RunMove>> before;
  earlier = nullptr;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    RunMove move = getRunMove(prev, rowShape);
    if (move == RunMove::Reduction)
      earlier = prev;
    if (move == RunMove::Stop || move == RunMove::Reduction)
      break;
    before.push_back({prev, move});
  }
  return before;
}

SmallVector<Operation *> mlir::dltune::getGpuRowRun(linalg::LinalgOp op) {
  std::optional<SmallVector<int64_t>> rowShape = getRowShapeOnTensors(op);
  if (!rowShape)
    return {op};
  // Before it: the element-wise steps (and the fills) the kernel takes in
  // ahead of its first reduction (RowRun::add), back to the run's start.
  Operation *earlier;
  SmallVector<std::pair<Operation *, RunMove>> before = walkBackAlongRun(op, *rowShape, earlier);
  llvm::erase_if(before, [](auto &entry) { return entry.second == RunMove::Skip; });
  // Leading carried ops feed nothing in the task: left out.
  while (!before.empty() && before.back().second == RunMove::Carry)
    before.pop_back();
  SmallVector<std::pair<Operation *, RunMove>> run(llvm::reverse(before));
  run.push_back({op, RunMove::Reduction});
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    RunMove move = getRunMove(next, *rowShape);
    if (move == RunMove::Stop)
      break;
    if (move != RunMove::Skip)
      run.push_back({next, move});
  }
  // Trailing carried ops compute nothing the task returns.
  while (run.back().second == RunMove::Carry)
    run.pop_back();
  return llvm::to_vector(llvm::make_first_range(run));
}

linalg::LinalgOp mlir::dltune::getEarlierRowReductionOfRun(linalg::LinalgOp op) {
  std::optional<SmallVector<int64_t>> rowShape = getRowShapeOnTensors(op);
  if (!rowShape)
    return {};
  Operation *earlier;
  (void)walkBackAlongRun(op, *rowShape, earlier);
  return earlier ? cast<linalg::LinalgOp>(earlier) : linalg::LinalgOp();
}

namespace {
/// The address an access to a buffer touches, as a linear function of the
/// kernel's row coordinates and the position k along the row: one
/// coefficient each, then the constant. Unknown (nullopt) for a load in a
/// body or a map that is not a projection.
struct RowAccess {
  Value buffer; // the view source
  std::optional<SmallVector<int64_t>> address;
  bool writes = false;
};

/// One op of a row kernel: a reduction of its innermost loop or an
/// element-wise op, over the kernel's rows.
struct RowStep {
  linalg::LinalgOp op;
  std::optional<RowReduction> reduction;
  /// The op's static loop sizes; the last is along the row. An element-wise
  /// op whose loops are all the kernel's rows gets a row of one element
  /// (`virtualRow`: a size-1 loop the op does not have).
  SmallVector<int64_t> ranges;
  bool virtualRow = false;
  /// Its accesses as the kernel's rows see them (empty until fitted to them).
  SmallVector<RowAccess> accesses;
  /// A fill of the reduction's output whose value starts the fold.
  linalg::FillOp absorbedFill;
  /// Consecutive elements of the row a lane computes at once (chooseVector):
  /// one vector load or store each where the operand moves along the row.
  int64_t vector = 1;
};
} // namespace

/// The rows an op of `ranges` (the last along the row) computes: its outer
/// loop sizes other than 1. Ops with equal rows can share a kernel, row
/// coordinate for row coordinate.
static SmallVector<int64_t> getRowShape(ArrayRef<int64_t> ranges) {
  SmallVector<int64_t> rows;
  for (int64_t r : ranges.drop_back())
    if (r != 1)
      rows.push_back(r);
  return rows;
}

/// Where `map` (of an op with loop sizes `ranges`) takes an access to a
/// memref of `type` at row coordinates and k, as a RowAccess address.
/// Loops of size 1 contribute nothing: their index is always 0.
static std::optional<SmallVector<int64_t>> getRowAddress(AffineMap map, ArrayRef<int64_t> ranges,
                                                         MemRefType type) {
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout = getStaticLayout(type);
  if (!layout)
    return std::nullopt;
  // The row coordinate (or k, last) each loop is, or -1 for a size-1 loop.
  SmallVector<int64_t> coordinate;
  int64_t rowCoordinates = 0;
  for (int64_t r : ranges.drop_back())
    coordinate.push_back(r == 1 ? -1 : rowCoordinates++);
  coordinate.push_back(ranges.back() == 1 ? -1 : rowCoordinates);
  SmallVector<int64_t> address(rowCoordinates + 2, 0);
  address.back() = layout->second;
  for (auto [result, stride] : llvm::zip_equal(map.getResults(), layout->first)) {
    if (auto dim = dyn_cast<AffineDimExpr>(result)) {
      if (int64_t c = coordinate[dim.getPosition()]; c >= 0)
        address[c] += stride;
    } else if (auto constant = dyn_cast<AffineConstantExpr>(result)) {
      address.back() += stride * constant.getValue();
    } else {
      return std::nullopt;
    }
  }
  return address;
}

/// The accesses of `op` (loop sizes `ranges`): its memref operands through
/// their maps, the output written, and loads in its body at unknown places.
/// Fails where the body has other memory effects.
static FailureOr<SmallVector<RowAccess>> getRowAccesses(linalg::LinalgOp op,
                                                        ArrayRef<int64_t> ranges) {
  SmallVector<RowAccess> accesses;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    accesses.push_back({getViewSource(operand.get()),
                        getRowAddress(op.getMatchingIndexingMap(&operand), ranges, type),
                        op.isDpsInit(&operand)});
  }
  WalkResult walk = op->getRegion(0).walk([&](Operation *inner) {
    if (auto load = dyn_cast<memref::LoadOp>(inner)) {
      accesses.push_back({getViewSource(load.getMemRef()), std::nullopt, false});
      return WalkResult::advance();
    }
    return isMemoryEffectFree(inner) ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  return accesses;
}

/// Whether two accesses of different steps need the first's step to end
/// (a barrier) before the second's starts: one writes memory the other may
/// touch.
static bool dependsOn(const RowAccess &a, const RowAccess &b) {
  return (a.writes || b.writes) && mayShareMemory(a.buffer, b.buffer);
}

/// Whether the step `a` may share the rows' kernel with `b`: every element
/// either writes that the other may touch is touched by both at the same
/// row coordinates and k (the same address function of one buffer), so a
/// row depends only on that row's earlier steps, which its own threads ran.
static bool isRowLocal(const RowAccess &a, const RowAccess &b) {
  if (!dependsOn(a, b))
    return true;
  return a.buffer == b.buffer && a.address && b.address && *a.address == *b.address;
}

/// `op` as an element-wise step, not yet fitted to rows (fitToRows): all
/// loops parallel and static, its output indexed by every loop once (each
/// point its own element), a body without memory effects but loads.
static std::optional<RowStep> matchElementwiseStep(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.getNumLoops() == 0 ||
      op.getNumReductionLoops() != 0 || op->getNumRegions() != 1 || op->getRegion(0).empty() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isPermutation())
    return std::nullopt;
  RowStep step;
  step.op = op;
  step.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(step.ranges, [](int64_t r) { return ShapedType::isDynamic(r) || r == 0; }) ||
      failed(getRowAccesses(op, step.ranges)))
    return std::nullopt;
  return step;
}

/// `op` as a reduction step (matchRowReduction), fitted to its rows.
static std::optional<RowStep> matchReductionStep(linalg::LinalgOp op) {
  std::string why;
  std::optional<RowReduction> red =
      op.hasPureBufferSemantics() ? matchRowReduction(op, why) : std::nullopt;
  if (!red)
    return std::nullopt;
  FailureOr<SmallVector<RowAccess>> accesses = getRowAccesses(op, red->ranges);
  if (failed(accesses))
    return std::nullopt;
  RowStep step;
  step.op = op;
  step.reduction = red;
  step.ranges = red->ranges;
  step.accesses = std::move(*accesses);
  return step;
}

/// The element-wise `step` as a step of a kernel over rows `rowShape`
/// (getRowShape), or nullopt: its outer loops are the rows and its
/// innermost runs along them, every memref operand that moves along the row
/// along its innermost, unit-stride dimension (lanes read and write
/// consecutive elements), the row at least kMinRowLength long (no warp of
/// mostly idle lanes) or of one element; or all its loops are the rows and
/// each row is one element (a fill of a reduction's output).
static std::optional<RowStep> fitToRows(RowStep step, ArrayRef<int64_t> rowShape) {
  linalg::LinalgOp op = step.op;
  if (getRowShape(step.ranges) != rowShape) {
    SmallVector<int64_t> withRow(step.ranges);
    withRow.push_back(1);
    if (getRowShape(withRow) != rowShape)
      return std::nullopt;
    step.ranges = withRow;
    step.virtualRow = true;
  } else if (step.ranges.back() != 1) {
    if (step.ranges.back() < kMinRowLength)
      return std::nullopt;
    unsigned rowDim = step.ranges.size() - 1;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (!type || !map.isFunctionOfDim(rowDim))
        continue;
      if (!isIndexedInnermostBy(map, rowDim) || !isContiguousInLastDim(type))
        return std::nullopt;
    }
  }
  step.accesses = *getRowAccesses(op, step.ranges);
  return step;
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

namespace {
/// What every step of a row kernel shares: the block's lanes and rows, the
/// row a thread computes and its coordinates.
struct RowKernelFrame {
  int64_t lanes = 0;
  Value lane;
  /// Whether the thread's row exists (threads past the last row compute
  /// row 0's values and store nothing).
  Value exists;
  /// The row's coordinates (getRowShape), the last fastest.
  SmallVector<Value> coordinates;
};
} // namespace

/// The loop indices of `step` at the frame's row and position `k`.
static SmallVector<Value> getStepIvs(OpBuilder &b, Location loc, const RowKernelFrame &frame,
                                     const RowStep &step, Value k) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> ivs;
  unsigned next = 0;
  for (int64_t r : ArrayRef<int64_t>(step.ranges).drop_back())
    ivs.push_back(r == 1 ? zero : frame.coordinates[next++]);
  if (!step.virtualRow)
    ivs.push_back(k);
  return ivs;
}

/// Clones `op`'s body at loop indices `ivs` with its block arguments read
/// as `mapping` says; linalg.index becomes the index. `skip` is not cloned.
static void cloneBody(OpBuilder &b, linalg::LinalgOp op, ArrayRef<Value> ivs, IRMapping &mapping,
                      Operation *skip = nullptr) {
  for (Operation &inner : op->getRegion(0).front().without_terminator()) {
    if (&inner == skip)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
}

/// Whether `operand` of `op` moves along the row (its innermost loop).
static bool movesAlongRow(linalg::LinalgOp op, OpOperand &operand) {
  return isa<MemRefType>(operand.get().getType()) &&
         op.getMatchingIndexingMap(&operand).isFunctionOfDim(op.getNumLoops() - 1);
}

/// Declares the shapes of `step`'s block arguments over a vector of the
/// row's elements: operands moving along the row are vectors (Varying), the
/// others scalars; a reduction's output is its vector of partial results.
static bool analyzeOverVector(LaneVectorizer &vectorizer, const RowStep &step) {
  linalg::LinalgOp op = step.op;
  for (OpOperand &operand : op->getOpOperands()) {
    bool varying = movesAlongRow(op, operand) || (step.reduction && op.isDpsInit(&operand));
    vectorizer.setArgumentShape(op.getMatchingBlockArgument(&operand),
                                varying ? LaneShape::Varying : LaneShape::Uniform);
  }
  return vectorizer.analyze();
}

/// The widest vector (up to 16 bytes of the widest element moving along the
/// row) a lane of `step` can compute at once: it divides the row, every
/// operand moving along the row is aligned for it at every row, and the
/// body runs on vectors (LaneVectorizer's rules). 1 where none.
static int64_t chooseVector(const RowStep &step, int64_t most) {
  linalg::LinalgOp op = step.op;
  if (step.virtualRow || step.ranges.back() == 1)
    return 1;
  int64_t widest = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!movesAlongRow(op, operand))
      continue;
    unsigned bits = cast<MemRefType>(operand.get().getType()).getElementTypeBitWidth();
    if (bits % 8 != 0)
      return 1;
    widest = std::max<int64_t>(widest, bits / 8);
  }
  if (widest == 0)
    return 1;
  for (int64_t vector = std::min<int64_t>(16 / widest, most); vector > 1; vector /= 2) {
    if (step.ranges.back() % vector != 0)
      continue;
    bool aligned = llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
      if (!movesAlongRow(op, operand))
        return true;
      auto type = cast<MemRefType>(operand.get().getType());
      return getVectorAlignment(type, vector) >= vector * type.getElementTypeBitWidth() / 8;
    });
    LaneVectorizer vectorizer(&op->getRegion(0).front(), vector, op.getNumLoops() - 1);
    if (aligned && analyzeOverVector(vectorizer, step))
      return vector;
  }
  return 1;
}

/// The block arguments of `step` at loop indices `ivs` (with a vector, the
/// row's at its first element): with step.vector > 1, vector loads of
/// operands moving along the row, else (and of the others) scalar loads.
/// The output only where the body reads it (a reduction's comes from its
/// accumulator).
static void loadArguments(OpBuilder &b, Location loc, const RowStep &step, ArrayRef<Value> ivs,
                          IRMapping &mapping) {
  linalg::LinalgOp op = step.op;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (op.isDpsInit(&operand) && (step.reduction || arg.use_empty()))
      continue;
    Value value = operand.get();
    if (auto type = dyn_cast<MemRefType>(value.getType())) {
      SmallVector<Value> at = applyIndexingMap(b, loc, op.getMatchingIndexingMap(&operand), ivs);
      if (step.vector > 1 && movesAlongRow(op, operand))
        value = vector::LoadOp::create(
            b, loc, VectorType::get({step.vector}, type.getElementType()), value, at, false,
            llvm::MaybeAlign(getVectorAlignment(type, step.vector)));
      else
        value = memref::LoadOp::create(b, loc, value, at);
    }
    mapping.map(arg, value);
  }
}

/// The vector.reduction that folds a vector as `kind` does.
static vector::CombiningKind getCombiningKind(gpu::AllReduceOperation kind) {
  using Kind = gpu::AllReduceOperation;
  switch (kind) {
  case Kind::ADD:
    return vector::CombiningKind::ADD;
  case Kind::MUL:
    return vector::CombiningKind::MUL;
  case Kind::MINUI:
    return vector::CombiningKind::MINUI;
  case Kind::MINSI:
    return vector::CombiningKind::MINSI;
  case Kind::MINNUMF:
    return vector::CombiningKind::MINNUMF;
  case Kind::MAXUI:
    return vector::CombiningKind::MAXUI;
  case Kind::MAXSI:
    return vector::CombiningKind::MAXSI;
  case Kind::MAXNUMF:
    return vector::CombiningKind::MAXNUMF;
  case Kind::AND:
    return vector::CombiningKind::AND;
  case Kind::OR:
    return vector::CombiningKind::OR;
  case Kind::XOR:
    return vector::CombiningKind::XOR;
  case Kind::MINIMUMF:
    return vector::CombiningKind::MINIMUMF;
  case Kind::MAXIMUMF:
    return vector::CombiningKind::MAXIMUMF;
  }
  llvm_unreachable("a gpu.subgroup_reduce kind");
}

/// The element-wise step: each lane computes every L-th point of its row
/// (every L-th vector of `step.vector` points, the body run once on them).
static void emitElementwiseStep(OpBuilder &b, Location loc, const RowKernelFrame &frame,
                                const RowStep &step) {
  linalg::LinalgOp op = step.op;
  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  auto guard = scf::IfOp::create(b, loc, frame.exists, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard restore(b);
  b.setInsertionPointToStart(&guard.getThenRegion().front());
  Block &body = op->getRegion(0).front();
  Value yielded = body.getTerminator()->getOperand(0);
  OpOperand *init = op.getDpsInitOperand(0);
  auto outType = cast<MemRefType>(init->get().getType());
  Value start = arith::MulIOp::create(b, loc, frame.lane, idx(step.vector));
  scf::ForOp::create(
      b, loc, start, idx(step.ranges.back()), idx(frame.lanes * step.vector), ValueRange{},
      [&](OpBuilder &lb, Location l, Value k, ValueRange) {
        SmallVector<Value> ivs = getStepIvs(lb, l, frame, step, k);
        SmallVector<Value> at = applyIndexingMap(lb, l, op.getMatchingIndexingMap(init), ivs);
        IRMapping mapping;
        if (step.vector > 1) {
          LaneVectorizer vectorizer(&body, step.vector, op.getNumLoops() - 1);
          bool analyzed = analyzeOverVector(vectorizer, step);
          assert(analyzed && "chooseVector analyzed this body");
          (void)analyzed;
          loadArguments(lb, l, step, ivs, mapping);
          Value result = vectorizer.emit(lb, l, ivs, mapping);
          vector::StoreOp::create(lb, l, result, init->get(), at, false,
                                  llvm::MaybeAlign(getVectorAlignment(outType, step.vector)));
          scf::YieldOp::create(lb, l);
          return;
        }
        loadArguments(lb, l, step, ivs, mapping);
        cloneBody(lb, op, ivs, mapping);
        memref::StoreOp::create(lb, l, mapping.lookupOrDefault(yielded), init->get(), at);
        scf::YieldOp::create(lb, l);
      });
}

/// A lane's fold of its row's elements, vector by vector (step.vector > 1):
/// a vector of partial results, one a position of the lane's vectors, run
/// through the whole body, folded into one when the row is done.
static Value emitVectorFold(OpBuilder &b, Location loc, const RowKernelFrame &frame,
                            const RowStep &step, TypedAttr identity) {
  linalg::LinalgOp op = step.op;
  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  auto accType = VectorType::get({step.vector}, identity.getType());
  Value start = arith::MulIOp::create(b, loc, frame.lane, idx(step.vector));
  Block &body = op->getRegion(0).front();
  auto loop = scf::ForOp::create(
      b, loc, start, idx(step.ranges.back()), idx(frame.lanes * step.vector),
      ValueRange{arith::ConstantOp::create(b, loc, SplatElementsAttr::get(accType, identity))},
      [&](OpBuilder &lb, Location l, Value k, ValueRange iter) {
        LaneVectorizer vectorizer(&body, step.vector, op.getNumLoops() - 1);
        bool analyzed = analyzeOverVector(vectorizer, step);
        assert(analyzed && "chooseVector analyzed this body");
        (void)analyzed;
        SmallVector<Value> ivs = getStepIvs(lb, l, frame, step, k);
        IRMapping mapping;
        loadArguments(lb, l, step, ivs, mapping);
        mapping.map(op.getMatchingBlockArgument(op.getDpsInitOperand(0)), iter[0]);
        scf::YieldOp::create(lb, l, vectorizer.emit(lb, l, ivs, mapping));
      });
  return vector::ReductionOp::create(b, loc, getCombiningKind(step.reduction->kind),
                                     loop.getResult(0));
}

/// A lane's fold of every L-th element of its row, the body run once an
/// element.
static Value emitScalarFold(OpBuilder &b, Location loc, const RowKernelFrame &frame,
                            const RowStep &step, TypedAttr identity) {
  const RowReduction &red = *step.reduction;
  linalg::LinalgOp op = red.op;
  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  auto loop = scf::ForOp::create(
      b, loc, frame.lane, idx(step.ranges.back()), idx(frame.lanes),
      ValueRange{arith::ConstantOp::create(b, loc, identity)},
      [&](OpBuilder &lb, Location l, Value k, ValueRange iter) {
        SmallVector<Value> ivs = getStepIvs(lb, l, frame, step, k);
        IRMapping mapping;
        loadArguments(lb, l, step, ivs, mapping);
        cloneBody(lb, op, ivs, mapping, red.combiner);
        Operation *fold = lb.clone(*red.combiner, mapping);
        fold->setOperand(1 - red.elementOperand, iter[0]);
        fold->setOperand(red.elementOperand,
                         mapping.lookupOrDefault(red.combiner->getOperand(red.elementOperand)));
        scf::YieldOp::create(lb, l, fold->getResult(0));
      });
  return loop.getResult(0);
}

/// The reduction step: each lane folds its share of the row from the
/// combiner's identity, the row's lanes combine theirs, the first folds the
/// total into the output (or the absorbed fill's value).
static void emitReductionStep(OpBuilder &b, Location loc, const RowKernelFrame &frame,
                              const RowStep &step) {
  const RowReduction &red = *step.reduction;
  linalg::LinalgOp op = red.op;
  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  OpOperand *init = op.getDpsInitOperand(0);
  TypedAttr identity = getIdentity(red.kind, getElementTypeOrSelf(init->get().getType()));
  unsigned accOperand = 1 - red.elementOperand;
  Value partial = step.vector > 1 ? emitVectorFold(b, loc, frame, step, identity)
                                  : emitScalarFold(b, loc, frame, step, identity);
  std::optional<uint32_t> cluster;
  if (frame.lanes < kWarpSize)
    cluster = static_cast<uint32_t>(frame.lanes);
  Value total = gpu::SubgroupReduceOp::create(b, loc, partial, red.kind,
                                              /*uniform=*/true, cluster);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, frame.lane, idx(0));
  Value writes = arith::AndIOp::create(b, loc, frame.exists, first);
  auto store = scf::IfOp::create(b, loc, writes, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard restore(b);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  SmallVector<Value> ivs = getStepIvs(b, loc, frame, step, idx(0)); // the output's map ignores k
  Value out = init->get();
  SmallVector<Value> at = applyIndexingMap(b, loc, op.getMatchingIndexingMap(init), ivs);
  linalg::FillOp fill = step.absorbedFill;
  Value old = fill ? fill.getInputs()[0]
                                : memref::LoadOp::create(b, loc, out, at).getResult();
  Operation *fold = b.clone(*red.combiner);
  fold->setOperand(accOperand, old);
  fold->setOperand(red.elementOperand, total);
  memref::StoreOp::create(b, loc, fold->getResult(0), out, at);
}

/// The row tiles on `step`'s op where it is a reduction (checked by
/// buildGpuRowReductions), else nullopt.
static std::optional<GpuRowTiles> getRowTiles(const RowStep &step) {
  auto attr = step.op->getAttrOfType<DictionaryAttr>(DLTuneDialect::kGpuKernelAttrName);
  if (!step.reduction || !GpuRowTiles::isRowTilesAttr(attr))
    return std::nullopt;
  return GpuRowTiles::fromAttr(attr);
}

/// Replaces the steps (in program order, one block, nothing between them
/// but allocations and ops without memory effects) by one kernel at the
/// last one: a barrier between two steps where the later touches memory the
/// earlier (or one since the last barrier) writes, or the reverse.
static void buildKernel(std::vector<RowStep> steps) {
  // Fills whose value a reduction starts from are not steps.
  llvm::SmallPtrSet<Operation *, 4> absorbed;
  for (RowStep &step : steps)
    if (step.reduction)
      if ((step.absorbedFill = findAbsorbableFill(*step.reduction)))
        absorbed.insert(step.absorbedFill);
  llvm::erase_if(steps, [&](const RowStep &step) { return absorbed.contains(step.op); });

  SmallVector<int64_t> rowShape = getRowShape(steps.front().ranges);
  int64_t rows = 1, longestReduction = 1;
  for (int64_t r : rowShape)
    rows *= r;
  for (const RowStep &step : steps)
    if (step.reduction)
      longestReduction = std::max(longestReduction, step.ranges.back());
  // The frame: the first reduction's tiles (its run's space), else the
  // default (no cap on the vectors).
  GpuRowTiles tiles = GpuRowTiles::getDefault(longestReduction, rows, /*elemBytes=*/1);
  for (const RowStep &step : steps)
    if (std::optional<GpuRowTiles> chosen = getRowTiles(step)) {
      tiles = *chosen;
      break;
    }
  for (RowStep &step : steps)
    step.vector = chooseVector(step, tiles.vector);
  int64_t lanes = tiles.lanes, rowsPerBlock = tiles.rows;
  int64_t blocks = llvm::divideCeil(rows, rowsPerBlock);

  Operation *last = steps.back().op;
  Location loc = last->getLoc();
  OpBuilder b(last);
  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value one = idx(1);
  auto launch = gpu::LaunchOp::create(b, loc, idx(blocks), one, one, idx(lanes),
                                      idx(rowsPerBlock), one);
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToStart(&kernel);
  RowKernelFrame frame;
  frame.lanes = lanes;
  frame.lane = launch.getThreadIds().x;
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, idx(rowsPerBlock)),
      launch.getThreadIds().y);
  frame.exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, idx(rows));
  Value rest = arith::SelectOp::create(b, loc, frame.exists, row, idx(0));
  frame.coordinates.resize(rowShape.size());
  for (int64_t d = static_cast<int64_t>(rowShape.size()) - 1; d >= 0; --d) {
    frame.coordinates[d] = arith::RemUIOp::create(b, loc, rest, idx(rowShape[d]));
    rest = arith::DivUIOp::create(b, loc, rest, idx(rowShape[d]));
  }

  SmallVector<RowAccess> sinceBarrier;
  for (const RowStep &step : steps) {
    bool waits = llvm::any_of(step.accesses, [&](const RowAccess &a) {
      return llvm::any_of(sinceBarrier, [&](const RowAccess &b) { return dependsOn(a, b); });
    });
    if (waits) {
      gpu::BarrierOp::create(b, loc);
      sinceBarrier.clear();
    }
    llvm::append_range(sinceBarrier, step.accesses);
    if (step.reduction)
      emitReductionStep(b, loc, frame, step);
    else
      emitElementwiseStep(b, loc, frame, step);
  }
  gpu::TerminatorOp::create(b, loc);
  for (Operation *fill : absorbed)
    fill->erase();
  for (RowStep &step : steps)
    step.op->erase();
}

/// Whether `op` may stand between two steps of one kernel (which run where
/// the last is): nothing another op could see moves past it.
static bool mayRunAcross(Operation *op) {
  return isMemoryEffectFree(op) || isa<memref::AllocOp>(op);
}

/// Whether `later` may follow every step of `earlier` in one kernel.
static bool isRowLocalAfter(ArrayRef<RowStep> earlier, const RowStep &later) {
  return llvm::all_of(earlier, [&](const RowStep &step) {
    return llvm::all_of(step.accesses, [&](const RowAccess &a) {
      return llvm::all_of(later.accesses, [&](const RowAccess &b) { return isRowLocal(a, b); });
    });
  });
}

namespace {
/// Consecutive steps (in one block, nothing between them but allocations
/// and ops without memory effects) that may become one kernel. Until its
/// first reduction fixes the rows, a run holds element-wise steps not yet
/// fitted to any.
struct RowRun {
  std::vector<RowStep> steps;
  std::optional<SmallVector<int64_t>> rowShape;

  /// Adds `step`, or returns false where it cannot join.
  bool add(RowStep step) {
    if (rowShape) {
      std::optional<RowStep> fitted =
          step.reduction ? std::optional<RowStep>(step) : fitToRows(step, *rowShape);
      if (!fitted || getRowShape(fitted->ranges) != *rowShape ||
          !isRowLocalAfter(steps, *fitted))
        return false;
      steps.push_back(std::move(*fitted));
      return true;
    }
    if (!step.reduction) {
      steps.push_back(std::move(step));
      return true;
    }
    // The first reduction fixes the rows: the element-wise steps just before
    // it that fit them and may run before it (and each other) join it.
    rowShape = getRowShape(step.ranges);
    std::vector<RowStep> joined{std::move(step)};
    for (RowStep &earlier : llvm::reverse(steps)) {
      std::optional<RowStep> fitted = fitToRows(earlier, *rowShape);
      if (!fitted || !llvm::all_of(joined, [&](const RowStep &later) {
            return isRowLocalAfter(ArrayRef<RowStep>(*fitted), later);
          }))
        break;
      joined.insert(joined.begin(), std::move(*fitted));
    }
    steps = std::move(joined);
    return true;
  }
};
} // namespace

LogicalResult mlir::dltune::buildGpuRowReductions(ModuleOp module, bool fuseRowOps) {
  WalkResult checked = module.walk([](linalg::LinalgOp op) {
    auto attr = op->getAttrOfType<DictionaryAttr>(DLTuneDialect::kGpuKernelAttrName);
    if (!GpuRowTiles::isRowTilesAttr(attr))
      return WalkResult::advance();
    std::optional<GpuRowTiles> tiles = GpuRowTiles::fromAttr(attr);
    if (!tiles) {
      op->emitOpError() << DLTuneDialect::kGpuKernelAttrName
                        << " must be a dictionary of the row kernel's lanes, rows and vector";
      return WalkResult::interrupt();
    }
    if (std::string why = whyNotGpuRowTiles(*tiles); !why.empty()) {
      op->emitOpError() << "cannot be a GPU row kernel: " << why;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (checked.wasInterrupted())
    return failure();
  std::vector<std::vector<RowStep>> kernels;
  RowRun run;
  // A kernel needs a reduction: element-wise ops alone stay leftovers.
  auto endRun = [&]() {
    if (run.rowShape)
      kernels.push_back(std::move(run.steps));
    run = RowRun();
  };
  module.walk([&](Block *block) {
    if (block->getParentOp()->getParentOfType<gpu::LaunchOp>() ||
        isa<gpu::LaunchOp>(block->getParentOp()))
      return;
    for (Operation &op : *block) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
      std::optional<RowStep> step;
      if (linalgOp) {
        step = matchReductionStep(linalgOp);
        if (!step && fuseRowOps)
          step = matchElementwiseStep(linalgOp);
      }
      if (!step) {
        if (!mayRunAcross(&op))
          endRun();
        continue;
      }
      if (fuseRowOps && run.add(*step))
        continue;
      endRun();
      run.add(std::move(*step));
    }
    endRun();
  });
  for (std::vector<RowStep> &steps : kernels)
    buildKernel(std::move(steps));
  return success();
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
