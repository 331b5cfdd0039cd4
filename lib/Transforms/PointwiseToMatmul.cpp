//===- PointwiseToMatmul.cpp - --dltune-pointwise-to-matmul ---------------===//
//
// A 1x1 stride-1 convolution in NHWC is a matrix multiplication of the
// pixels (N*H*W rows, C columns) by the filter (C x F): the pixels are
// contiguous, so the rows are a view, not a copy. As a convolution its
// register tile runs along one output row (14 or 7 pixels in MobileNet-v2's
// later blocks), as a matmul along all of them, with the 6 x 16 register
// tile, packed panels and partial last tiles of the matmul schedule
// (measured in-process against the conv schedule, 2026-11-26: 14x14x64 ->
// 384 1.20x, 7x7x960 -> 160 1.10x with bias and ReLU6).
//
// A convolution whose result (after its epilogue) is padded stays a
// convolution: --dltune-pad-in-place lets it write straight into the padded
// buffer of the next (depthwise) convolution, which a matmul's flat rows
// cannot (the padded interior is not contiguous).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEPOINTWISETOMATMUL
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {

bool hasStaticShape(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape();
}

/// The value that stands for `conv`'s result once its fusable epilogue (if
/// any) has run.
Value getFinishedResult(linalg::Conv2DNhwcHwcfOp conv) {
  if (linalg::GenericOp epilogue = getFusableEpilogue(cast<linalg::LinalgOp>(conv.getOperation())))
    return epilogue->getResult(0);
  return conv->getResult(0);
}

bool isCandidate(linalg::Conv2DNhwcHwcfOp conv) {
  if (!conv.hasPureTensorSemantics() || hasDLTuneAttrs(conv) ||
      !llvm::all_of(conv->getOperands(), hasStaticShape) || !hasStaticShape(conv->getResult(0)))
    return false;
  auto filter = cast<RankedTensorType>(conv.getInputs()[1].getType());
  if (filter.getDimSize(0) != 1 || filter.getDimSize(1) != 1)
    return false;
  if (!llvm::all_of(conv.getStrides().getValues<int64_t>(), [](int64_t s) { return s == 1; }))
    return false;
  return llvm::none_of(getFinishedResult(conv).getUsers(),
                       [](Operation *user) { return isa<tensor::PadOp>(user); });
}

/// NHWC (or HWCF) dimensions 0-2 merged into rows, 3 kept as columns.
SmallVector<ReassociationIndices> getRowReassociation() { return {{0, 1, 2}, {3}}; }

/// A static rank-4 tensor type with its first three dimensions merged.
RankedTensorType getRowsType(Type type) {
  auto t = cast<RankedTensorType>(type);
  return RankedTensorType::get({t.getDimSize(0) * t.getDimSize(1) * t.getDimSize(2),
                                t.getDimSize(3)},
                               t.getElementType());
}

/// `value` (static, rank 4) with its first three dimensions merged.
Value collapseRows(OpBuilder &b, Location loc, Value value) {
  // A constant filter becomes a constant of the new shape, so that
  // --dltune-fold-constant-packs still sees a constant to pack at compile time.
  RankedTensorType flat = getRowsType(value.getType());
  if (auto constant = value.getDefiningOp<arith::ConstantOp>()) {
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
      return arith::ConstantOp::create(b, loc, flat, dense.reshape(flat));
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
      return arith::ConstantOp::create(
          b, loc, flat, DenseResourceElementsAttr::get(flat, resource.getRawHandle()));
  }
  return tensor::CollapseShapeOp::create(b, loc, flat, value, getRowReassociation());
}

/// Rewrites `conv` as a linalg.matmul on collapsed operands and its
/// fusable epilogue as a 2-D generic on the matmul's result; the result is
/// expanded back to NHWC for the other users.
LogicalResult rewrite(RewriterBase &rewriter, linalg::Conv2DNhwcHwcfOp conv) {
  Location loc = conv.getLoc();
  linalg::GenericOp epilogue = getFusableEpilogue(cast<linalg::LinalgOp>(conv.getOperation()));
  rewriter.setInsertionPoint(conv);
  Value pixels = collapseRows(rewriter, loc, conv.getInputs()[0]);
  Value filter = collapseRows(rewriter, loc, conv.getInputs()[1]);
  Value init = conv.getOutputs()[0];
  Value flatInit;
  if (auto fill = init.getDefiningOp<linalg::FillOp>();
      fill && fill->hasOneUse() && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
    RankedTensorType type = getRowsType(init.getType());
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    flatInit = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty).getResult(0);
  } else {
    flatInit = collapseRows(rewriter, loc, init);
  }
  auto matmul = linalg::MatmulOp::create(rewriter, loc, TypeRange{flatInit.getType()},
                                         ValueRange{pixels, filter}, ValueRange{flatInit});
  auto outType = cast<RankedTensorType>(conv->getResult(0).getType());
  Value expanded = tensor::ExpandShapeOp::create(rewriter, loc, outType, matmul->getResult(0),
                                                 getRowReassociation());
  rewriter.replaceOp(conv, expanded);
  if (!epilogue)
    return success();
  // The epilogue's pixel loops (0, 1, 2) merge into one; its other operands
  // (a residual) are collapsed the same way, a per-channel bias is left as
  // it is. The collapse of the expanded matmul result folds away below.
  rewriter.setInsertionPoint(epilogue);
  FailureOr<linalg::CollapseResult> collapsed = linalg::collapseOpIterationDims(
      cast<linalg::LinalgOp>(epilogue.getOperation()), getRowReassociation(), rewriter);
  if (failed(collapsed))
    return failure();
  rewriter.replaceOp(epilogue, collapsed->results);
  return success();
}

struct PointwiseToMatmulPass
    : public dltune::impl::DLTunePointwiseToMatmulBase<PointwiseToMatmulPass> {
  void runOnOperation() override {
    auto collect = [&] {
      SmallVector<linalg::Conv2DNhwcHwcfOp> found;
      getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
        if (isCandidate(conv))
          found.push_back(conv);
      });
      return found;
    };
    if (collect().empty())
      return;
    // The epilogue rewritten with the conv is the one --dltune-annotate
    // would fuse: one generic per chain.
    if (failed(mergeElementwiseChains(getOperation())))
      getOperation().emitRemark() << "dltune-pointwise-to-matmul: merging elementwise chains did "
                                     "not converge; some epilogues stay 4-D";
    IRRewriter rewriter(&getContext());
    for (linalg::Conv2DNhwcHwcfOp conv : collect())
      if (failed(rewrite(rewriter, conv))) {
        conv->emitError() << "dltune-pointwise-to-matmul: cannot collapse the epilogue's pixel "
                             "loops";
        return signalPassFailure();
      }
    // collapse(expand(x)) -> x, so that each epilogue reads its matmul.
    RewritePatternSet patterns(&getContext());
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      getOperation().emitRemark() << "dltune-pointwise-to-matmul: reshape folding did not converge";
  }
};

} // namespace
