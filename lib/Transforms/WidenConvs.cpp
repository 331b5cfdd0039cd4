//===- WidenConvs.cpp - --dltune-widen-convs ------------------------------===//
//
// A default conv schedule tiles the output width by register rows; where no
// row count divides the width, the last tile of each row is partial and the
// packed schedule pads it, copying its input window every time (SqueezeNet's
// 109-wide 7x7 stem ran at half the speed of ResNet-18's 112-wide one).
// Computing three more columns and cropping them is cheaper: the 109-wide
// stem with its bias and ReLU ran 1.66x faster as 112 wide and cropped
// (paired in-process, 60 calls, 2026-11-26).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Transforms/Passes.h"
#include "dltune/Transforms/SchedulePlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEWIDENCONVS
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {

/// Index of the output width in NHWC.
constexpr int64_t kWidthDim = 2;

/// `value` padded with zeros at the high end of dimension `dim` to `size`
/// (unchanged if it is that size already).
Value padHigh(ImplicitLocOpBuilder &b, Value value, int64_t dim, int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t extra = size - type.getDimSize(dim);
  if (extra <= 0)
    return value;
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size;
  SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> high(type.getRank(), b.getIndexAttr(0));
  high[dim] = b.getIndexAttr(extra);
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(type.getElementType()));
  return tensor::PadOp::create(b, RankedTensorType::get(shape, type.getElementType()), value,
                               low, high, zero);
}

/// The init `init` of an op whose result widens to `type`: a fill of an
/// empty tensor becomes the same fill of a wider one, a plain empty tensor
/// a wider one, anything else is padded with zeros.
Value widenInit(ImplicitLocOpBuilder &b, Value init, RankedTensorType type) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>();
      fill && fill->hasOneUse() && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
    Value empty = tensor::EmptyOp::create(b, type.getShape(), type.getElementType());
    return linalg::FillOp::create(b, fill.getInputs()[0], empty).getResult(0);
  }
  if (init.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(b, type.getShape(), type.getElementType());
  return padHigh(b, init, kWidthDim, type.getDimSize(kWidthDim));
}

/// The output width `conv`'s default schedule should compute: the width
/// rounded up to a multiple of the register rows its default plan picks,
/// or the width itself where those divide it (or there is no plan).
int64_t getWidenedWidth(linalg::Conv2DNhwcHwcfOp conv, const CpuTarget &cpu) {
  auto outType = cast<RankedTensorType>(conv->getResult(0).getType());
  int64_t width = outType.getDimSize(kWidthDim);
  std::string whyNot;
  FailureOr<SchedulePlan> plan =
      buildSchedulePlan(cast<linalg::LinalgOp>(conv.getOperation()), ScheduleTarget::CPU, cpu,
                        whyNot);
  if (failed(plan))
    return width;
  auto rows = plan->preferred.find("reg_ow");
  if (rows == plan->preferred.end() || rows->second <= 1 || width % rows->second == 0)
    return width;
  return llvm::alignTo(width, rows->second);
}

bool isCandidate(linalg::Conv2DNhwcHwcfOp conv) {
  auto isStatic = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.hasStaticShape();
  };
  return conv.hasPureTensorSemantics() && !hasDLTuneAttrs(conv) &&
         llvm::all_of(conv->getOperands(), isStatic) && isStatic(conv->getResult(0));
}

/// Rewrites `conv` (and its fusable epilogue) to produce `width` output
/// columns and crops the result back to the original width.
void widen(linalg::Conv2DNhwcHwcfOp conv, int64_t width) {
  ImplicitLocOpBuilder b(conv.getLoc(), conv);
  auto outType = cast<RankedTensorType>(conv->getResult(0).getType());
  SmallVector<int64_t> wideShape(outType.getShape());
  wideShape[kWidthDim] = width;
  auto wideType = RankedTensorType::get(wideShape, outType.getElementType());

  // The input columns the wider output reads: (width - 1) * stride +
  // (kw - 1) * dilation + 1.
  Value input = conv.getInputs()[0], filter = conv.getInputs()[1];
  int64_t stride = conv.getStrides().getValues<int64_t>()[1];
  int64_t dilation = conv.getDilations().getValues<int64_t>()[1];
  int64_t kw = cast<RankedTensorType>(filter.getType()).getDimSize(1);
  int64_t inputWidth = (width - 1) * stride + (kw - 1) * dilation + 1;
  Value wideInput = padHigh(b, input, kWidthDim, inputWidth);
  Value wideInit = widenInit(b, conv.getOutputs()[0], wideType);
  auto wideConv = linalg::Conv2DNhwcHwcfOp::create(
      b, TypeRange{wideType}, ValueRange{wideInput, filter}, ValueRange{wideInit});
  wideConv.setStridesAttr(conv.getStrides());
  wideConv.setDilationsAttr(conv.getDilations());
  Value result = wideConv->getResult(0);
  Operation *last = conv;

  if (linalg::GenericOp epilogue =
          getFusableEpilogue(cast<linalg::LinalgOp>(conv.getOperation()))) {
    b.setInsertionPoint(epilogue);
    IRMapping map;
    for (OpOperand *operand : epilogue.getDpsInputOperands()) {
      Value v = operand->get();
      if (v == conv->getResult(0)) {
        map.map(v, result);
        continue;
      }
      // An operand indexed by the width (a residual) is padded along the
      // dimension that reads it; a per-channel bias is left as it is.
      AffineMap indexing = epilogue.getMatchingIndexingMap(operand);
      for (unsigned r = 0; r < indexing.getNumResults(); ++r)
        if (indexing.getResult(r) == b.getAffineDimExpr(kWidthDim))
          map.map(v, padHigh(b, v, r, width));
    }
    Value epilogueInit = epilogue.getDpsInitOperand(0)->get();
    map.map(epilogueInit, widenInit(b, epilogueInit, wideType));
    Operation *wideEpilogue = b.clone(*epilogue, map);
    epilogue.getDpsInitOperand(0)->set(wideInit); // so the old init can go
    if (Operation *old = epilogueInit.getDefiningOp<tensor::EmptyOp>(); old && old->use_empty())
      old->erase();
    wideEpilogue->getResult(0).setType(wideType);
    result = wideEpilogue->getResult(0);
    last = epilogue;
  }
  b.setInsertionPointAfter(last);
  SmallVector<OpFoldResult> offsets(outType.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(outType.getRank(), b.getIndexAttr(1));
  for (int64_t d : outType.getShape())
    sizes.push_back(b.getIndexAttr(d));
  Value cropped = tensor::ExtractSliceOp::create(b, outType, result, offsets, sizes, strides);
  last->getResult(0).replaceAllUsesWith(cropped);
  if (last != conv)
    last->erase();
  Operation *oldInit = conv.getOutputs()[0].getDefiningOp();
  conv->erase();
  if (oldInit && isa<linalg::FillOp, tensor::EmptyOp>(oldInit) && oldInit->use_empty())
    oldInit->erase();
}

struct WidenConvsPass : public dltune::impl::DLTuneWidenConvsBase<WidenConvsPass> {
  using DLTuneWidenConvsBase::DLTuneWidenConvsBase;

  void runOnOperation() override {
    if (cpuLanes < 0 || cpuRegisters < 0) {
      getOperation().emitError() << "dltune-widen-convs: cpu-lanes and cpu-registers must not "
                                    "be negative";
      return signalPassFailure();
    }
    CpuTarget cpu = CpuTarget::getHost(1);
    if (cpuLanes > 0)
      cpu.lanes = cpuLanes;
    if (cpuRegisters > 0)
      cpu.vectorRegisters = cpuRegisters;
    auto collect = [&] {
      SmallVector<std::pair<linalg::Conv2DNhwcHwcfOp, int64_t>> found;
      getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
        if (!isCandidate(conv))
          return;
        int64_t width = getWidenedWidth(conv, cpu);
        if (width != cast<RankedTensorType>(conv->getResult(0).getType()).getDimSize(kWidthDim))
          found.push_back({conv, width});
      });
      return found;
    };
    if (collect().empty())
      return;
    // The epilogue widened with the conv is the one --dltune-annotate would
    // fuse: one generic per chain.
    if (failed(mergeElementwiseChains(getOperation())))
      getOperation().emitRemark() << "dltune-widen-convs: merging elementwise chains did not "
                                     "converge; some epilogues stay narrow";
    for (auto [conv, width] : collect())
      widen(conv, width);
  }
};

} // namespace
