//===- ReductionOps.cpp - ONNX Reduce{Mean,Sum,Max}, Softmax, ArgMax ------===//
//
// Reductions over axes: ReduceMean, ReduceSum, ReduceMax, Softmax (a max,
// the exponentials and their sum over one axis), and ArgMax / ArgMin (the
// extreme value and its int64 index over one axis).
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

/// The axes a Reduce* node reduces, normalized: the `axes` attribute, or
/// its input (ReduceSum from opset 13, the others from 18), every axis
/// when empty; none (the identity) when empty with noop_with_empty_axes.
llvm::Expected<std::vector<int64_t>> reductionAxes(ImportContext &im, const onnx::NodeProto &node,
                                                   int64_t rank) {
  std::vector<int64_t> axes = intsAttr(node, "axes");
  if (hasInput(node, 1)) {
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, 1);
    if (!t)
      return t.takeError();
    if ((*t)->isFloat)
      return im.nodeError(node, "axes must be integers");
    axes = (*t)->i;
  }
  if (axes.empty() && intAttr(node, "noop_with_empty_axes", 0))
    return axes;
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  return im.normalizeDistinctAxes(node, axes, rank);
}

llvm::Error importReduce(ImportContext &im, const onnx::NodeProto &node) {
  const std::string &op = node.op_type();
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  // Float-only is checked here, not by the op table: the axes input is an
  // integer tensor.
  if (!isa<FloatType>(xt.getElementType()))
    return im.nodeError(node, "input '" + node.input(0) +
                                  "' is not floating-point; only floating-point inputs are "
                                  "supported");
  llvm::Expected<std::vector<int64_t>> axes = reductionAxes(im, node, xt.getRank());
  if (!axes)
    return axes.takeError();
  if (axes->empty()) {
    im.define(node, 0, *x);
    return llvm::Error::success();
  }
  bool keepDims = intAttr(node, "keepdims", 1);
  if (op == "ReduceMean") {
    llvm::Expected<Value> y = im.mean(node, *x, *axes, keepDims);
    if (!y)
      return y.takeError();
    im.define(node, 0, *y);
  } else if (op == "ReduceSum") {
    im.define(node, 0, im.reduce(*x, *axes, keepDims, 0.0, addF));
  } else { // ReduceMax
    im.define(node, 0,
              im.reduce(*x, *axes, keepDims, -INFINITY,
                        [](ImplicitLocOpBuilder &ib, Value v, Value acc) -> Value {
                          return arith::MaximumFOp::create(ib, v, acc);
                        }));
  }
  return llvm::Error::success();
}

llvm::Error importSoftmax(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  int64_t axis = intAttr(node, "axis", -1);
  llvm::Expected<std::vector<int64_t>> a = im.normalizeAxes(node, {axis}, xt.getRank());
  if (!a)
    return a.takeError();
  Type elem = xt.getElementType();
  // exp(x - max) / sum(exp(x - max)) along the axis.
  Value mx = im.reduce(*x, *a, true, -INFINITY, [](ImplicitLocOpBuilder &ib, Value v, Value acc) {
    return arith::MaximumFOp::create(ib, v, acc);
  });
  llvm::Expected<Value> e =
      im.elementwise(node, {*x, mx}, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) {
        return math::ExpOp::create(ib, arith::SubFOp::create(ib, v[0], v[1]));
      });
  if (!e)
    return e.takeError();
  Value sum = im.reduce(*e, *a, true, 0.0, addF);
  llvm::Expected<Value> y =
      im.elementwise(node, {*e, sum}, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) {
        return arith::DivFOp::create(ib, v[0], v[1]);
      });
  if (!y)
    return y.takeError();
  im.define(node, 0, *y);
  return llvm::Error::success();
}

/// ArgMax / ArgMin over `axis` (keepdims, select_last_index): one reduction
/// linalg.generic with two results, the extreme value so far and its int64
/// index. The combiner does not depend on the order the axis is visited in:
/// a better value wins, and of equal ones the lower index (the higher with
/// select_last_index). NaN counts as larger and smaller than any number, so
/// the first NaN wins, as NumPy's argmax and argmin do. An NHWC input stays
/// NHWC when the result keeps the dimension or drops the channels.
llvm::Error importArgExtreme(ImportContext &im, const onnx::NodeProto &node) {
  bool isMax = node.op_type() == "ArgMax";
  bool last = intAttr(node, "select_last_index", 0);
  bool keepDims = intAttr(node, "keepdims", 1);
  llvm::Expected<Value> stored = im.getAsStored(node.input(0));
  if (!stored)
    return stored.takeError();
  int64_t rank = typeOf(*stored).getRank();
  if (rank == 0)
    return im.nodeError(node, "the input must have at least one dimension");
  llvm::Expected<std::vector<int64_t>> a =
      im.normalizeAxes(node, {intAttr(node, "axis", 0)}, rank);
  if (!a)
    return a.takeError();
  int64_t axis = (*a)[0];
  // The axis in NHWC order; dropping H or W of an NHWC value would leave
  // N x W x C or N x H x C, not the model's order: those read NCHW.
  bool nhwc = im.isChannelsLast(node.input(0)) && (keepDims || axis == 1);
  Value x = *stored;
  if (nhwc) {
    const int64_t toNhwc[4] = {0, 3, 1, 2};
    axis = toNhwc[axis];
  } else if (im.isChannelsLast(node.input(0))) {
    llvm::Expected<Value> v = im.get(node.input(0));
    if (!v)
      return v.takeError();
    x = *v;
  }
  RankedTensorType xt = typeOf(x);
  Type elem = xt.getElementType();
  bool isFloat = isa<FloatType>(elem);
  if (!isFloat && (elem.isInteger(1) || !elem.isIntOrIndex()))
    return im.nodeError(node, "only floating-point and integer inputs are supported");
  std::vector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    iterators.push_back(d == axis ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
    if (d != axis || keepDims) {
      outShape.push_back(d == axis ? 1 : xt.getDimSize(d));
      outExprs.push_back(d == axis ? im.b.getAffineConstantExpr(0) : im.b.getAffineDimExpr(d));
    }
  }
  // Start from the identity of the comparison: -inf / +inf, or the
  // smallest / largest integer, at index 0.
  Value initValue;
  if (isFloat) {
    initValue = im.filled(outShape, elem, isMax ? -INFINITY : INFINITY);
  } else {
    unsigned width = elem.getIntOrFloatBitWidth();
    APInt bound = isMax ? APInt::getSignedMinValue(width) : APInt::getSignedMaxValue(width);
    Value c = arith::ConstantOp::create(im.b, im.b.getIntegerAttr(elem, bound));
    initValue = linalg::FillOp::create(im.b, ValueRange{c},
                                       ValueRange{im.emptyTensor(outShape, elem)})
                    .getResult(0);
  }
  Type i64 = im.b.getI64Type();
  Value initIndex = im.filled(outShape, i64, 0.0);
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, &im.ctx);
  SmallVector<AffineMap> maps = {im.b.getMultiDimIdentityMap(rank), outMap, outMap};
  auto op = linalg::GenericOp::create(
      im.b, TypeRange{initValue.getType(), initIndex.getType()}, ValueRange{x},
      ValueRange{initValue, initIndex}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value v = args[0], best = args[1], bestIndex = args[2];
        Value index =
            arith::IndexCastOp::create(ib, i64, linalg::IndexOp::create(ib, axis).getResult());
        Value better, equal;
        if (isFloat) {
          Value vNan = arith::CmpFOp::create(ib, arith::CmpFPredicate::UNO, v, v);
          Value bestNan = arith::CmpFOp::create(ib, arith::CmpFPredicate::UNO, best, best);
          Value strict = arith::CmpFOp::create(
              ib, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, v, best);
          Value bestNumber = arith::CmpFOp::create(ib, arith::CmpFPredicate::ORD, best, best);
          Value nanOverNumber = arith::AndIOp::create(ib, vNan, bestNumber);
          better = arith::OrIOp::create(ib, strict, nanOverNumber);
          Value same = arith::CmpFOp::create(ib, arith::CmpFPredicate::OEQ, v, best);
          equal = arith::OrIOp::create(ib, same, arith::AndIOp::create(ib, vNan, bestNan));
        } else {
          better = arith::CmpIOp::create(
              ib, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, v, best);
          equal = arith::CmpIOp::create(ib, arith::CmpIPredicate::eq, v, best);
        }
        Value preferred = arith::CmpIOp::create(
            ib, last ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, index, bestIndex);
        Value take = arith::OrIOp::create(ib, better, arith::AndIOp::create(ib, equal, preferred));
        Value newBest = arith::SelectOp::create(ib, take, v, best);
        Value newIndex = arith::SelectOp::create(ib, take, index, bestIndex);
        linalg::YieldOp::create(ib, ValueRange{newBest, newIndex});
      });
  im.defineIn(nhwc && keepDims, node.output(0), op.getResult(1));
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerReductionOps(OpTable &table) {
  table.add("ReduceMax", {importReduce, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("ReduceMean", {importReduce, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("ReduceSum", {importReduce, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Softmax", {importSoftmax, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("ArgMax", {importArgExtreme, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("ArgMin", {importArgExtreme, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
}
