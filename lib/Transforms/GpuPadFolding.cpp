//===- GpuPadFolding.cpp - Padded reads instead of padded copies ----------===//
//
// MobileNet-v2 pads the input of each of its 17 depthwise convolutions, and
// ResNet-18's patch gathers read 17 padded inputs: on the GPU each pad was
// a fill kernel and a copy kernel per call and a buffer as large as the
// activation (without them, at batch 1: MobileNet-v2 131 launches instead
// of 160, ResNet-18 48 instead of 84). A read of the padded tensor at
// index i becomes
//
//   inside = low <= i < low + size          (in each padded dimension)
//   v      = source[inside ? i - low : 0]   (always a valid index: the
//                                            source is not empty)
//   value  = inside ? v : padding value
//
// which loads unconditionally (no divergent branch) from the same
// addresses the copy read, minus the copy.
//
//===----------------------------------------------------------------------===//

#include "GpuPadFolding.h"

#include "dltune/Dialect/DLTuneDialect.h"

#include "dltune/Transforms/ConstantData.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <cstring>

using namespace mlir;
using namespace mlir::dltune;

namespace {
/// A pad whose reads can be redirected to its source.
struct FoldablePad {
  mutable tensor::PadOp pad; // op handles are not const-correct
  SmallVector<int64_t> low, high, sourceShape;
  /// The padding value, when it is a constant (re-created at each read);
  /// else `paddingValue`, defined outside the pad.
  TypedAttr paddingConstant;
  Value paddingValue;
};
} // namespace

/// Whether `pad` has static, non-negative amounts (dynamic ones are
/// operands) and a static, non-empty source.
static bool hasStaticAmounts(tensor::PadOp pad) {
  auto nonNegative = [](ArrayRef<int64_t> amounts) {
    return llvm::all_of(amounts, [](int64_t a) { return a >= 0; });
  };
  RankedTensorType source = pad.getSourceType();
  return pad.getLow().empty() && pad.getHigh().empty() && source.hasStaticShape() &&
         source.getNumElements() > 0 && nonNegative(pad.getStaticLow()) &&
         nonNegative(pad.getStaticHigh());
}

static std::optional<FoldablePad> matchPad(tensor::PadOp pad) {
  RankedTensorType source = pad.getSourceType();
  if (pad.getNofold() || !hasStaticAmounts(pad))
    return std::nullopt;
  FoldablePad p;
  p.pad = pad;
  p.low = llvm::to_vector(pad.getStaticLow());
  p.high = llvm::to_vector(pad.getStaticHigh());
  p.sourceShape = llvm::to_vector(source.getShape());
  Value value = pad.getConstantPaddingValue();
  if (!value)
    return std::nullopt;
  if (!matchPattern(value, m_Constant(&p.paddingConstant))) {
    if (pad.getRegion().isAncestor(value.getParentRegion()))
      return std::nullopt;
    p.paddingValue = value;
  }
  return p;
}

/// The padded tensor's element at `indices`, read from the pad's source.
static Value readPadded(OpBuilder &b, Location loc, const FoldablePad &p, ValueRange indices) {
  Value inside;
  SmallVector<Value> sourceIndices(indices);
  SmallVector<unsigned> padded;
  for (unsigned d = 0; d < indices.size(); ++d) {
    if (p.low[d] == 0 && p.high[d] == 0)
      continue;
    padded.push_back(d);
    Value i = indices[d];
    if (p.low[d] != 0)
      i = arith::SubIOp::create(b, loc, i, arith::ConstantIndexOp::create(b, loc, p.low[d]));
    Value size = arith::ConstantIndexOp::create(b, loc, p.sourceShape[d]);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value ok = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, size));
    inside = inside ? arith::AndIOp::create(b, loc, inside, ok).getResult() : ok;
    sourceIndices[d] = i;
  }
  Value source = p.pad.getSource();
  if (!inside)
    return tensor::ExtractOp::create(b, loc, source, sourceIndices);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (unsigned d : padded)
    sourceIndices[d] = arith::SelectOp::create(b, loc, inside, sourceIndices[d], zero);
  Value element = tensor::ExtractOp::create(b, loc, source, sourceIndices);
  Value padding = p.paddingConstant
                      ? arith::ConstantOp::create(b, loc, p.paddingConstant).getResult()
                      : p.paddingValue;
  return arith::SelectOp::create(b, loc, inside, element, padding);
}

/// `op` without its input `operand` (the padded tensor): its body reads
/// the element through readPadded at the operand's indexing map instead.
static void dropPaddedInput(RewriterBase &rewriter, linalg::GenericOp op, OpOperand *operand,
                            const FoldablePad &p) {
  Location loc = op.getLoc();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (in == operand)
      continue;
    inputs.push_back(in->get());
    maps.push_back(op.getMatchingIndexingMap(in));
  }
  for (OpOperand &init : op.getDpsInitsMutable())
    maps.push_back(op.getMatchingIndexingMap(&init));
  AffineMap read = op.getMatchingIndexingMap(operand);
  BlockArgument arg = op.getMatchingBlockArgument(operand);

  rewriter.setInsertionPoint(op);
  auto fresh = linalg::GenericOp::create(rewriter, loc, op->getResultTypes(), inputs,
                                         op.getDpsInits(), maps, op.getIteratorTypesArray());
  fresh->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(op.getRegion(), fresh.getRegion(), fresh.getRegion().end());
  Block &body = fresh.getRegion().front();
  rewriter.setInsertionPointToStart(&body);
  SmallVector<Value> loops;
  for (unsigned d = 0; d < fresh.getNumLoops(); ++d)
    loops.push_back(linalg::IndexOp::create(rewriter, loc, d));
  SmallVector<Value> indices;
  for (unsigned r = 0; r < read.getNumResults(); ++r)
    indices.push_back(affine::AffineApplyOp::create(rewriter, loc, read.getSubMap({r}), loops));
  rewriter.replaceAllUsesWith(arg, readPadded(rewriter, loc, p, indices));
  body.eraseArgument(arg.getArgNumber());
  rewriter.replaceOp(op, fresh->getResults());
}

/// Whether `op` belongs to a kernel a schedule builds (a matmul with its
/// GPU kernel, an op tiled into mapped loops): those read buffers.
static bool isScheduled(Operation *op) {
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) || op->getParentOfType<scf::ForallOp>())
    return true;
  // A window kernel (GpuWindowKernel.h) evaluates the op's body as it is:
  // its reads may be folded like a leftover op's.
  if (op->hasAttr(DLTuneDialect::kGpuKernelAttrName))
    return false;
  return llvm::any_of(op->getAttrs(), [](NamedAttribute attr) {
    return attr.getName().strref().starts_with("dltune.");
  });
}

/// Redirects one read of `p`'s result; false when none is left that can be.
static bool foldOneRead(IRRewriter &rewriter, const FoldablePad &p) {
  for (OpOperand &use : p.pad.getResult().getUses()) {
    Operation *user = use.getOwner();
    if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
      rewriter.setInsertionPoint(extract);
      rewriter.replaceOp(extract, readPadded(rewriter, extract.getLoc(), p, extract.getIndices()));
      return true;
    }
    // The op must keep a loop size without the operand (a reduction of a
    // padded row alone would have none).
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics() || !linalgOp.isDpsInput(&use) ||
        user->getNumRegions() != 1 || isScheduled(user) ||
        !linalgOp.canOpOperandsBeDropped({&use}))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic) {
      rewriter.setInsertionPoint(user);
      // dltune's attributes (a window kernel's tiles) stay with the op.
      SmallVector<NamedAttribute> kept;
      for (NamedAttribute attr : user->getDiscardableAttrs())
        if (attr.getName().strref().starts_with("dltune."))
          kept.push_back(attr);
      FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rewriter, linalgOp);
      if (failed(generalized))
        continue;
      for (NamedAttribute attr : kept)
        (*generalized)->setAttr(attr.getName(), attr.getValue());

      return true; // its operand is a new use: looked at on the next round
    }
    dropPaddedInput(rewriter, generic, &use, p);
    return true;
  }
  return false;
}

/// Replaces `pad` by a constant when it pads a constant (through reshapes,
/// which keep the row-major order) with a constant: a convolution's
/// weights padded to the GPU matmul's tiles, done once here instead of by
/// a fill and a copy kernel every call. False where it does not apply.
static bool padConstant(IRRewriter &rewriter, tensor::PadOp pad) {
  RankedTensorType sourceType = pad.getSourceType(), resultType = pad.getResultType();
  if (pad.getNofold() || !hasStaticAmounts(pad) || !resultType.hasStaticShape() ||
      sourceType.getRank() == 0)
    return false;
  Value source = pad.getSource();
  while (Operation *reshape = source.getDefiningOp()) {
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(reshape))
      source = collapse.getSrc();
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape))
      source = expand.getSrc();
    else
      break;
  }
  auto constant = source.getDefiningOp<arith::ConstantOp>();
  TypedAttr padding;
  Value paddingValue = pad.getConstantPaddingValue();
  if (!constant || !paddingValue || !matchPattern(paddingValue, m_Constant(&padding)))
    return false;
  std::optional<SmallVector<char, 8>> paddingBytes = getScalarElementBytes(padding);
  Type elementType = sourceType.getElementType();
  if (!paddingBytes || !elementType.isIntOrFloat() ||
      static_cast<int64_t>(paddingBytes->size()) * 8 != elementType.getIntOrFloatBitWidth())
    return false;
  int64_t elementBytes = paddingBytes->size();
  // The source's elements: a splat's one, or all of them.
  ArrayRef<char> data;
  bool splat = false;
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(constant.getValue());
      dense && dense.isSplat()) {
    data = dense.getRawData();
    splat = true;
  } else if (std::optional<ArrayRef<char>> bytes = getDenseConstantBytes(constant.getValue())) {
    data = *bytes;
  } else {
    return false;
  }
  if (static_cast<int64_t>(data.size()) !=
      (splat ? 1 : sourceType.getNumElements()) * elementBytes)
    return false;

  ArrayRef<int64_t> in = sourceType.getShape(), out = resultType.getShape();
  ArrayRef<int64_t> low = pad.getStaticLow();
  SmallVector<char> bytes(resultType.getNumElements() * elementBytes);
  for (size_t at = 0; at < bytes.size(); at += elementBytes)
    std::memcpy(&bytes[at], paddingBytes->data(), elementBytes);
  // Copy the source row by row (its innermost dimension is contiguous in
  // both) to its place: each index shifted by the low padding.
  int64_t rank = sourceType.getRank(), rowLength = in.back();
  int64_t rows = sourceType.getNumElements() / std::max<int64_t>(rowLength, 1);
  for (int64_t row = 0; row < rows && rowLength > 0; ++row) {
    int64_t rest = row, target = 0, stride = out.back();
    target = low[rank - 1];
    for (int64_t d = rank - 2; d >= 0; --d) {
      target += (rest % in[d] + low[d]) * stride;
      rest /= in[d];
      stride *= out[d];
    }
    for (int64_t e = 0; e < rowLength; ++e) {
      const char *from = splat ? data.data() : &data[(row * rowLength + e) * elementBytes];
      std::memcpy(&bytes[(target + e) * elementBytes], from, elementBytes);
    }
  }
  rewriter.setInsertionPoint(pad);
  rewriter.replaceOpWithNewOp<arith::ConstantOp>(
      pad, getDenseResourceAttr(resultType, "dltune_padded", bytes));
  return true;
}

LogicalResult mlir::dltune::foldPadsIntoReads(ModuleOp module) {
  SmallVector<tensor::PadOp> pads;
  module.walk([&](tensor::PadOp pad) { pads.push_back(pad); });
  IRRewriter rewriter(module.getContext());
  for (tensor::PadOp pad : pads) {
    if (padConstant(rewriter, pad))
      continue;
    std::optional<FoldablePad> p = matchPad(pad);
    if (!p)
      continue;
    while (foldOneRead(rewriter, *p)) {
    }
    if (pad.getResult().use_empty())
      rewriter.eraseOp(pad);
  }
  return success();
}
