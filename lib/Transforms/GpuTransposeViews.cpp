//===- GpuTransposeViews.cpp - Transposes as strided views ----------------===//
//
// Two rewrites of a `linalg.transpose` T (input I, output O), both where T
// keeps the innermost dimension innermost (and the readers one also where
// every reader is a SIMT matmul's B that the view leaves contiguous along
// k: the attention's K^T, which that kernel loads as it loads A):
//
//   readers:  T(I -> O); readers of O (until O's next life)
//             => the readers read memref.transpose(I)
//   writers:  writers of A (the life of A that T ends); T(reshape(A) -> O)
//             => the writers write reshape^-1(memref.transpose^-1(O))
//
// A buffer's life begins where an op writes all of it without reading it
// (a fill, a copy): the bufferization reuses a dead buffer for another
// tensor (the attention's Q copy becomes the output of the next batch
// matmul), and only the uses of one life move to the view. The reshapes
// between a buffer and its uses are rebuilt on the view with the layouts
// MLIR infers; only linalg ops may use it otherwise (they take any strided
// operand).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/GpuTransposeViews.h"
#include "GpuMemRefLayout.h"

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Transforms/GpuMatmulKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace mlir::dltune;

/// A fresh buffer of `v`'s own: a memref.alloc of a static identity layout.
static memref::AllocOp getFreshAllocation(Value v) {
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape() || !alloc.getType().getLayout().isIdentity() ||
      alloc->getNumOperands() != 0)
    return nullptr;
  return alloc;
}

/// The ops that use `v` through views of any kind (not the views).
static void collectAccesses(Value v, SmallVectorImpl<Operation *> &users) {
  for (Operation *user : v.getUsers()) {
    if (getViewedMemRef(user) == v)
      for (Value result : user->getResults())
        collectAccesses(result, users);
    else
      users.push_back(user);
  }
}

/// Moves each linalg.fill of a fresh allocation (through views) to just
/// before the next op of its block that uses the allocation: the
/// bufferization leaves zero fills of accumulators far ahead of them
/// (across a layer), where they would keep a buffer's life from starting
/// where its values do. Nothing else uses a fresh allocation in between.
static void sinkFillsOfFreshBuffers(ModuleOp module) {
  SmallVector<linalg::FillOp> fills;
  module.walk([&](linalg::FillOp fill) {
    if (fill.hasPureBufferSemantics() && !fill->getParentOfType<gpu::LaunchOp>() &&
        getViewSource(fill.getOutputs()[0]).getDefiningOp<memref::AllocOp>())
      fills.push_back(fill);
  });
  for (linalg::FillOp fill : fills) {
    Value buffer = getViewSource(fill.getOutputs()[0]);
    auto usesBuffer = [&](Operation *op) {
      WalkResult walk = op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (isa<BaseMemRefType>(operand.getType()) && getViewSource(operand) == buffer &&
              !getViewedMemRef(inner))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      return walk.wasInterrupted();
    };
    Operation *next = fill->getNextNode();
    while (next && !usesBuffer(next))
      next = next->getNextNode();
    if (next && next != fill->getNextNode())
      fill->moveBefore(next);
  }
}

namespace {
/// A use of a buffer through reshapes: the operand, the reshapes from the
/// buffer to it (outermost first), and the op of the rewrite's block it is
/// in.
struct BufferUse {
  OpOperand *operand;
  SmallVector<Operation *> reshapes;
  Operation *ancestor;
};
} // namespace

/// The uses of `v` through reshapes, in the order of their ops in `block`;
/// failure where one is outside it or through another kind of view.
static FailureOr<SmallVector<BufferUse>> collectUses(Value v, Block *block) {
  SmallVector<BufferUse> uses;
  SmallVector<Operation *> chain;
  bool outside = false;
  std::function<void(Value)> walk = [&](Value value) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) {
        chain.push_back(user);
        walk(user->getResult(0));
        chain.pop_back();
        continue;
      }
      // Another kind of view would use the buffer where its own users are,
      // not where it is.
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      outside |= !ancestor || getViewedMemRef(user) == value;
      uses.push_back({&use, chain, ancestor});
    }
  };
  walk(v);
  if (outside)
    return failure();
  llvm::stable_sort(uses, [](const BufferUse &a, const BufferUse &b) {
    return a.ancestor != b.ancestor && a.ancestor->isBeforeInBlock(b.ancestor);
  });
  return uses;
}

/// Whether `use` is a linalg op's output (`init`) or input, directly in the
/// block.
static bool isLinalgUse(const BufferUse &use, bool init) {
  auto op = dyn_cast<linalg::LinalgOp>(use.operand->getOwner());
  return op && use.ancestor == op.getOperation() && op.isDpsInit(use.operand) == init;
}

/// Whether `use` writes every element of the buffer without reading it (a
/// fill, a copy, an element-wise op that ignores its output): the values
/// before it are dead, the buffer begins a new life there.
static bool startsLife(const BufferUse &use) {
  if (!isLinalgUse(use, /*init=*/true))
    return false;
  auto op = cast<linalg::LinalgOp>(use.operand->getOwner());
  Value buffer = getViewSource(use.operand->get());
  // Not reading it otherwise either: an input or a load in the body.
  for (OpOperand &other : op->getOpOperands())
    if (&other != use.operand && isa<BaseMemRefType>(other.get().getType()) &&
        getViewSource(other.get()) == buffer)
      return false;
  return op.getNumReductionLoops() == 0 &&
         op.getMatchingIndexingMap(use.operand).isPermutation() &&
         op.getMatchingBlockArgument(use.operand).use_empty() && !loadsFrom(op, buffer);
}

/// The type `use` sees of a base of type `type`, through its reshapes;
/// failure where they do not allow that base.
static FailureOr<MemRefType> getRebasedType(const BufferUse &use, MemRefType type) {
  for (Operation *reshape : use.reshapes) {
    FailureOr<MemRefType> next = getReshapedType(reshape, type);
    if (failed(next))
      return failure();
    type = *next;
  }
  return type;
}

/// Whether the reshapes of every use in `uses` allow a base of type `type`.
static bool canRebase(ArrayRef<BufferUse> uses, MemRefType type) {
  return llvm::all_of(uses, [&](const BufferUse &use) {
    return succeeded(getRebasedType(use, type));
  });
}

/// Makes each of `uses` use `base` through its reshapes, rebuilt once each
/// right after `base` (which dominates every use: uses sharing a reshape
/// share its rebuilt value, as a fill and the matmul absorbing it must);
/// erases the old reshapes left unused.
static void rebase(ArrayRef<BufferUse> uses, Value base) {
  llvm::SetVector<Operation *> old;
  DenseMap<Operation *, Value> rebuilt;
  OpBuilder b(base.getContext());
  b.setInsertionPointAfterValue(base);
  for (const BufferUse &use : uses) {
    Value value = base;
    for (Operation *reshape : use.reshapes) {
      old.insert(reshape);
      Value &done = rebuilt[reshape];
      if (!done) {
        Location loc = reshape->getLoc();
        if (auto collapse = dyn_cast<memref::CollapseShapeOp>(reshape))
          done = memref::CollapseShapeOp::create(b, loc, value, collapse.getReassociationIndices());
        else {
          auto expand = cast<memref::ExpandShapeOp>(reshape);
          done = memref::ExpandShapeOp::create(b, loc, expand.getResultType().getShape(), value,
                                               expand.getReassociationIndices(),
                                               expand.getMixedOutputShape());
        }
      }
      value = done;
    }
    use.operand->set(value);
  }
  // Innermost reshapes first: an outer one is used by the inner ones.
  for (Operation *reshape : llvm::reverse(old))
    if (reshape->use_empty())
      reshape->erase();
}

/// Whether `op` (or an op nested in it) may write memory that `root` (a
/// view source) may share: a write effect on such a value or on an unknown
/// one, or an op of unknown effects that takes such a value.
static bool mayWriteTo(Operation *op, Value root) {
  auto shares = [&](Value v) {
    return isa<BaseMemRefType>(v.getType()) && mayShareMemory(getViewSource(v), root);
  };
  WalkResult walk = op->walk([&](Operation *inner) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!effects) {
      if (inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance();
      return llvm::any_of(inner->getOperands(), shares) ? WalkResult::interrupt()
                                                        : WalkResult::advance();
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (MemoryEffects::EffectInstance &instance : instances) {
      if (!isa<MemoryEffects::Write>(instance.getEffect()))
        continue;
      Value target = instance.getValue();
      if (!target || shares(target))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// The permutation map of `transpose` (result i is input dimension
/// permutation[i]), or its inverse.
static AffineMap getPermutationMap(linalg::TransposeOp transpose, bool inverse) {
  AffineMap map = AffineMap::getPermutationMap(transpose.getPermutation(), transpose.getContext());
  return inverse ? inversePermutation(map) : map;
}

/// Whether `use` is the B of a matmul or batch matmul (directly in the
/// block) whose tiles make a kernel that takes a B contiguous along k
/// (GpuMatmulKernel.cpp): the SIMT kernel without split-K, or TF32
/// warpgroup MMA (which reads B k-major; where the TMA cannot read the
/// view, it copies B transposed, as the transpose would have).
static bool isKMajorMatmulB(const BufferUse &use) {
  Operation *owner = use.operand->getOwner();
  auto op = dyn_cast<linalg::LinalgOp>(owner);
  if (!op || use.ancestor != owner || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(owner) ||
      op.getNumDpsInputs() != 2 || use.operand != op.getDpsInputOperand(1))
    return false;
  std::optional<GpuMatmulTiles> tiles = GpuMatmulTiles::fromAttr(
      owner->getAttrOfType<DictionaryAttr>(DLTuneDialect::kGpuKernelAttrName));
  return tiles && tiles->splitK == 1 &&
         (tiles->mma == 0 || tiles->readsBKMajor(getElementTypeOrSelf(use.operand->get())));
}

/// Whether `use` of a base of type `type` sees it, through its reshapes,
/// contiguous along its next-to-last dimension (a matmul B's k).
static bool isContiguousAlongK(const BufferUse &use, MemRefType type) {
  FailureOr<MemRefType> seen = getRebasedType(use, type);
  if (failed(seen))
    return false;
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout = getStaticLayout(*seen);
  return layout && layout->first.size() >= 2 && layout->first[layout->first.size() - 2] == 1;
}

/// The readers rewrite: the readers of T's output after T (until the
/// buffer begins a new life) read a view of T's input instead. Where T
/// moves the innermost dimension (`forMatmulB`), only where every reader
/// is a SIMT matmul's B left contiguous along k.
static bool foldIntoReaders(linalg::TransposeOp transpose, bool forMatmulB) {
  memref::AllocOp alloc = getFreshAllocation(transpose.getInit());
  Value input = transpose.getInput();
  auto inputType = dyn_cast<MemRefType>(input.getType());
  // A view contiguous along its innermost dimension, as the copy was.
  Block *block = transpose->getBlock();
  if (!alloc || alloc->getBlock() != block || !inputType || !isContiguousInLastDim(inputType))
    return false;
  FailureOr<SmallVector<BufferUse>> uses = collectUses(alloc.getResult(), block);
  if (failed(uses))
    return false;
  SmallVector<BufferUse> readers;
  for (const BufferUse &use : *uses) {
    if (use.ancestor == transpose.getOperation() || !transpose->isBeforeInBlock(use.ancestor))
      continue;
    if (startsLife(use))
      break;
    if (!isLinalgUse(use, /*init=*/false) || (forMatmulB && !isKMajorMatmulB(use)))
      return false;
    readers.push_back(use);
  }
  if (readers.empty())
    return false;
  // The input must hold its values while the view is read.
  Value root = getViewSource(input);
  for (Operation *op = transpose->getNextNode(); op != readers.back().ancestor->getNextNode();
       op = op->getNextNode())
    if (mayWriteTo(op, root))
      return false;
  OpBuilder b(transpose);
  auto view = memref::TransposeOp::create(b, transpose.getLoc(), input,
                                          AffineMapAttr::get(getPermutationMap(transpose, false)));
  if (!canRebase(readers, view.getType()) ||
      (forMatmulB && !llvm::all_of(readers, [&](const BufferUse &use) {
         return isContiguousAlongK(use, view.getType());
       }))) {
    view->erase();
    return false;
  }
  rebase(readers, view);
  transpose->erase();
  if (alloc->use_empty())
    alloc->erase();
  return true;
}

/// The writers rewrite: what T reads, written in the life of its buffer
/// that T ends by linalg ops only (as outputs), is written into a view of
/// T's output instead.
static bool foldIntoWriters(linalg::TransposeOp transpose) {
  Value input = transpose.getInput();
  Operation *reshape = input.getDefiningOp();
  if (!isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(reshape))
    reshape = nullptr;
  Value written = reshape ? reshape->getOperand(0) : input;
  memref::AllocOp source = getFreshAllocation(written);
  memref::AllocOp output = getFreshAllocation(transpose.getInit());
  Block *block = transpose->getBlock();
  if (!source || !output || (reshape && !input.hasOneUse()) || source->getBlock() != block ||
      output->getBlock() != block)
    return false;
  FailureOr<SmallVector<BufferUse>> uses = collectUses(source.getResult(), block);
  if (failed(uses))
    return false;
  // The life T ends: back from T to the op that began it (or the
  // allocation), writers only; after T, nothing may read what it read.
  auto at = llvm::find_if(*uses, [&](const BufferUse &use) {
    return use.operand->getOwner() == transpose.getOperation();
  });
  if (at == uses->end())
    return false;
  for (auto after = std::next(at); after != uses->end(); ++after) {
    if (after->ancestor == transpose.getOperation())
      return false;
    if (startsLife(*after))
      break;
    return false;
  }
  SmallVector<BufferUse> writers;
  for (auto before = at; before != uses->begin();) {
    --before;
    if (before->ancestor == transpose.getOperation() || !isLinalgUse(*before, /*init=*/true))
      return false;
    writers.insert(writers.begin(), *before);
    if (startsLife(*before))
      break;
  }
  if (writers.empty())
    return false;
  Operation *lifeStart = writers.front().ancestor;
  // The output now receives the writers' values from the life's start on:
  // nothing else may use it from there to T (an earlier use, of a buffer
  // the bufferization reuses, is over by then).
  SmallVector<Operation *> outputUsers;
  collectAccesses(output.getResult(), outputUsers);
  for (Operation *user : outputUsers) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor ||
        (ancestor != transpose.getOperation() && !ancestor->isBeforeInBlock(lifeStart) &&
         ancestor->isBeforeInBlock(transpose)))
      return false;
  }
  // The view of the output the writers write: T's inverse, then the
  // inverse of the reshape T read through.
  if (lifeStart->isBeforeInBlock(output))
    output->moveBefore(lifeStart);
  OpBuilder b(lifeStart);
  Location loc = transpose.getLoc();
  SmallVector<Operation *> created;
  Value view = memref::TransposeOp::create(b, loc, output.getResult(),
                                           AffineMapAttr::get(getPermutationMap(transpose, true)));
  created.push_back(view.getDefiningOp());
  auto viewType = cast<MemRefType>(view.getType());
  bool reshapes = true;
  if (auto expand = dyn_cast_or_null<memref::ExpandShapeOp>(reshape)) {
    reshapes = memref::CollapseShapeOp::isGuaranteedCollapsible(viewType,
                                                                expand.getReassociationIndices());
    if (reshapes)
      view = memref::CollapseShapeOp::create(b, loc, view, expand.getReassociationIndices());
  } else if (auto collapse = dyn_cast_or_null<memref::CollapseShapeOp>(reshape)) {
    reshapes = succeeded(memref::ExpandShapeOp::computeExpandedType(
        viewType, collapse.getSrcType().getShape(), collapse.getReassociationIndices()));
    if (reshapes)
      view = memref::ExpandShapeOp::create(b, loc, collapse.getSrcType().getShape(), view,
                                           collapse.getReassociationIndices());
  }
  if (view.getDefiningOp() != created.back())
    created.push_back(view.getDefiningOp());
  if (!reshapes || !canRebase(writers, cast<MemRefType>(view.getType()))) {
    for (Operation *op : llvm::reverse(created))
      op->erase();
    return false; // the output's allocation stays where it was moved: harmless
  }
  rebase(writers, view);
  transpose->erase();
  if (reshape && reshape->use_empty())
    reshape->erase();
  if (source->use_empty())
    source->erase();
  return true;
}

int64_t mlir::dltune::foldTransposesIntoViews(ModuleOp module) {
  sinkFillsOfFreshBuffers(module);
  SmallVector<linalg::TransposeOp> transposes;
  module.walk([&](linalg::TransposeOp transpose) {
    if (transpose.hasPureBufferSemantics() && !transpose.getPermutation().empty() &&
        !transpose->getParentOfType<gpu::LaunchOp>())
      transposes.push_back(transpose);
  });
  int64_t folded = 0;
  for (linalg::TransposeOp transpose : transposes) {
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    bool keepsInnermost = permutation.back() == static_cast<int64_t>(permutation.size()) - 1;
    if (keepsInnermost ? foldIntoReaders(transpose, /*forMatmulB=*/false) ||
                             foldIntoWriters(transpose)
                       : foldIntoReaders(transpose, /*forMatmulB=*/true))
      ++folded;
  }
  return folded;
}
