//===- FoldConstantPacks.cpp - pack constant operands at compile time -----===//
//
// A packed CPU schedule copies an operand's block into contiguous panels
// (hoist_pad's packing loops) every time the kernel runs. When the operand
// is a constant - a model's weights - those panels are the same on every
// call: this pass evaluates the packing loops at compile time, for every
// iteration of the enclosing loops they depend on, into one new constant
// laid out [outer iterations..., panel shape], and replaces each packing
// loop by a slice of it. The kernel then reads weights in panel order
// straight from the binary's data, with no copy per call.
//
// The evaluator understands exactly what the generated schedules build
// packing loops from (scf.for over tensors, tensor.empty, extract_slice,
// insert_slice, pad with a constant value, integer/index arithmetic that
// folds); anything else leaves the loop as it is.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/ConstantData.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <memory>

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEFOLDCONSTANTPACKS
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {

/// Bytes per element of a static tensor type whose elements the evaluator
/// can copy bytewise (ints and floats of whole bytes); nullopt otherwise.
static std::optional<int64_t> getElementBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || !tensor.getElementType().isIntOrFloat() ||
      tensor.getElementType().getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  return tensor.getElementType().getIntOrFloatBitWidth() / 8;
}

/// A tensor value during evaluation: row-major elements of `elementBytes`.
struct TensorData {
  SmallVector<int64_t> shape;
  int64_t elementBytes = 0;
  // Read-only view of a constant's bytes, or owned storage.
  const char *constant = nullptr;
  std::shared_ptr<std::vector<char>> owned;

  /// Zero-filled storage for a type getElementBytes accepts.
  static TensorData allocate(RankedTensorType type, int64_t elementBytes) {
    TensorData t;
    t.shape.assign(type.getShape().begin(), type.getShape().end());
    t.elementBytes = elementBytes;
    t.owned = std::make_shared<std::vector<char>>(t.sizeInBytes(), 0);
    return t;
  }

  const char *data() const { return owned ? owned->data() : constant; }
  char *mutableData() { return owned->data(); }
  int64_t numElements() const { return ShapedType::getNumElements(shape); }
  int64_t sizeInBytes() const { return numElements() * elementBytes; }

  /// Makes the storage this value's own, so that writing to it changes no
  /// other value sharing it (or the constant it views).
  void copyOnWrite() { owned = std::make_shared<std::vector<char>>(data(), data() + sizeInBytes()); }
};

/// The bytes of a constant tensor, if it has a byte-addressable dense
/// layout (not a splat, not sub-byte elements, data present).
static std::optional<TensorData> getConstantTensor(Value value) {
  std::optional<int64_t> elementBytes = getElementBytes(value.getType());
  Attribute attr;
  if (!elementBytes || !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  TensorData tensor;
  llvm::append_range(tensor.shape, cast<RankedTensorType>(value.getType()).getShape());
  tensor.elementBytes = *elementBytes;
  std::optional<ArrayRef<char>> bytes = getDenseConstantBytes(attr);
  if (!bytes || static_cast<int64_t>(bytes->size()) != tensor.sizeInBytes())
    return std::nullopt;
  tensor.constant = bytes->data();
  return tensor;
}

/// Calls `body(index)` for every multi-index of `sizes`, last fastest.
template <typename Fn>
static void forEachIndex(ArrayRef<int64_t> sizes, Fn body) {
  SmallVector<int64_t> index(sizes.size(), 0);
  for (int64_t s : sizes)
    if (s <= 0)
      return;
  while (true) {
    body(ArrayRef<int64_t>(index));
    int d = static_cast<int>(sizes.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

static int64_t linearIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> index) {
  int64_t linear = 0;
  for (auto [extent, i] : llvm::zip(shape, index))
    linear = linear * extent + i;
  return linear;
}

/// Evaluates a packing loop nest for fixed values of the enclosing loops'
/// induction variables.
class PackEvaluator {
public:
  PackEvaluator(Operation *root, const DenseMap<Value, int64_t> &outerIndices)
      : root(root), ints(outerIndices) {}

  /// The root's (single) tensor result, or failure if any op is not one the
  /// evaluator knows or an index leaves its tensor.
  FailureOr<TensorData> run() {
    if (failed(evalOp(root)))
      return failure();
    return getTensor(root->getResult(0));
  }

private:
  FailureOr<int64_t> getInt(Value value) {
    auto it = ints.find(value);
    if (it != ints.end())
      return it->second;
    // Defined outside the root (inside values are evaluated in order):
    // fold its defining op from its operands.
    Operation *def = value.getDefiningOp();
    if (!def || root->isAncestor(def) || def->getNumRegions() != 0 || !isPure(def))
      return failure();
    if (failed(foldIntOp(def)))
      return failure();
    return ints.lookup(value);
  }

  FailureOr<TensorData> getTensor(Value value) {
    auto it = tensors.find(value);
    if (it != tensors.end())
      return it->second;
    Operation *def = value.getDefiningOp();
    if (def && root->isAncestor(def))
      return failure();
    if (isa_and_nonnull<tensor::EmptyOp>(def)) {
      if (failed(evalOp(def)))
        return failure();
      return tensors[value];
    }
    if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(def)) {
      if (failed(evalExtract(slice)))
        return failure();
      return tensors[value];
    }
    std::optional<TensorData> constant = getConstantTensor(value);
    if (!constant)
      return failure();
    tensors[value] = *constant;
    return *constant;
  }

  LogicalResult getMixedInts(ArrayRef<OpFoldResult> mixed, SmallVectorImpl<int64_t> &out) {
    for (OpFoldResult ofr : mixed) {
      if (std::optional<int64_t> c = getConstantIntValue(ofr)) {
        out.push_back(*c);
        continue;
      }
      FailureOr<int64_t> v = getInt(cast<Value>(ofr));
      if (failed(v))
        return failure();
      out.push_back(*v);
    }
    return success();
  }

  /// An op computing integers (arith, affine.apply, ...) folded from
  /// constant operands.
  LogicalResult foldIntOp(Operation *op) {
    if (op->getNumResults() != 1 || !op->getResult(0).getType().isIntOrIndex())
      return failure();
    SmallVector<Attribute> operands;
    for (Value operand : op->getOperands()) {
      if (!operand.getType().isIntOrIndex())
        return failure();
      FailureOr<int64_t> v = getInt(operand);
      if (failed(v))
        return failure();
      operands.push_back(IntegerAttr::get(operand.getType(), *v));
    }
    SmallVector<OpFoldResult> results;
    if (failed(op->fold(operands, results)) || results.size() != 1)
      return failure();
    // `addi x, 0` and the like fold to one of their operands.
    if (auto same = dyn_cast<Value>(results[0])) {
      FailureOr<int64_t> v = getInt(same);
      if (failed(v))
        return failure();
      ints[op->getResult(0)] = *v;
      return success();
    }
    auto attr = dyn_cast_if_present<IntegerAttr>(dyn_cast<Attribute>(results[0]));
    if (!attr)
      return failure();
    ints[op->getResult(0)] = attr.getValue().getSExtValue();
    return success();
  }

  LogicalResult evalOp(Operation *op) {
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return evalFor(forOp);
    if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
      std::optional<int64_t> elementBytes = getElementBytes(empty.getType());
      if (!elementBytes)
        return failure();
      tensors[empty.getResult()] = TensorData::allocate(empty.getType(), *elementBytes);
      return success();
    }
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op))
      return evalExtract(extract);
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
      return evalInsert(insert);
    if (auto pad = dyn_cast<tensor::PadOp>(op))
      return evalPad(pad);
    // A pad's padding value defined inside the loop: read where it is used.
    if (op->hasTrait<OpTrait::ConstantLike>() && op->getNumResults() == 1 &&
        !op->getResult(0).getType().isIntOrIndex())
      return success();
    if (op->getNumRegions() == 0 && isPure(op))
      return foldIntOp(op);
    return failure();
  }

  LogicalResult evalFor(scf::ForOp forOp) {
    FailureOr<int64_t> lb = getInt(forOp.getLowerBound());
    FailureOr<int64_t> ub = getInt(forOp.getUpperBound());
    FailureOr<int64_t> step = getInt(forOp.getStep());
    if (failed(lb) || failed(ub) || failed(step) || *step <= 0)
      return failure();
    if (forOp.getUnsignedCmp())
      return failure();
    SmallVector<TensorData> carried;
    for (Value init : forOp.getInitArgs()) {
      FailureOr<TensorData> t = getTensor(init);
      if (failed(t))
        return failure();
      // The loop updates its iter_args in place: an init anything else may
      // still read is copied first.
      if (!t->owned || !init.hasOneUse() || init.getParentBlock() != forOp->getBlock())
        t->copyOnWrite();
      carried.push_back(*t);
    }
    Block *body = forOp.getBody();
    for (int64_t iv = *lb; iv < *ub; iv += *step) {
      ints[forOp.getInductionVar()] = iv;
      for (auto [arg, value] : llvm::zip(forOp.getRegionIterArgs(), carried))
        tensors[arg] = value;
      for (Operation &inner : body->without_terminator())
        if (failed(evalOp(&inner)))
          return failure();
      auto yield = cast<scf::YieldOp>(body->getTerminator());
      for (auto [i, value] : llvm::enumerate(yield.getOperands())) {
        FailureOr<TensorData> t = getTensor(value);
        if (failed(t))
          return failure();
        // Likewise a yielded value from outside the body or yielded twice.
        if (!t->owned || value.getParentBlock() != body ||
            llvm::count(yield.getOperands(), value) != 1)
          t->copyOnWrite();
        carried[i] = *t;
      }
    }
    for (auto [result, value] : llvm::zip(forOp.getResults(), carried))
      tensors[result] = value;
    return success();
  }

  /// Copies every element of the slice (`offsets`, `sizes`, `strides`) of
  /// `whole` between `whole` and the contiguous `part` (in the slice's
  /// row-major order, which rank reduction keeps): into `part` for an
  /// extract, into `whole` for an insert. Fails if the slice leaves `whole`
  /// or `part` does not hold exactly its elements.
  static LogicalResult copySlice(TensorData &whole, ArrayRef<int64_t> offsets,
                                 ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                                 TensorData &part, bool intoWhole) {
    int64_t bytes = whole.elementBytes, partIndex = 0;
    bool inBounds = true;
    forEachIndex(sizes, [&](ArrayRef<int64_t> index) {
      int64_t wholeIndex = 0;
      for (size_t d = 0; inBounds && d < whole.shape.size(); ++d) {
        int64_t i = offsets[d] + index[d] * strides[d];
        inBounds = i >= 0 && i < whole.shape[d];
        wholeIndex = wholeIndex * whole.shape[d] + i;
      }
      if (!inBounds || partIndex >= part.numElements()) {
        inBounds = false;
        return;
      }
      if (intoWhole)
        std::memcpy(whole.mutableData() + wholeIndex * bytes, part.data() + partIndex * bytes, bytes);
      else
        std::memcpy(part.mutableData() + partIndex * bytes, whole.data() + wholeIndex * bytes, bytes);
      ++partIndex;
    });
    return success(inBounds && partIndex == part.numElements());
  }

  LogicalResult readSliceParams(OffsetSizeAndStrideOpInterface op, SmallVectorImpl<int64_t> &offsets,
                                SmallVectorImpl<int64_t> &sizes, SmallVectorImpl<int64_t> &strides) {
    if (failed(getMixedInts(op.getMixedOffsets(), offsets)) ||
        failed(getMixedInts(op.getMixedSizes(), sizes)) ||
        failed(getMixedInts(op.getMixedStrides(), strides)))
      return failure();
    return success();
  }

  LogicalResult evalExtract(tensor::ExtractSliceOp op) {
    FailureOr<TensorData> source = getTensor(op.getSource());
    RankedTensorType type = op.getType();
    SmallVector<int64_t> offsets, sizes, strides;
    if (failed(source) || !type.hasStaticShape() ||
        failed(readSliceParams(op, offsets, sizes, strides)))
      return failure();
    TensorData result = TensorData::allocate(type, source->elementBytes);
    if (failed(copySlice(*source, offsets, sizes, strides, result, /*intoWhole=*/false)))
      return failure();
    tensors[op.getResult()] = std::move(result);
    return success();
  }

  LogicalResult evalInsert(tensor::InsertSliceOp op) {
    FailureOr<TensorData> source = getTensor(op.getSource());
    FailureOr<TensorData> dest = getTensor(op.getDest());
    SmallVector<int64_t> offsets, sizes, strides;
    if (failed(source) || failed(dest) || source->elementBytes != dest->elementBytes ||
        failed(readSliceParams(op, offsets, sizes, strides)))
      return failure();
    // Updated in place only when nothing else can read the dest (the
    // packing loops thread one buffer through their iter_args); else copied.
    if (!dest->owned || !op.getDest().hasOneUse() ||
        op.getDest().getParentBlock() != op->getBlock())
      dest->copyOnWrite();
    if (failed(copySlice(*dest, offsets, sizes, strides, *source, /*intoWhole=*/true)))
      return failure();
    tensors[op.getResult()] = *dest;
    return success();
  }

  LogicalResult evalPad(tensor::PadOp op) {
    FailureOr<TensorData> source = getTensor(op.getSource());
    Value padValue = op.getConstantPaddingValue();
    Attribute padAttr;
    RankedTensorType type = op.getResultType();
    if (failed(source) || !padValue || !matchPattern(padValue, m_Constant(&padAttr)) ||
        !type.hasStaticShape() || op.getStaticLow().size() != source->shape.size())
      return failure();
    SmallVector<int64_t> low;
    if (failed(getMixedInts(op.getMixedLowPad(), low)))
      return failure();
    // The padding value's bytes, as the constant's element type stores them.
    int64_t bytes = source->elementBytes;
    std::optional<SmallVector<char, 8>> fill = getScalarElementBytes(padAttr);
    if (!fill || static_cast<int64_t>(fill->size()) != bytes)
      return failure();
    TensorData result = TensorData::allocate(type, bytes);
    for (int64_t e = 0; e < result.numElements(); ++e)
      std::memcpy(result.mutableData() + e * bytes, fill->data(), bytes);
    bool inBounds = true;
    int64_t in = 0;
    forEachIndex(source->shape, [&](ArrayRef<int64_t> index) {
      SmallVector<int64_t> at(index.begin(), index.end());
      for (size_t d = 0; d < at.size(); ++d) {
        at[d] += low[d];
        if (at[d] < 0 || at[d] >= result.shape[d])
          inBounds = false;
      }
      if (!inBounds)
        return;
      std::memcpy(result.mutableData() + linearIndex(result.shape, at) * bytes,
                  source->data() + in++ * bytes, bytes);
    });
    if (!inBounds)
      return failure();
    tensors[op.getResult()] = std::move(result);
    return success();
  }

  Operation *root;
  DenseMap<Value, int64_t> ints;
  DenseMap<Value, TensorData> tensors;
};

/// A loop enclosing a packing root whose induction variable the packing
/// reads: its bounds, to enumerate every iteration at compile time.
struct OuterLoop {
  Value inductionVar;
  int64_t lowerBound, step, tripCount;
};

/// The enclosing scf.for / scf.forall induction variable that `value` is,
/// with constant bounds; nullopt otherwise.
static std::optional<OuterLoop> getOuterLoop(Value value, Operation *root) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !value.getType().isIndex())
    return std::nullopt;
  Operation *owner = arg.getOwner()->getParentOp();
  if (!owner || !owner->isProperAncestor(root))
    return std::nullopt;
  auto make = [&](OpFoldResult lb, OpFoldResult ub,
                  OpFoldResult step) -> std::optional<OuterLoop> {
    std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0 || *u <= *l)
      return std::nullopt;
    return OuterLoop{value, *l, *s, (*u - *l + *s - 1) / *s};
  };
  if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
    if (value != forOp.getInductionVar() || forOp.getUnsignedCmp())
      return std::nullopt;
    return make(forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep());
  }
  if (auto forall = dyn_cast<scf::ForallOp>(owner)) {
    for (auto [i, iv] : llvm::enumerate(forall.getInductionVars()))
      if (iv == value)
        return make(forall.getMixedLowerBound()[i], forall.getMixedUpperBound()[i],
                    forall.getMixedStep()[i]);
  }
  return std::nullopt;
}

/// The values `root` and the ops inside it read that are defined outside it.
static SetVector<Value> getValuesFromOutside(Operation *root) {
  SetVector<Value> values(root->operand_begin(), root->operand_end());
  getUsedValuesDefinedAbove(root->getRegions(), values);
  return values;
}

/// What a packing root reads from outside: the constant tensors and the
/// enclosing loops whose iterations the result depends on. Fails if it
/// reads anything else (a function argument, a loop-carried value, ...).
static LogicalResult collectInputs(Operation *root, SmallVectorImpl<Value> &constants,
                                   SmallVectorImpl<OuterLoop> &loops) {
  SmallVector<Value> worklist(getValuesFromOutside(root).takeVector());
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (isa<RankedTensorType>(value.getType())) {
      // A slice of a constant taken outside the root (a hoisted pad's
      // source) is evaluated with it.
      if (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>()) {
        llvm::append_range(worklist, slice->getOperands());
        continue;
      }
      if (value.getDefiningOp<tensor::EmptyOp>())
        continue;
      if (!getConstantTensor(value))
        return failure();
      constants.push_back(value);
      continue;
    }
    // Scalars: a pad's padding value.
    if (!value.getType().isIntOrIndex() && matchPattern(value, m_Constant()))
      continue;
    if (!value.getType().isIntOrIndex())
      return failure();
    if (std::optional<OuterLoop> loop = getOuterLoop(value, root)) {
      loops.push_back(*loop);
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumRegions() != 0 || !isPure(def))
      return failure();
    llvm::append_range(worklist, def->getOperands());
  }
  // Outermost loop first: the new constant's leading dims follow nesting.
  llvm::sort(loops, [](const OuterLoop &a, const OuterLoop &b) {
    Operation *pa = cast<BlockArgument>(a.inductionVar).getOwner()->getParentOp();
    Operation *pb = cast<BlockArgument>(b.inductionVar).getOwner()->getParentOp();
    if (pa == pb)
      return cast<BlockArgument>(a.inductionVar).getArgNumber() <
             cast<BlockArgument>(b.inductionVar).getArgNumber();
    return pa->isProperAncestor(pb);
  });
  return success();
}

/// Whether `op` can be a packing root: a loop building a static tensor
/// from tensor.empty, or a pad, containing only ops the evaluator knows.
static bool isPackingCandidate(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  if (!getElementBytes(op->getResult(0).getType()))
    return false;
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    if (forOp.getInitArgs().size() != 1 ||
        !forOp.getInitArgs()[0].getDefiningOp<tensor::EmptyOp>())
      return false;
  } else if (!isa<tensor::PadOp>(op)) {
    return false;
  }
  WalkResult walk = op->walk([&](Operation *inner) {
    if (inner == op)
      return WalkResult::advance();
    if (isa<scf::ForOp, scf::YieldOp, tensor::YieldOp, tensor::EmptyOp, tensor::ExtractSliceOp,
            tensor::InsertSliceOp, tensor::PadOp>(inner) ||
        (inner->getNumRegions() == 0 && isPure(inner) && inner->getNumResults() == 1 &&
         inner->getResult(0).getType().isIntOrIndex()) ||
        (isa<arith::ConstantOp>(inner)))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

struct FoldConstantPacksPass
    : public dltune::impl::DLTuneFoldConstantPacksBase<FoldConstantPacksPass> {
  using DLTuneFoldConstantPacksBase::DLTuneFoldConstantPacksBase;

  void runOnOperation() override {
    SmallVector<Operation *> roots;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isPackingCandidate(op))
        return WalkResult::advance();
      roots.push_back(op);
      return WalkResult::skip();
    });
    for (Operation *root : roots)
      (void)foldRoot(root);
  }

  LogicalResult foldRoot(Operation *root) {
    SmallVector<Value> constants;
    SmallVector<OuterLoop> loops;
    if (failed(collectInputs(root, constants, loops)) || constants.empty())
      return failure();
    auto rootType = cast<RankedTensorType>(root->getResult(0).getType());
    SmallVector<int64_t> tripCounts;
    int64_t iterations = 1, sourceBytes = 0;
    for (const OuterLoop &loop : loops) {
      tripCounts.push_back(loop.tripCount);
      if (llvm::MulOverflow(iterations, loop.tripCount, iterations))
        return failure();
    }
    for (Value c : constants)
      sourceBytes += getConstantTensor(c)->sizeInBytes();
    int64_t rootBytes = rootType.getNumElements() * *getElementBytes(rootType);
    int64_t totalBytes;
    if (llvm::MulOverflow(iterations, rootBytes, totalBytes))
      return failure();
    // Panels may pad, but a pack that repeats its data over loops it does
    // not really depend on would multiply the binary's weights: refuse
    // more than twice the constants it reads.
    if (totalBytes > 2 * sourceBytes || totalBytes > (int64_t(1) << 31)) {
      root->emitRemark() << "dltune-fold-constant-packs: not folded: " << totalBytes
                         << " bytes of panels from " << sourceBytes << " bytes of constants";
      return failure();
    }

    std::vector<char> packed(totalBytes);
    int64_t at = 0;
    bool ok = true;
    forEachIndex(tripCounts, [&](ArrayRef<int64_t> index) {
      if (!ok)
        return;
      DenseMap<Value, int64_t> outer;
      for (auto [loop, i] : llvm::zip(loops, index))
        outer[loop.inductionVar] = loop.lowerBound + i * loop.step;
      FailureOr<TensorData> panel = PackEvaluator(root, outer).run();
      if (failed(panel) || panel->sizeInBytes() != rootBytes) {
        ok = false;
        return;
      }
      std::memcpy(packed.data() + at, panel->data(), rootBytes);
      at += rootBytes;
    });
    if (!ok)
      return failure();

    // The new constant: [iterations of each loop read..., panel shape].
    SmallVector<int64_t> shape(tripCounts);
    llvm::append_range(shape, rootType.getShape());
    auto packedType = RankedTensorType::get(shape, rootType.getElementType());
    DenseResourceElementsAttr attr =
        getDenseResourceAttr(packedType, "dltune_packed", ArrayRef<char>(packed));

    auto func = root->getParentOfType<FunctionOpInterface>();
    OpBuilder builder(root->getContext());
    if (func && !func.isExternal())
      builder.setInsertionPointToStart(&func.getFunctionBody().front());
    else
      builder.setInsertionPoint(root);
    Location loc = root->getLoc();
    Value packedConstant = arith::ConstantOp::create(builder, loc, packedType, attr);

    builder.setInsertionPoint(root);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (const OuterLoop &loop : loops) {
      // (iv - lb) floordiv step: the loop's iteration number.
      AffineExpr d0 = builder.getAffineDimExpr(0);
      AffineMap map = AffineMap::get(1, 0, (d0 - loop.lowerBound).floorDiv(loop.step));
      offsets.push_back(
          affine::AffineApplyOp::create(builder, loc, map, ValueRange{loop.inductionVar})
              .getResult());
      sizes.push_back(builder.getIndexAttr(1));
      strides.push_back(builder.getIndexAttr(1));
    }
    for (int64_t extent : rootType.getShape()) {
      offsets.push_back(builder.getIndexAttr(0));
      sizes.push_back(builder.getIndexAttr(extent));
      strides.push_back(builder.getIndexAttr(1));
    }
    Value replacement = tensor::ExtractSliceOp::create(builder, loc, rootType, packedConstant,
                                                      offsets, sizes, strides);
    root->getResult(0).replaceAllUsesWith(replacement);
    // The root's inputs built outside it (its tensor.empty, a pad's source
    // slice, the unpacked weights) go with it when nothing else uses them.
    SmallVector<Operation *> inputs;
    for (Value value : getValuesFromOutside(root))
      if (Operation *def = value.getDefiningOp())
        inputs.push_back(def);
    root->erase();
    DenseSet<Operation *> erased;
    while (!inputs.empty()) {
      Operation *op = inputs.pop_back_val();
      if (erased.contains(op) || !isOpTriviallyDead(op))
        continue;
      erased.insert(op);
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          inputs.push_back(def);
      op->erase();
    }
    return success();
  }
};
} // namespace
