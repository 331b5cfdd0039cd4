//===- ReductionOps.cpp - ONNX ReduceMean, Softmax ------------------------===//
//
// Reductions over axes: ReduceMean, and Softmax (a max, the exponentials
// and their sum over one axis).
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

llvm::Error importReduceMean(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  std::vector<int64_t> axes = intsAttr(node, "axes");
  if (hasInput(node, 1)) { // opset 18 moves axes to an input
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, 1);
    if (!t)
      return t.takeError();
    axes = (*t)->i;
  }
  if (axes.empty())
    for (int64_t d = 0; d < xt.getRank(); ++d)
      axes.push_back(d);
  llvm::Expected<std::vector<int64_t>> norm = im.normalizeAxes(node, axes, xt.getRank());
  if (!norm)
    return norm.takeError();
  llvm::Expected<Value> y = im.mean(node, *x, *norm, intAttr(node, "keepdims", 1));
  if (!y)
    return y.takeError();
  im.define(node, 0, *y);
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
  table.add("ReduceMean", {importReduceMean, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("Softmax", {importSoftmax, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
}
