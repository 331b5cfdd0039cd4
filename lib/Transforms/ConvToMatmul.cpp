//===- ConvToMatmul.cpp - --dltune-conv-to-matmul -------------------------===//
//
// The GPU path has one tuned kernel, the matmul (GpuMatmulKernel.cpp);
// convolutions had no GPU space and ran as element-wise loops. This pass
// computes a linalg.conv_2d_nhwc_hwcf as a GEMM on explicitly gathered
// patches (im2col): A[m, k] = input pixel of output pixel m and filter tap
// k, B the filter as [KH*KW*C, F] (a view: HWCF is row-major in exactly
// that order), C the output as [N*OH*OW, F]. A 1x1 stride-1 convolution
// needs no gathering: its pixels already are A's rows.
//
// The GPU space takes power-of-two tiles that divide N and K, which many
// layers' sizes do not: the GEMM is computed on operands padded with zeros
// to multiples of `n-align` and `k-align` and the result cropped. M (14 x
// 14 = 196 output pixels has no power-of-two divisor from 8 up) is not
// padded by default since 2026-11-29: the kernel's last row of blocks
// clamps its reads instead (`m-align` pads it, as before, when asked).
// The GPU lowering does not build the gather as a kernel: the matmul kernel
// evaluates its body in its loads of A (an implicit GEMM,
// GpuGatheredOperand.cpp); the CPU path runs it as written.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNECONVTOMATMUL
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {

int64_t roundUp(int64_t value, int64_t align) {
  return align <= 1 ? value : (value + align - 1) / align * align;
}

bool hasStaticShape(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape();
}

bool isCandidate(linalg::Conv2DNhwcHwcfOp conv) {
  return conv.hasPureTensorSemantics() && !hasDLTuneAttrs(conv) &&
         llvm::all_of(conv->getOperands(), hasStaticShape);
}

/// `value` ([rows, cols]) padded with zeros at the high ends to `rows` x
/// `cols` (unchanged if it is that size already).
Value padTo(ImplicitLocOpBuilder &b, Value value, int64_t rows, int64_t cols) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getDimSize(0) == rows && type.getDimSize(1) == cols)
    return value;
  SmallVector<OpFoldResult> low(2, b.getIndexAttr(0));
  SmallVector<OpFoldResult> high = {b.getIndexAttr(rows - type.getDimSize(0)),
                                    b.getIndexAttr(cols - type.getDimSize(1))};
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(type.getElementType()));
  return tensor::PadOp::create(
      b, RankedTensorType::get({rows, cols}, type.getElementType()), value, low, high, zero);
}

/// Collapses an [a, b, c, d] tensor into [a*b*c, d] (row-major: a view).
Value collapseToRows(ImplicitLocOpBuilder &b, Value value) {
  SmallVector<ReassociationIndices> groups = {{0, 1, 2}, {3}};
  return tensor::CollapseShapeOp::create(b, value, groups);
}

/// A: [Mp, Kp] patches of `input` ([N, H, W, C]) for an output of
/// [N, OH, OW] pixels and a KH x KW filter; rows from M and columns from K
/// on are zero.
Value gatherPatches(ImplicitLocOpBuilder &b, Value input, ArrayRef<int64_t> outShape,
                    int64_t kh, int64_t kw, ArrayRef<int64_t> strides,
                    ArrayRef<int64_t> dilations, int64_t mp, int64_t kp) {
  auto inType = cast<RankedTensorType>(input.getType());
  Type elem = inType.getElementType();
  int64_t c = inType.getDimSize(3);
  int64_t oh = outShape[1], ow = outShape[2];
  int64_t m = outShape[0] * oh * ow, k = kh * kw * c;
  Value empty = tensor::EmptyOp::create(b, ArrayRef<int64_t>{mp, kp}, elem);
  MLIRContext *ctx = b.getContext();
  auto map = AffineMap::getMultiDimIdentityMap(2, ctx);
  auto generic = linalg::GenericOp::create(
      b, TypeRange{empty.getType()}, ValueRange{}, ValueRange{empty}, ArrayRef<AffineMap>{map},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel, utils::IteratorType::parallel},
      [&](OpBuilder &nb, Location loc, ValueRange) {
        ImplicitLocOpBuilder ib(loc, nb);
        auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(ib, v).getResult(); };
        Value row = linalg::IndexOp::create(ib, 0);
        Value col = linalg::IndexOp::create(ib, 1);
        // Padding rows and columns read pixel (0, 0, 0, 0) and drop it. Only
        // padded dimensions are checked, each index by its own check: the
        // GPU matmul kernel's implicit GEMM loads a vector of columns at
        // once where the arithmetic shows them contiguous, which a select
        // of the columns (by any check) hides.
        Value rowInside, colInside;
        if (mp != m)
          rowInside = arith::CmpIOp::create(ib, arith::CmpIPredicate::ult, row, cst(m));
        if (kp != k)
          colInside = arith::CmpIOp::create(ib, arith::CmpIPredicate::ult, col, cst(k));
        Value r = rowInside ? arith::SelectOp::create(ib, rowInside, row, cst(0)) : row;
        Value q = colInside ? arith::SelectOp::create(ib, colInside, col, cst(0)) : col;
        Value inside = rowInside && colInside ? arith::AndIOp::create(ib, rowInside, colInside)
                                              : rowInside ? rowInside : colInside;
        Value n = arith::DivUIOp::create(ib, r, cst(oh * ow));
        Value y = arith::RemUIOp::create(ib, arith::DivUIOp::create(ib, r, cst(ow)), cst(oh));
        Value x = arith::RemUIOp::create(ib, r, cst(ow));
        Value ty = arith::DivUIOp::create(ib, q, cst(kw * c));
        Value tx = arith::RemUIOp::create(ib, arith::DivUIOp::create(ib, q, cst(c)), cst(kw));
        Value ch = arith::RemUIOp::create(ib, q, cst(c));
        Value h = arith::AddIOp::create(ib, arith::MulIOp::create(ib, y, cst(strides[0])),
                                        arith::MulIOp::create(ib, ty, cst(dilations[0])));
        Value w = arith::AddIOp::create(ib, arith::MulIOp::create(ib, x, cst(strides[1])),
                                        arith::MulIOp::create(ib, tx, cst(dilations[1])));
        Value v = tensor::ExtractOp::create(ib, input, ValueRange{n, h, w, ch});
        if (inside) {
          Value zero = arith::ConstantOp::create(ib, ib.getZeroAttr(elem));
          v = arith::SelectOp::create(ib, inside, v, zero);
        }
        linalg::YieldOp::create(ib, ValueRange{v});
      });
  return generic.getResult(0);
}

/// C: the convolution's init as [Mp, Fp]: a fill of an empty tensor becomes
/// the same fill of the padded shape, anything else is collapsed and padded.
Value padInit(ImplicitLocOpBuilder &b, Value init, int64_t mp, int64_t fp) {
  auto type = cast<RankedTensorType>(init.getType());
  if (auto fill = init.getDefiningOp<linalg::FillOp>();
      fill && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
    Value empty = tensor::EmptyOp::create(b, ArrayRef<int64_t>{mp, fp}, type.getElementType());
    return linalg::FillOp::create(b, fill.getInputs()[0], empty).getResult(0);
  }
  return padTo(b, collapseToRows(b, init), mp, fp);
}

void rewrite(linalg::Conv2DNhwcHwcfOp conv, int64_t mAlign, int64_t nAlign, int64_t kAlign) {
  ImplicitLocOpBuilder b(conv.getLoc(), conv);
  Value input = conv.getInputs()[0], filter = conv.getInputs()[1];
  Value init = conv.getOutputs()[0];
  auto outType = cast<RankedTensorType>(conv->getResult(0).getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  ArrayRef<int64_t> out = outType.getShape();
  int64_t kh = filterType.getDimSize(0), kw = filterType.getDimSize(1);
  int64_t c = filterType.getDimSize(2), f = filterType.getDimSize(3);
  SmallVector<int64_t> strides(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations(conv.getDilations().getValues<int64_t>());
  int64_t m = out[0] * out[1] * out[2], k = kh * kw * c;
  int64_t mp = roundUp(m, mAlign), fp = roundUp(f, nAlign), kp = roundUp(k, kAlign);
  auto inType = cast<RankedTensorType>(input.getType());
  bool pointwise = kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 &&
                   inType.getDimSize(1) == out[1] && inType.getDimSize(2) == out[2];
  Value a = pointwise ? padTo(b, collapseToRows(b, input), mp, kp)
                      : gatherPatches(b, input, out, kh, kw, strides, dilations, mp, kp);
  SmallVector<ReassociationIndices> filterGroups = {{0, 1, 2}, {3}};
  Value bMatrix = padTo(b, tensor::CollapseShapeOp::create(b, filter, filterGroups), kp, fp);
  Value cMatrix = padInit(b, init, mp, fp);
  Value product =
      linalg::MatmulOp::create(b, TypeRange{cMatrix.getType()}, ValueRange{a, bMatrix},
                               ValueRange{cMatrix})
          .getResult(0);
  if (mp != m || fp != f) {
    SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(m), b.getIndexAttr(f)};
    SmallVector<OpFoldResult> steps(2, b.getIndexAttr(1));
    product = tensor::ExtractSliceOp::create(
        b, RankedTensorType::get({m, f}, outType.getElementType()), product, offsets, sizes,
        steps);
  }
  SmallVector<ReassociationIndices> outGroups = {{0, 1, 2}, {3}};
  Value result = tensor::ExpandShapeOp::create(b, outType, product, outGroups);
  conv->getResult(0).replaceAllUsesWith(result);
  conv->erase();
}

struct ConvToMatmulPass : public dltune::impl::DLTuneConvToMatmulBase<ConvToMatmulPass> {
  using DLTuneConvToMatmulBase::DLTuneConvToMatmulBase;

  void runOnOperation() override {
    if (mAlign < 1 || nAlign < 1 || kAlign < 1) {
      getOperation().emitError() << "dltune-conv-to-matmul: m-align, n-align and k-align must "
                                    "be at least 1";
      return signalPassFailure();
    }
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
      if (isCandidate(conv))
        convs.push_back(conv);
    });
    for (linalg::Conv2DNhwcHwcfOp conv : convs)
      rewrite(conv, mAlign, nAlign, kAlign);
  }
};
} // namespace
