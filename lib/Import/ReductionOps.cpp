//===- ReductionOps.cpp - ONNX Reduce{Mean,Sum,Max}, Softmax --------------===//
//
// Reductions over axes: ReduceMean, ReduceSum, ReduceMax, and Softmax (a
// max, the exponentials and their sum over one axis).
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <algorithm>
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
  llvm::Expected<std::vector<int64_t>> norm = im.normalizeAxes(node, axes, rank);
  if (!norm)
    return norm.takeError();
  std::vector<int64_t> sorted = *norm;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return im.nodeError(node, "axes " + shapeString(axes) + " name an axis twice");
  return norm;
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

} // namespace

void onnx_import::registerReductionOps(OpTable &table) {
  table.add("ReduceMax", {importReduce, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("ReduceMean", {importReduce, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("ReduceSum", {importReduce, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Softmax", {importSoftmax, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
}
