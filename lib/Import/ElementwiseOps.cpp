//===- ElementwiseOps.cpp - ONNX binary and unary ops, Clip, Cast ---------===//
//
// Numpy-broadcast elementwise ops as linalg.generic: Add, Sub, Mul, Div, Pow,
// PRelu, the comparisons (BOOL results) and Where (integer constants fold at
// import), the activations (Gelu, Softplus, Mish, Softsign among them), Clip
// and Cast.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

/// max(v, bound) and min(v, bound) against a constant bound (Relu, Clip,
/// HardSigmoid). ONNX leaves the sign of a zero result open, so they carry
/// `nsz`: LLVM then lowers each to one vmaxps/vminps that still propagates
/// a NaN, instead of max, an unordered compare and a blend (three
/// instructions, and the blends were among the hottest instructions of
/// MobileNet-v2's ReLU6 epilogues).
Value maxWithBound(ImplicitLocOpBuilder &ib, Value v, Value bound) {
  return arith::MaximumFOp::create(ib, v, bound, arith::FastMathFlags::nsz);
}
Value minWithBound(ImplicitLocOpBuilder &ib, Value v, Value bound) {
  return arith::MinimumFOp::create(ib, v, bound, arith::FastMathFlags::nsz);
}

bool isComparison(StringRef op) {
  return op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" ||
         op == "GreaterOrEqual";
}

/// The first `count` inputs of an elementwise node. With an NHWC input the op runs in
/// NHWC (`nhwc` is set); the other inputs are brought to NHWC too (a
/// per-channel constant C x 1 x 1 becomes a 1 x 1 x C view).
llvm::Expected<SmallVector<Value>>
elementwiseInputs(ImportContext &im, const onnx::NodeProto &node, int count, bool &nhwc) {
  auto names = llvm::make_range(node.input().begin(), node.input().begin() + count);
  nhwc = llvm::any_of(names, [&](const std::string &n) { return im.isChannelsLast(n); });
  SmallVector<Value> values;
  for (const std::string &name : names) {
    if (!nhwc || im.isChannelsLast(name)) {
      llvm::Expected<Value> v = im.getAsStored(name);
      if (!v)
        return v.takeError();
      values.push_back(*v);
      continue;
    }
    llvm::Expected<Value> v = im.get(name);
    if (!v)
      return v.takeError();
    RankedTensorType t = typeOf(*v);
    if (t.getRank() > 4)
      return im.nodeError(node, "an input of rank > 4 next to an NHWC one");
    if (t.getRank() == 4) {
      llvm::Expected<Value> c = im.getChannelsLast(name); // transposed once for all readers
      if (!c)
        return c.takeError();
      values.push_back(*c);
      continue;
    }
    SmallVector<int64_t> shape(4 - t.getRank(), 1);
    shape.append(t.getShape().begin(), t.getShape().end());
    values.push_back(im.permuted(im.reshaped(*v, shape), {0, 2, 3, 1}));
  }
  return values;
}

/// x^y by squaring (at most 64 steps), wrapping like the other folds.
uint64_t power(uint64_t x, uint64_t y) {
  uint64_t r = 1;
  for (; y; y >>= 1, x *= x)
    if (y & 1)
      r *= x;
  return r;
}

/// Folds a binary op or comparison of small integer (or BOOL) constants:
/// shape arithmetic, and the masks PyTorch exports compute from shapes.
llvm::Error foldBinary(ImportContext &im, const onnx::NodeProto &node, const KnownTensor &ka,
                       const KnownTensor &kb) {
  const std::string &op = node.op_type();
  auto shape = broadcastShapes(ka.shape, kb.shape);
  if (!shape)
    return im.nodeError(node, "shapes do not broadcast");
  KnownTensor r;
  r.isFloat = false;
  r.isBool = isComparison(op);
  r.shape = *shape;
  for (int64_t k = 0; k < r.size(); ++k) {
    int64_t x = ka.i[broadcastIndex(r.shape, ka.shape, k)];
    int64_t y = kb.i[broadcastIndex(r.shape, kb.shape, k)];
    if (op == "Div" && y == 0)
      return im.nodeError(node, "integer division by zero in a constant");
    if ((op == "Div" && x == INT64_MIN && y == -1) || (op == "Pow" && y < 0))
      return im.nodeError(node, "integer " + op + " of constants " + std::to_string(x) +
                                    " and " + std::to_string(y) + " is not an integer");
    // Wrapping arithmetic, as the int64 ops compute at run time.
    uint64_t ux = uint64_t(x), uy = uint64_t(y);
    int64_t v = op == "Add"           ? int64_t(ux + uy)
                : op == "Sub"         ? int64_t(ux - uy)
                : op == "Mul"         ? int64_t(ux * uy)
                : op == "Div"         ? x / y
                : op == "Pow"         ? int64_t(power(ux, uy))
                : op == "Equal"       ? x == y
                : op == "Less"        ? x < y
                : op == "Greater"     ? x > y
                : op == "LessOrEqual" ? x <= y
                                      : x >= y;
    r.i.push_back(v);
  }
  im.knownValues[node.output(0)] = std::move(r);
  return llvm::Error::success();
}

/// The comparison `op` of two scalars (i1 result); BOOL compares unsigned.
Value compare(ImplicitLocOpBuilder &ib, StringRef op, Value a, Value b) {
  if (isa<FloatType>(a.getType())) {
    arith::CmpFPredicate p = op == "Equal"         ? arith::CmpFPredicate::OEQ
                             : op == "Less"        ? arith::CmpFPredicate::OLT
                             : op == "Greater"     ? arith::CmpFPredicate::OGT
                             : op == "LessOrEqual" ? arith::CmpFPredicate::OLE
                                                   : arith::CmpFPredicate::OGE;
    return arith::CmpFOp::create(ib, p, a, b);
  }
  bool isBool = a.getType().isInteger(1);
  arith::CmpIPredicate p =
      op == "Equal"         ? arith::CmpIPredicate::eq
      : op == "Less"        ? (isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt)
      : op == "Greater"     ? (isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
      : op == "LessOrEqual" ? (isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle)
                            : (isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge);
  return arith::CmpIOp::create(ib, p, a, b);
}

llvm::Error importBinary(ImportContext &im, const onnx::NodeProto &node) {
  const std::string &op = node.op_type();
  const KnownTensor *ka = im.known(node.input(0)), *kb = im.known(node.input(1));
  // Shape arithmetic on constants folds here.
  if (op != "PRelu" && ka && kb && !ka->isFloat && !kb->isFloat && ka->size() <= 64 &&
      kb->size() <= 64)
    return foldBinary(im, node, *ka, *kb);
  bool nhwc = false;
  llvm::Expected<SmallVector<Value>> ins = elementwiseInputs(im, node, 2, nhwc);
  if (!ins)
    return ins.takeError();
  Value a = (*ins)[0], bv = (*ins)[1];
  Type elem = typeOf(a).getElementType();
  if (typeOf(bv).getElementType() != elem)
    return im.nodeError(node, "operands have different element types");
  bool isFloat = isa<FloatType>(elem);
  if (op == "PRelu") {
    // The slope broadcasts to X (unidirectionally): the result is X's shape.
    auto shape = broadcastShapes(typeOf(a).getShape(), typeOf(bv).getShape());
    if (!shape || ArrayRef<int64_t>(*shape) != typeOf(a).getShape())
      return im.nodeError(node, "slope " + shapeString(typeOf(bv).getShape()) +
                                    " does not broadcast to the input's shape " +
                                    shapeString(typeOf(a).getShape()));
  }
  bool comparison = isComparison(op);
  // Pow with a constant exponent of 2 or 0.5 (layer norms exported by
  // PyTorch) becomes a multiply or a square root.
  std::optional<double> exponent;
  if (op == "Pow" && kb && kb->size() == 1)
    exponent = kb->at(0);
  llvm::Expected<Value> r = im.elementwise(
      node, {a, bv}, comparison ? Type(im.b.getI1Type()) : elem,
      [&](ImplicitLocOpBuilder &ib, ValueRange v) -> Value {
        if (comparison)
          return compare(ib, op, v[0], v[1]);
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
        if (op == "PRelu") {
          Value zero = im.constantScalar(elem, 0.0);
          Value negative = arith::CmpFOp::create(ib, arith::CmpFPredicate::OLT, v[0], zero);
          return arith::SelectOp::create(ib, negative, arith::MulFOp::create(ib, v[0], v[1]),
                                         v[0]);
        }
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

/// Where(condition, X, Y): X where the BOOL condition holds, else Y, all
/// three broadcast; folds on small integer constants (shape subgraphs).
llvm::Error importWhere(ImportContext &im, const onnx::NodeProto &node) {
  const KnownTensor *kc = im.known(node.input(0)), *kx = im.known(node.input(1)),
                    *ky = im.known(node.input(2));
  if (kc && kx && ky && kc->isBool && !kx->isFloat && !ky->isFloat && kc->size() <= 64 &&
      kx->size() <= 64 && ky->size() <= 64 && kx->isBool == ky->isBool) {
    auto shape = broadcastShapes(kc->shape, kx->shape);
    if (shape)
      shape = broadcastShapes(*shape, ky->shape);
    if (!shape)
      return im.nodeError(node, "shapes do not broadcast");
    KnownTensor r;
    r.isFloat = false;
    r.isBool = kx->isBool;
    r.shape = *shape;
    for (int64_t k = 0; k < r.size(); ++k)
      r.i.push_back(kc->i[broadcastIndex(r.shape, kc->shape, k)]
                        ? kx->i[broadcastIndex(r.shape, kx->shape, k)]
                        : ky->i[broadcastIndex(r.shape, ky->shape, k)]);
    im.knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  bool nhwc = false;
  llvm::Expected<SmallVector<Value>> ins = elementwiseInputs(im, node, 3, nhwc);
  if (!ins)
    return ins.takeError();
  if (!typeOf((*ins)[0]).getElementType().isInteger(1))
    return im.nodeError(node, "the condition '" + node.input(0) + "' is not BOOL");
  Type elem = typeOf((*ins)[1]).getElementType();
  if (typeOf((*ins)[2]).getElementType() != elem)
    return im.nodeError(node, "X and Y have different element types");
  llvm::Expected<Value> r =
      im.elementwise(node, *ins, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) -> Value {
        return arith::SelectOp::create(ib, v[0], v[1], v[2]);
      });
  if (!r)
    return r.takeError();
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
  std::string approximate = stringAttr(node, "approximate", "none");
  if (op == "Gelu" && approximate != "none" && approximate != "tanh")
    return im.nodeError(node, "approximate '" + approximate +
                                  "' is not supported (none or tanh)");
  llvm::Expected<Value> r = im.unary(node, [&](ImplicitLocOpBuilder &ib, Value v) -> Value {
    auto c = [&](double d) { return im.constantScalar(elem, d); };
    auto hardSigmoid = [&](Value v, double a, double bb) -> Value {
      Value t = arith::AddFOp::create(ib, arith::MulFOp::create(ib, v, c(a)), c(bb));
      return minWithBound(ib, maxWithBound(ib, t, c(0.0)), c(1.0));
    };
    if (op == "Relu")
      return maxWithBound(ib, v, c(0.0));
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
    if (op == "Gelu") {
      // 0.5 x (1 + erf(x / sqrt(2))), or with tanh:
      // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
      Value inner;
      if (approximate == "tanh") {
        Value cube = arith::MulFOp::create(ib, arith::MulFOp::create(ib, v, v), v);
        Value s = arith::AddFOp::create(ib, v, arith::MulFOp::create(ib, cube, c(0.044715)));
        inner = math::TanhOp::create(ib, arith::MulFOp::create(ib, s, c(std::sqrt(2.0 / M_PI))));
      } else {
        inner = math::ErfOp::create(ib, arith::MulFOp::create(ib, v, c(M_SQRT1_2)));
      }
      Value half = arith::MulFOp::create(ib, v, c(0.5));
      return arith::MulFOp::create(ib, half, arith::AddFOp::create(ib, c(1.0), inner));
    }
    if (op == "Softplus" || op == "Mish") {
      // log(1 + exp(x)) as max(x, 0) + log1p(exp(-|x|)): exp never
      // overflows (exp(x) is inf from x = 89 in f32) and small results keep
      // their digits.
      Value e = math::ExpOp::create(ib, arith::NegFOp::create(ib, math::AbsFOp::create(ib, v)));
      Value positive = maxWithBound(ib, v, c(0.0));
      Value sp = arith::AddFOp::create(ib, positive, math::Log1pOp::create(ib, e));
      if (op == "Softplus")
        return sp;
      return arith::MulFOp::create(ib, v, math::TanhOp::create(ib, sp)); // x tanh(softplus(x))
    }
    if (op == "Softsign")
      return arith::DivFOp::create(
          ib, v, arith::AddFOp::create(ib, c(1.0), math::AbsFOp::create(ib, v)));
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
      v = maxWithBound(ib, v, im.constantScalar(elem, lo));
    if (std::isfinite(hi))
      v = minWithBound(ib, v, im.constantScalar(elem, hi));
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
    bool toBool = to == onnx::TensorProto::BOOL;
    if (toFloat && !r.isFloat) {
      r.f.assign(r.i.begin(), r.i.end());
      r.i.clear();
    } else if (!toFloat && r.isFloat) {
      for (double v : r.f)
        r.i.push_back(toBool ? v != 0.0 : int64_t(v));
      r.f.clear();
    } else if (toBool) {
      for (int64_t &v : r.i)
        v = v != 0;
    }
    r.isFloat = toFloat;
    r.isBool = toBool;
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
        // BOOL: anything but 0 is true, and true converts to 1 (not -1).
        if (target->isInteger(1))
          return fromFloat ? Value(arith::CmpFOp::create(ib, arith::CmpFPredicate::UNE, v[0],
                                                         im.constantScalar(from, 0.0)))
                           : Value(arith::CmpIOp::create(ib, arith::CmpIPredicate::ne, v[0],
                                                         im.constantScalar(from, 0.0)));
        if (from.isInteger(1))
          return toFloat ? Value(arith::UIToFPOp::create(ib, *target, v[0]))
                         : Value(arith::ExtUIOp::create(ib, *target, v[0]));
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
  table.add("Gelu", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Softplus", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Mish", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Softsign", {importUnary, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("PRelu", {importBinary, 2, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("Equal", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Less", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Greater", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("LessOrEqual", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("GreaterOrEqual", {importBinary, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Where", {importWhere, 3, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Clip", {importClip, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("Cast", {importCast, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
}
