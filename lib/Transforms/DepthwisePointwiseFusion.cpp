//===- DepthwisePointwiseFusion.cpp - Depthwise rows into 1x1 convs -------===//
//
// The 1x1 conv's group (fill, conv, epilogue) is tiled by one output row
// with upstream tile-and-fuse (scf::tileConsumerAndFuseProducersUsingSCF),
// and exactly the depthwise group that produces its input is fused into
// that row loop: a 1x1 conv's output row needs the same row of its input
// and nothing else, so nothing is computed twice. The pad before the
// depthwise conv, the residual input of the 1x1 conv's epilogue and every
// other producer stay where they are.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/DepthwisePointwiseFusion.h"
#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEFUSEDEPTHWISEPOINTWISE
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

/// Whether `op`'s generated config tiles one output row at a time on one
/// thread: its row-sized copy inside the row loop is then scheduled exactly
/// as the whole op would be. (That it is on the CPU follows from its having
/// a fusable epilogue, which matchPair requires.)
static bool schedulesSingleRows(Operation *op) {
  auto config = op->getAttrOfType<ConfigAttr>(DLTuneDialect::kConfigAttrName);
  if (!config || op->hasAttr(DLTuneDialect::kScheduleAttrName))
    return false;
  return config.getValue("tile_oh") == 1 && config.getValue("threads").value_or(1) == 1;
}

namespace {
/// A 1x1 conv group to tile by rows and the depthwise group to fuse in.
struct FusablePair {
  /// The 1x1 conv's epilogue, tiled by rows.
  Operation *rowRoot;
  /// Every other op of both groups, fused into the row loop.
  llvm::SmallPtrSet<Operation *, 8> fused;
};
} // namespace

static std::optional<FusablePair> matchPair(linalg::Conv2DNhwcHwcfOp pointwise) {
  if (!schedulesSingleRows(pointwise) || !pointwise.hasPureTensorSemantics())
    return std::nullopt;
  auto filterType = cast<ShapedType>(pointwise.getDpsInputOperand(1)->get().getType());
  auto outputType = cast<ShapedType>(pointwise->getResult(0).getType());
  // (One output row: a loop of one trip gains nothing; it is also what a
  // conv already inside a row loop has, so a second run changes nothing.)
  if (!filterType.hasStaticShape() || filterType.getDimSize(0) != 1 ||
      filterType.getDimSize(1) != 1 || !outputType.hasStaticShape() ||
      outputType.getDimSize(1) == 1 ||
      !llvm::all_of(pointwise.getStrides().getValues<int64_t>(),
                    [](int64_t s) { return s == 1; }))
    return std::nullopt;
  // Both groups need their epilogue: the schedule fuses a group's fill only
  // together with it (EpilogueFusion.h), and an unfused fill inside the row
  // loop would be lowered unscheduled. Each epilogue must be its own conv's
  // alone (an elementwise op reading two convs' results is not a row of
  // either).
  linalg::GenericOp pointwiseEpilogue = getFusableEpilogue(pointwise);
  Value input = pointwise.getDpsInputOperand(0)->get();
  auto depthwiseEpilogue = input.getDefiningOp<linalg::GenericOp>();
  if (!pointwiseEpilogue || getEpilogueRoot(pointwiseEpilogue) != pointwise ||
      !depthwiseEpilogue || !input.hasOneUse())
    return std::nullopt;
  linalg::LinalgOp depthwise = getEpilogueRoot(depthwiseEpilogue);
  if (!depthwise || !isa<linalg::DepthwiseConv2DNhwcHwcOp>(depthwise.getOperation()) ||
      !schedulesSingleRows(depthwise) || depthwise->getBlock() != pointwise->getBlock())
    return std::nullopt;
  FusablePair pair;
  pair.rowRoot = pointwiseEpilogue;
  for (linalg::LinalgOp root : {linalg::LinalgOp(pointwise), depthwise})
    for (Operation *op : getFusionGroup(root))
      if (op != pair.rowRoot)
        pair.fused.insert(op);
  return pair;
}

static LogicalResult fusePair(RewriterBase &rewriter, const FusablePair &pair) {
  MLIRContext *ctx = rewriter.getContext();
  auto root = cast<TilingInterface>(pair.rowRoot);
  // The epilogue's loops are the conv's output dims (n, oh, ow, f).
  SmallVector<int64_t> tileSizes(root.getLoopIteratorTypes().size(), 0);
  tileSizes[1] = 1;
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(ctx, tileSizes));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (pair.fused.contains(producer.getOwner()))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
  if (failed(result))
    return failure();
  SmallVector<Value> replacements;
  for (OpResult r : root->getResults()) {
    Value v = result->replacements.lookup(r);
    if (!v)
      return failure();
    replacements.push_back(v);
  }
  rewriter.replaceOp(root, replacements);
  // The fused originals are dead now (each had one user, inside the
  // chain), but for the slices of their results that tile-and-fuse leaves
  // in the loop unused; erase those, then the originals, consumers first.
  SmallVector<Operation *> dead(pair.fused.begin(), pair.fused.end());
  llvm::sort(dead, [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  for (Operation *op : dead) {
    for (Operation *user : llvm::make_early_inc_range(op->getUsers()))
      if (isa<tensor::ExtractSliceOp>(user) && user->use_empty())
        rewriter.eraseOp(user);
    if (op->use_empty())
      rewriter.eraseOp(op);
  }
  return success();
}

LogicalResult mlir::dltune::fuseDepthwiseIntoPointwise(Operation *scope) {
  // Only convs directly in a function body: the row-sized copies inside a
  // loop are not fused again.
  SmallVector<FusablePair> pairs;
  llvm::SmallPtrSet<Operation *, 32> claimed;
  scope->walk([&](FunctionOpInterface func) {
    for (Block &block : func.getFunctionBody())
      for (auto conv : block.getOps<linalg::Conv2DNhwcHwcfOp>()) {
        std::optional<FusablePair> pair = matchPair(conv);
        if (!pair || claimed.contains(pair->rowRoot) ||
            llvm::any_of(pair->fused, [&](Operation *op) { return claimed.contains(op); }))
          continue;
        claimed.insert(pair->rowRoot);
        claimed.insert(pair->fused.begin(), pair->fused.end());
        pairs.push_back(std::move(*pair));
      }
  });
  IRRewriter rewriter(scope->getContext());
  for (const FusablePair &pair : pairs)
    if (failed(fusePair(rewriter, pair)))
      return pair.rowRoot->emitOpError() << "depthwise + 1x1 conv fusion failed";
  return success();
}

namespace {
struct FuseDepthwisePointwisePass
    : public dltune::impl::DLTuneFuseDepthwisePointwiseBase<FuseDepthwisePointwisePass> {
  void runOnOperation() override {
    if (failed(fuseDepthwiseIntoPointwise(getOperation())))
      signalPassFailure();
  }
};
} // namespace
