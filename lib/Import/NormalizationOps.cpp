//===- NormalizationOps.cpp - ONNX BatchNormalization, LayerNormalization -===//
//
// BatchNormalization that was not folded into a Conv (constant parameters:
// one per-channel scale and shift) and LayerNormalization over the
// trailing axes.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

llvm::Error importBatchNorm(ImportContext &im, const onnx::NodeProto &node) {
  if (intAttr(node, "training_mode", 0))
    return im.nodeError(node, "training_mode=1 is not supported (inference only)");
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() < 2)
    return im.nodeError(node, "input must have a channel dimension");
  int64_t c = xt.getDimSize(1);
  double eps = floatAttr(node, "epsilon", 1e-5f);
  // y = x * s + t with s = scale / sqrt(var + eps), t = bias - mean * s,
  // per channel, folded here when the parameters are constants.
  std::vector<const KnownTensor *> p;
  for (int k = 1; k <= 4; ++k) {
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, k);
    if (!t)
      return t.takeError();
    if ((*t)->size() != c)
      return im.nodeError(node, "parameter " + std::to_string(k) + " has " +
                                    std::to_string((*t)->size()) + " values for " +
                                    std::to_string(c) + " channels");
    p.push_back(*t);
  }
  KnownTensor s, t;
  std::vector<int64_t> shape(xt.getRank() - 1, 1);
  shape[0] = c;
  s.shape = t.shape = shape;
  for (int64_t o = 0; o < c; ++o) {
    double sv = p[0]->at(o) / std::sqrt(p[3]->at(o) + eps);
    s.f.push_back(sv);
    t.f.push_back(p[1]->at(o) - p[2]->at(o) * sv);
  }
  Value sv = im.materialize(s, xt.getElementType()), tv = im.materialize(t, xt.getElementType());
  llvm::Expected<Value> y = im.elementwise(node, {*x, sv, tv}, xt.getElementType(),
                                           [](ImplicitLocOpBuilder &ib, ValueRange a) {
                                             Value m = arith::MulFOp::create(ib, a[0], a[1]);
                                             return arith::AddFOp::create(ib, m, a[2]);
                                           });
  if (!y)
    return y.takeError();
  im.define(node, 0, *y);
  return llvm::Error::success();
}

llvm::Error importLayerNorm(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  int64_t axis = intAttr(node, "axis", -1);
  llvm::Expected<std::vector<int64_t>> a0 = im.normalizeAxes(node, {axis}, xt.getRank());
  if (!a0)
    return a0.takeError();
  std::vector<int64_t> axes;
  int64_t count = 1;
  for (int64_t d = (*a0)[0]; d < xt.getRank(); ++d) {
    axes.push_back(d);
    count *= xt.getDimSize(d);
  }
  double eps = floatAttr(node, "epsilon", 1e-5f);
  Type elem = xt.getElementType();
  Value sum = im.reduce(*x, axes, true, 0.0, addF);
  llvm::Expected<Value> centred =
      im.elementwise(node, {*x, sum}, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
        Value mean = arith::DivFOp::create(ib, v[1], im.constantScalar(elem, double(count)));
        return arith::SubFOp::create(ib, v[0], mean);
      });
  if (!centred)
    return centred.takeError();
  llvm::Expected<Value> sq =
      im.elementwise(node, {*centred}, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) {
        return arith::MulFOp::create(ib, v[0], v[0]);
      });
  if (!sq)
    return sq.takeError();
  Value var = im.reduce(*sq, axes, true, 0.0, addF);
  SmallVector<Value> ins = {*centred, var};
  for (int k : {1, 2}) {
    if (!hasInput(node, k))
      continue;
    llvm::Expected<Value> p = im.get(node.input(k));
    if (!p)
      return p.takeError();
    ins.push_back(*p);
  }
  bool hasScale = hasInput(node, 1), hasBias = hasInput(node, 2);
  llvm::Expected<Value> y =
      im.elementwise(node, ins, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
        Value variance = arith::DivFOp::create(ib, v[1], im.constantScalar(elem, double(count)));
        Value denom = math::SqrtOp::create(
            ib, arith::AddFOp::create(ib, variance, im.constantScalar(elem, eps)));
        Value r = arith::DivFOp::create(ib, v[0], denom);
        size_t next = 2;
        if (hasScale)
          r = arith::MulFOp::create(ib, r, v[next++]);
        if (hasBias)
          r = arith::AddFOp::create(ib, r, v[next]);
        return r;
      });
  if (!y)
    return y.takeError();
  if (node.output_size() > 1)
    for (int k = 1; k < node.output_size(); ++k)
      if (!node.output(k).empty())
        return im.nodeError(node, "the Mean and InvStdDev outputs are not supported");
  im.define(node, 0, *y);
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerNormalizationOps(OpTable &table) {
  table.add("BatchNormalization", {importBatchNorm, 5, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("LayerNormalization", {importLayerNorm, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
}
