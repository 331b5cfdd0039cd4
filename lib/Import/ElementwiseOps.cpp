//===- ElementwiseOps.cpp - ONNX binary and unary ops, Clip, Cast ---------===//
//
// Numpy-broadcast elementwise ops as linalg.generic: Add, Sub, Mul, Div, Pow
// (integer constants fold at import), the activations, Clip and Cast.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

llvm::Error importBinary(ImportContext &im, const onnx::NodeProto &node) {
  const std::string &op = node.op_type();
  const KnownTensor *ka = im.known(node.input(0)), *kb = im.known(node.input(1));
  // Shape arithmetic on constants folds here.
  if (ka && kb && !ka->isFloat && !kb->isFloat && ka->size() <= 64 && kb->size() <= 64) {
    auto shape = broadcastShapes(ka->shape, kb->shape);
    if (!shape)
      return im.nodeError(node, "shapes do not broadcast");
    KnownTensor r;
    r.isFloat = false;
    r.shape = *shape;
    for (int64_t k = 0; k < r.size(); ++k) {
      int64_t x = ka->i[ka->size() == 1 ? 0 : k % ka->size()];
      int64_t y = kb->i[kb->size() == 1 ? 0 : k % kb->size()];
      int64_t v = op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y
                  : (y == 0 ? 0 : x / y);
      if (op == "Div" && y == 0)
        return im.nodeError(node, "integer division by zero in a constant");
      r.i.push_back(v);
    }
    im.knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  // With an NHWC input the op runs in NHWC; the other input is brought to
  // NHWC too (a per-channel constant C x 1 x 1 becomes a 1 x 1 x C view).
  bool nhwc = im.isChannelsLast(node.input(0)) || im.isChannelsLast(node.input(1));
  auto input = [&](const std::string &name) -> llvm::Expected<Value> {
    if (!nhwc || im.isChannelsLast(name))
      return im.getAsStored(name);
    llvm::Expected<Value> v = im.get(name);
    if (!v)
      return v.takeError();
    RankedTensorType t = typeOf(*v);
    if (t.getRank() > 4)
      return im.nodeError(node, "an input of rank > 4 next to an NHWC one");
    if (t.getRank() == 4)
      return im.getChannelsLast(name); // transposed once for all its readers
    SmallVector<int64_t> shape(4 - t.getRank(), 1);
    shape.append(t.getShape().begin(), t.getShape().end());
    return im.permuted(im.reshaped(*v, shape), {0, 2, 3, 1});
  };
  llvm::Expected<Value> a = input(node.input(0));
  if (!a)
    return a.takeError();
  llvm::Expected<Value> bv = input(node.input(1));
  if (!bv)
    return bv.takeError();
  Type elem = typeOf(*a).getElementType();
  if (typeOf(*bv).getElementType() != elem)
    return im.nodeError(node, "operands have different element types");
  bool isFloat = isa<FloatType>(elem);
  // Pow with a constant exponent of 2 or 0.5 (layer norms exported by
  // PyTorch) becomes a multiply or a square root.
  std::optional<double> exponent;
  if (op == "Pow" && kb && kb->size() == 1)
    exponent = kb->at(0);
  llvm::Expected<Value> r =
      im.elementwise(node, {*a, *bv}, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) -> Value {
        if (op == "Add")
          return isFloat ? Value(arith::AddFOp::create(ib, v[0], v[1]))
                         : Value(arith::AddIOp::create(ib, v[0], v[1]));
        if (op == "Sub")
          return isFloat ? Value(arith::SubFOp::create(ib, v[0], v[1]))
                         : Value(arith::SubIOp::create(ib, v[0], v[1]));
        if (op == "Mul")
          return isFloat ? Value(arith::MulFOp::create(ib, v[0], v[1]))
                         : Value(arith::MulIOp::create(ib, v[0], v[1]));
        if (op == "Div")
          return isFloat ? Value(arith::DivFOp::create(ib, v[0], v[1]))
                         : Value(arith::DivSIOp::create(ib, v[0], v[1]));
        if (exponent && *exponent == 2.0)
          return arith::MulFOp::create(ib, v[0], v[0]);
        if (exponent && *exponent == 0.5)
          return math::SqrtOp::create(ib, v[0]);
        return math::PowFOp::create(ib, v[0], v[1]);
      });
  if (!r)
    return r.takeError();
  if (op == "Pow" && !isFloat)
    return im.nodeError(node, "integer Pow is not supported");
  im.defineIn(nhwc, node.output(0), *r);
  return llvm::Error::success();
}

llvm::Error importUnary(ImportContext &im, const onnx::NodeProto &node) {
  const std::string op = node.op_type();
  llvm::Expected<Value> x = im.getAsStored(node.input(0));
  if (!x)
    return x.takeError();
  Type elem = typeOf(*x).getElementType();
  if (!isa<FloatType>(elem))
    return im.nodeError(node, "only floating-point inputs are supported");
  float alpha = floatAttr(node, "alpha", op == "HardSigmoid" ? 0.2f : 0.01f);
  float beta = floatAttr(node, "beta", 0.5f);
  llvm::Expected<Value> r = im.unary(node, [&](ImplicitLocOpBuilder &ib, Value v) -> Value {
    auto c = [&](double d) { return im.constantScalar(elem, d); };
    auto hardSigmoid = [&](Value v, double a, double bb) -> Value {
      Value t = arith::AddFOp::create(ib, arith::MulFOp::create(ib, v, c(a)), c(bb));
      return arith::MinimumFOp::create(ib, arith::MaximumFOp::create(ib, t, c(0.0)), c(1.0));
    };
    if (op == "Relu")
      return arith::MaximumFOp::create(ib, v, c(0.0));
    if (op == "LeakyRelu")
      return arith::SelectOp::create(
          ib, arith::CmpFOp::create(ib, arith::CmpFPredicate::OGT, v, c(0.0)), v,
          arith::MulFOp::create(ib, v, c(alpha)));
    if (op == "Sigmoid") {
      Value e = math::ExpOp::create(ib, arith::NegFOp::create(ib, v));
      return arith::DivFOp::create(ib, c(1.0), arith::AddFOp::create(ib, c(1.0), e));
    }
    if (op == "HardSigmoid")
      return hardSigmoid(v, alpha, beta);
    if (op == "HardSwish")
      return arith::MulFOp::create(ib, v, hardSigmoid(v, 1.0 / 6.0, 0.5));
    if (op == "Tanh")
      return math::TanhOp::create(ib, v);
    if (op == "Erf")
      return math::ErfOp::create(ib, v);
    if (op == "Sqrt")
      return math::SqrtOp::create(ib, v);
    if (op == "Exp")
      return math::ExpOp::create(ib, v);
    if (op == "Log")
      return math::LogOp::create(ib, v);
    if (op == "Neg")
      return arith::NegFOp::create(ib, v);
    if (op == "Abs")
      return math::AbsFOp::create(ib, v);
    return arith::DivFOp::create(ib, c(1.0), v); // Reciprocal
  });
  if (!r)
    return r.takeError();
  im.defineLike(node, 0, node.input(0), *r);
  return llvm::Error::success();
}

llvm::Error importClip(ImportContext &im, const onnx::NodeProto &node) {
  double lo = -INFINITY, hi = INFINITY;
  if (im.opset < 11) {
    lo = floatAttr(node, "min", -INFINITY);
    hi = floatAttr(node, "max", INFINITY);
  }
  for (int k : {1, 2}) {
    if (!hasInput(node, k))
      continue;
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, k);
    if (!t)
      return t.takeError();
    (k == 1 ? lo : hi) = (*t)->at(0);
  }
  llvm::Expected<Value> r = im.unary(node, [&](ImplicitLocOpBuilder &ib, Value v) -> Value {
    Type elem = v.getType();
    if (std::isfinite(lo))
      v = arith::MaximumFOp::create(ib, v, im.constantScalar(elem, lo));
    if (std::isfinite(hi))
      v = arith::MinimumFOp::create(ib, v, im.constantScalar(elem, hi));
    return v;
  });
  if (!r)
    return r.takeError();
  im.defineLike(node, 0, node.input(0), *r);
  return llvm::Error::success();
}

llvm::Error importCast(ImportContext &im, const onnx::NodeProto &node) {
  int64_t to = intAttr(node, "to", onnx::TensorProto::FLOAT);
  const KnownTensor *k = im.known(node.input(0));
  if (k) {
    KnownTensor r = *k;
    bool toFloat = to == onnx::TensorProto::FLOAT || to == onnx::TensorProto::DOUBLE ||
                   to == onnx::TensorProto::FLOAT16;
    if (toFloat && !r.isFloat) {
      r.f.assign(r.i.begin(), r.i.end());
      r.i.clear();
    } else if (!toFloat && r.isFloat) {
      for (double v : r.f)
        r.i.push_back(int64_t(v));
      r.f.clear();
    }
    r.isFloat = toFloat;
    im.knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  llvm::Expected<Type> target = im.convertElementType(to);
  if (!target)
    return im.nodeError(node, llvm::toString(target.takeError()));
  Type from = typeOf(*x).getElementType();
  if (from == *target) {
    im.define(node, 0, *x);
    return llvm::Error::success();
  }
  llvm::Expected<Value> r =
      im.elementwise(node, {*x}, *target, [&](ImplicitLocOpBuilder &ib, ValueRange v) -> Value {
        bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(*target);
        if (fromFloat && toFloat)
          return from.getIntOrFloatBitWidth() < target->getIntOrFloatBitWidth()
                     ? Value(arith::ExtFOp::create(ib, *target, v[0]))
                     : Value(arith::TruncFOp::create(ib, *target, v[0]));
        if (fromFloat)
          return arith::FPToSIOp::create(ib, *target, v[0]);
        if (toFloat)
          return arith::SIToFPOp::create(ib, *target, v[0]);
        return from.getIntOrFloatBitWidth() < target->getIntOrFloatBitWidth()
                   ? Value(arith::ExtSIOp::create(ib, *target, v[0]))
                   : Value(arith::TruncIOp::create(ib, *target, v[0]));
      });
  if (!r)
    return r.takeError();
  im.define(node, 0, *r);
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerElementwiseOps(OpTable &table) {
  table.add("Add", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Sub", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Mul", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Div", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Pow", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Relu", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("LeakyRelu", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Sigmoid", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("HardSigmoid", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("HardSwish", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Tanh", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Erf", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Sqrt", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Exp", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Log", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Neg", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Abs", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Reciprocal", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Clip", {importClip, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("Cast", {importCast, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
}
