//===- EpilogueFusion.cpp - Elementwise epilogues of tuned ops ------------===//

#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Dialect/DLTuneAttrs.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::dltune;

bool mlir::dltune::isElementwiseGeneric(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op) || op.getNumReductionLoops() != 0 ||
      op.getNumDpsInits() != 1)
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return false;
  return op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity();
}

static bool isOnCpu(Operation *op) {
  auto target = op->getAttrOfType<StringAttr>(DLTuneDialect::kTargetAttrName);
  return !target || target.getValue() == "cpu";
}

linalg::GenericOp mlir::dltune::getFusableEpilogue(linalg::LinalgOp root) {
  if (!root || isa<linalg::GenericOp>(root.getOperation()) || !isOnCpu(root) ||
      root->getNumResults() != 1 || root.getNumDpsInits() != 1 ||
      !root.hasPureTensorSemantics() || !root->getResult(0).hasOneUse())
    return {};
  OpOperand &use = *root->getResult(0).getUses().begin();
  auto epilogue = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!epilogue || epilogue->getBlock() != root->getBlock() ||
      !isElementwiseGeneric(epilogue) || !epilogue.isDpsInput(&use) ||
      epilogue->hasAttr(DLTuneDialect::kSpaceAttrName) ||
      epilogue->hasAttr(DLTuneDialect::kConfigAttrName) ||
      !epilogue.getMatchingIndexingMap(&use).isIdentity() ||
      epilogue->getResult(0).getType() != root->getResult(0).getType())
    return {};
  // Every parallel loop of the root must be a loop of the epilogue, so that
  // tiling the epilogue tiles the root's parallel loops.
  AffineMap out = root.getMatchingIndexingMap(root.getDpsInitOperand(0));
  if (!out.isProjectedPermutation() ||
      static_cast<int64_t>(out.getNumResults()) != root.getNumParallelLoops())
    return {};
  return epilogue;
}

linalg::LinalgOp mlir::dltune::getEpilogueRoot(linalg::GenericOp epilogue) {
  if (!epilogue)
    return {};
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    auto root = input->get().getDefiningOp<linalg::LinalgOp>();
    if (root && getFusableEpilogue(root) == epilogue)
      return root;
  }
  return {};
}

linalg::FillOp mlir::dltune::getFusableFill(linalg::LinalgOp root) {
  if (!root || root.getNumDpsInits() != 1)
    return {};
  auto fill = root.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!fill || !fill->hasOneUse() || fill->getBlock() != root->getBlock())
    return {};
  return fill;
}

SmallVector<Operation *> mlir::dltune::getFusionGroup(linalg::LinalgOp root) {
  SmallVector<Operation *> group;
  if (linalg::GenericOp epilogue = getFusableEpilogue(root)) {
    if (linalg::FillOp fill = getFusableFill(root))
      group.push_back(fill);
    group.push_back(root);
    group.push_back(epilogue);
    return group;
  }
  group.push_back(root);
  return group;
}

SmallVector<int64_t> mlir::dltune::getEpilogueLoopsInRoot(linalg::LinalgOp root,
                                                         linalg::GenericOp epilogue) {
  (void)epilogue; // its loops are the root's output dims, in order
  AffineMap out = root.getMatchingIndexingMap(root.getDpsInitOperand(0));
  SmallVector<int64_t> loops;
  for (unsigned r = 0; r < out.getNumResults(); ++r)
    loops.push_back(out.getDimPosition(r));
  return loops;
}

/// A named (non-generic) linalg op: what epilogues are fused into.
static bool isNamedLinalg(Operation *op) {
  return op && isa<linalg::LinalgOp>(op) && !isa<linalg::GenericOp>(op) &&
         !isa<linalg::FillOp>(op);
}

bool mlir::dltune::hasDLTuneAttrs(Operation *op) {
  return llvm::any_of(op->getAttrs(), [](NamedAttribute a) {
    return a.getName().strref().starts_with("dltune.");
  });
}

LogicalResult mlir::dltune::mergeElementwiseChains(Operation *scope) {
  MLIRContext *ctx = scope->getContext();
  RewritePatternSet patterns(ctx);
  // Elementwise into elementwise only: reductions (softmax, layer norm)
  // keep their form, and a producer with other users is not duplicated.
  linalg::populateElementwiseOpsFusionPatterns(patterns, [](OpOperand *operand) {
    auto producer = operand->get().getDefiningOp<linalg::LinalgOp>();
    auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
    // (A consumer reading the producer twice through the same map, as GELU
    // reads x, has its operands deduplicated first: one use.)
    return producer && consumer && isElementwiseGeneric(producer) &&
           isElementwiseGeneric(consumer) && producer->hasOneUse() &&
           !hasDLTuneAttrs(producer) && !hasDLTuneAttrs(consumer);
  });
  // expand_shape(named op) -> elementwise: the consumer is collapsed to
  // the named op's shape, so it can become the op's epilogue. (Also
  // collapsing consumers of elementwise sources pulls a matmul's GELU into
  // its epilogue; measured side by side (bench/paired_ab.py, encoder,
  // default configs, 200 calls, 2026-11-24 at 4f1d873): 1.006x [0.981-1.037],
  // no gain - the erf polynomial costs the same inside the tile - so off.)
  linalg::populateFoldReshapeOpsByCollapsingPatterns(patterns, [](OpOperand *operand) {
    auto reshape = operand->get().getDefiningOp<tensor::ExpandShapeOp>();
    auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
    return reshape && consumer && isElementwiseGeneric(consumer) &&
           !hasDLTuneAttrs(consumer) && isNamedLinalg(reshape.getSrc().getDefiningOp()) &&
           reshape->hasOneUse();
  });
  GreedyRewriteConfig config;
  config.setMaxIterations(8);
  // Not converging within the cap leaves valid, merely less merged IR.
  return applyPatternsGreedily(scope, std::move(patterns), config);
}
