//===- PadInPlace.cpp - producers write into their consumer's padding -----===//
//
// A model's convolutions read padded copies of their inputs: the importer
// pads each input with tensor.pad, which bufferizes to a new buffer, a fill
// and a copy of the whole activation (MobileNet-v2: 17.5 MB written by 18
// pads per call, a fifth of its time). Here the padded buffer is made first,
// only its border is filled, and the op producing the pad's source writes
// straight into its interior (upstream empty-tensor elimination), so the
// copy disappears.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEPADINPLACE
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

/// The tensor.empty that the op producing `value` writes its result into,
/// followed through destination-style ops (a linalg op's init, a fill's
/// destination) and loop inits (the tiled loops of a scheduled op), or null.
/// Every value on the way past `value` must have one use: replacing the
/// empty tensor redirects every user, and another reader of an
/// intermediate would see it overwritten.
static tensor::EmptyOp findResultDestination(Value value) {
  while (auto result = dyn_cast<OpResult>(value)) {
    Operation *def = result.getOwner();
    if (auto empty = dyn_cast<tensor::EmptyOp>(def))
      return empty;
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(def))
      value = dps.getTiedOpOperand(result)->get();
    else if (auto forall = dyn_cast<scf::ForallOp>(def))
      value = forall.getOutputs()[result.getResultNumber()];
    else if (auto loop = dyn_cast<scf::ForOp>(def))
      value = loop.getInitArgs()[result.getResultNumber()];
    else
      return nullptr;
    if (!value.hasOneUse())
      return nullptr;
  }
  return nullptr;
}

/// Fills the parts of `buffer` (the pad's result shape) outside the interior
/// [low, low + sourceShape) with `value`: per padded dimension d, one slab
/// below and one above the interior, spanning the interior in dimensions
/// before d and everything in dimensions after it, so the slabs and the
/// interior tile the buffer exactly once.
static Value fillBorder(RewriterBase &rewriter, Location loc, Value buffer, Value value,
                        ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                        ArrayRef<int64_t> sourceShape) {
  auto type = cast<RankedTensorType>(buffer.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = type.getRank();
  SmallVector<int64_t> ones(rank, 1);
  for (int64_t d = 0; d < rank; ++d) {
    for (bool below : {true, false}) {
      int64_t extent = below ? low[d] : high[d];
      if (extent == 0)
        continue;
      SmallVector<int64_t> offsets(rank, 0), sizes(shape.begin(), shape.end());
      for (int64_t j = 0; j < d; ++j) {
        offsets[j] = low[j];
        sizes[j] = sourceShape[j];
      }
      offsets[d] = below ? 0 : low[d] + sourceShape[d];
      sizes[d] = extent;
      auto slabType = RankedTensorType::get(sizes, type.getElementType());
      Value slab = tensor::ExtractSliceOp::create(rewriter, loc, slabType, buffer, ValueRange{},
                                                  ValueRange{}, ValueRange{}, offsets, sizes, ones);
      Value filled = linalg::FillOp::create(rewriter, loc, value, slab).getResult(0);
      buffer = tensor::InsertSliceOp::create(rewriter, loc, filled, buffer, ValueRange{},
                                             ValueRange{}, ValueRange{}, offsets, sizes, ones);
    }
  }
  return buffer;
}

/// Rewrites `pad` into an insert of its source into a border-filled buffer
/// created before the source's producer; returns the insert, or null when
/// the pad does not qualify (dynamic sizes, negative padding (a crop), a
/// non-constant pad value, a `nofold` pad, a source that no op writes into
/// an empty tensor of its own).
static tensor::InsertSliceOp rewritePad(RewriterBase &rewriter, tensor::PadOp pad) {
  RankedTensorType type = pad.getResultType();
  RankedTensorType sourceType = pad.getSourceType();
  auto negative = [](int64_t v) { return v < 0; };
  if (pad.getNofold() || !type.hasStaticShape() || !sourceType.hasStaticShape() ||
      !pad.getLow().empty() || !pad.getHigh().empty() ||
      llvm::any_of(pad.getStaticLow(), negative) || llvm::any_of(pad.getStaticHigh(), negative))
    return nullptr;
  Value padValue = pad.getConstantPaddingValue();
  if (!padValue || !matchPattern(padValue, m_Constant()))
    return nullptr;
  tensor::EmptyOp destination = findResultDestination(pad.getSource());
  if (!destination || destination->getBlock() != pad->getBlock())
    return nullptr;

  Location loc = pad.getLoc();
  rewriter.setInsertionPoint(destination);
  // The constant may be defined after the producer: a copy before it.
  Value value = rewriter.clone(*padValue.getDefiningOp())->getResult(0);
  // Not a tensor.empty: CSE would merge equal pads' buffers and their
  // border fills, and two producers writing into one buffer need copies.
  Value buffer = bufferization::AllocTensorOp::create(rewriter, loc, type, ValueRange{});
  buffer = fillBorder(rewriter, loc, buffer, value, pad.getStaticLow(), pad.getStaticHigh(),
                      sourceType.getShape());
  rewriter.setInsertionPoint(pad);
  SmallVector<int64_t> ones(type.getRank(), 1);
  auto insert = tensor::InsertSliceOp::create(rewriter, loc, pad.getSource(), buffer,
                                              ValueRange{}, ValueRange{}, ValueRange{},
                                              pad.getStaticLow(), sourceType.getShape(), ones);
  rewriter.replaceOp(pad, insert.getResult());
  return insert;
}

namespace {
struct PadInPlacePass : public dltune::impl::DLTunePadInPlaceBase<PadInPlacePass> {
  using DLTunePadInPlaceBase::DLTunePadInPlaceBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Pads at function level only: pads inside loops are a schedule's
    // packing, which has its own buffers.
    SmallVector<tensor::PadOp> pads;
    module.walk([&](tensor::PadOp pad) {
      if (isa<FunctionOpInterface>(pad->getParentOp()))
        pads.push_back(pad);
    });
    IRRewriter rewriter(&getContext());
    llvm::SmallPtrSet<Operation *, 16> inserts;
    for (tensor::PadOp pad : pads)
      if (tensor::InsertSliceOp insert = rewritePad(rewriter, pad))
        inserts.insert(insert);
    if (inserts.empty())
      return;

    // The producers' empty destinations become slices of the padded
    // buffers; only for the inserts made here, so that no other insert's
    // producer is redirected (a concat's parts are left as they were).
    bufferization::OneShotBufferizationOptions options;
    options.allowReturnAllocsFromLoops = true;
    bufferization::OneShotAnalysisState state(module, options);
    if (failed(bufferization::analyzeOp(module, state)))
      return signalPassFailure();
    auto onlyOurs = [&](RewriterBase &r, SubsetInsertionOpInterface op,
                        tensor::EmptyOp empty, Operation *user) -> Value {
      if (!inserts.contains(op.getOperation()))
        return Value();
      return bufferization::buildSubsetExtraction(r, op, empty, user);
    };
    if (failed(bufferization::eliminateEmptyTensors(rewriter, module, state, onlyOurs)))
      return signalPassFailure();
    // The replaced destinations are left without users.
    module.walk([&](tensor::EmptyOp empty) {
      if (empty->use_empty())
        rewriter.eraseOp(empty);
    });
  }
};
} // namespace
