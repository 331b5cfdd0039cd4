//===- ImportContext.cpp - State the ONNX op handlers share ---------------===//
//
// Every value is either an SSA value of @main or a tensor known at import
// time (initializers, Constant nodes, Shape results and what folds from
// them); known tensors become constants only where a runtime op needs them,
// so shape subgraphs leave nothing behind.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

//===----------------------------------------------------------------------===//
// Tensors known at import time
//===----------------------------------------------------------------------===//

int64_t onnx_import::getElementCount(llvm::ArrayRef<int64_t> shape) {
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t n = 1;
  for (int64_t d : shape)
    if (llvm::MulOverflow(n, d, n))
      return INT64_MAX;
  return n;
}

std::string onnx_import::describeTooManyElements(int64_t n) {
  return (n == INT64_MAX ? std::string("too many") : std::to_string(n)) +
         " elements (at most " + std::to_string(kMaxElements) + ")";
}

KnownTensor onnx_import::permutedKnown(const KnownTensor &t, ArrayRef<int64_t> perm) {
  KnownTensor r;
  r.isFloat = t.isFloat;
  size_t rank = t.shape.size();
  std::vector<int64_t> stride(rank, 1);
  for (size_t d = rank; d-- > 1;)
    stride[d - 1] = stride[d] * t.shape[d];
  for (int64_t p : perm)
    r.shape.push_back(t.shape[p]);
  std::vector<int64_t> index(rank, 0);
  for (int64_t k = 0; k < t.size(); ++k) {
    int64_t src = 0;
    for (size_t d = 0; d < rank; ++d)
      src += index[d] * stride[perm[d]];
    if (t.isFloat)
      r.f.push_back(t.f[src]);
    else
      r.i.push_back(t.i[src]);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < r.shape[d])
        break;
      index[d] = 0;
    }
  }
  return r;
}

llvm::Error onnx_import::makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::string onnx_import::shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t k = 0; k < shape.size(); ++k)
    s += (k ? "x" : "") + std::to_string(shape[k]);
  return s.empty() ? "scalar" : s;
}

std::optional<std::vector<int64_t>> onnx_import::broadcastShapes(ArrayRef<int64_t> a,
                                                                 ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    int64_t da = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    int64_t db = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[k] = da == 1 ? db : da; // 1 and 0 broadcast to 0
  }
  return out;
}

int64_t onnx_import::broadcastIndex(ArrayRef<int64_t> out, ArrayRef<int64_t> in, int64_t k) {
  int64_t index = 0, stride = 1;
  for (size_t d = 0; d < in.size(); ++d) {
    size_t od = out.size() - 1 - d, id = in.size() - 1 - d;
    int64_t pos = k % out[od];
    k /= out[od];
    if (in[id] != 1)
      index += pos * stride;
    stride *= in[id];
  }
  return index;
}

//===----------------------------------------------------------------------===//
// Reading tensors and attributes
//===----------------------------------------------------------------------===//

llvm::Expected<Type> ImportContext::convertElementType(int t) {
  switch (t) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::INT64:
    return b.getI64Type();
  case onnx::TensorProto::INT32:
    return b.getI32Type();
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  default:
    return makeError("element type " + std::to_string(t) + " (" +
                     onnx::TensorProto::DataType_Name(onnx::TensorProto::DataType(t)) +
                     ") is not supported");
  }
}

llvm::Expected<KnownTensor> ImportContext::readTensor(const onnx::TensorProto &t) {
  KnownTensor k;
  for (int64_t d : t.dims()) {
    if (d < 0)
      return makeError("tensor '" + t.name() + "' has a negative dimension");
    k.shape.push_back(d);
  }
  int64_t n = k.size();
  if (n > kMaxElements)
    return makeError("tensor '" + t.name() + "' has " + describeTooManyElements(n));
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return makeError("tensor '" + t.name() +
                     "' keeps its data in an external file, which is not supported");
  const std::string &raw = t.raw_data();
  auto rawCount = [&](size_t width) -> llvm::Expected<bool> {
    if (raw.empty())
      return false;
    if (raw.size() != size_t(n) * width)
      return makeError("tensor '" + t.name() + "' has " + std::to_string(raw.size()) +
                       " bytes of data for " + std::to_string(n) + " elements");
    return true;
  };
  auto countMismatch = [&](int64_t have) {
    return makeError("tensor '" + t.name() + "' has " + std::to_string(have) +
                     " values for shape " + shapeString(k.shape));
  };
  switch (t.data_type()) {
  case onnx::TensorProto::FLOAT: {
    k.isFloat = true;
    llvm::Expected<bool> isRaw = rawCount(4);
    if (!isRaw)
      return isRaw.takeError();
    if (*isRaw) {
      k.f.resize(n);
      for (int64_t j = 0; j < n; ++j) {
        float v;
        std::memcpy(&v, raw.data() + 4 * j, 4);
        k.f[j] = v;
      }
    } else if (t.float_data_size() == n) {
      k.f.assign(t.float_data().begin(), t.float_data().end());
    } else if (t.float_data_size() == 0) {
      // Exported without weights: deterministic random values, scaled like
      // a fan-in initialisation so activations stay in range. Bounded per
      // model: a few bytes of dims would otherwise ask for gigabytes.
      if (n > kMaxRandomElements - randomFilledElements)
        return makeError("tensor '" + t.name() + "' has no data; filling its " +
                         std::to_string(n) + " elements with random values would exceed " +
                         std::to_string(kMaxRandomElements) +
                         " random elements per model");
      randomFilledElements += n;
      int64_t fanIn = k.shape.size() > 1 ? n / std::max<int64_t>(1, k.shape[0]) : 1;
      std::normal_distribution<double> dist(0.0, 1.0 / std::sqrt(double(std::max<int64_t>(1, fanIn))));
      k.f.resize(n);
      for (double &v : k.f)
        v = float(dist(weightRng));
    } else {
      return countMismatch(t.float_data_size());
    }
    return k;
  }
  case onnx::TensorProto::DOUBLE: {
    llvm::Expected<bool> isRaw = rawCount(8);
    if (!isRaw)
      return isRaw.takeError();
    k.f.resize(n);
    if (*isRaw)
      std::memcpy(k.f.data(), raw.data(), 8 * n);
    else if (t.double_data_size() == n)
      k.f.assign(t.double_data().begin(), t.double_data().end());
    else
      return countMismatch(t.double_data_size());
    return k;
  }
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::INT32: {
    k.isFloat = false;
    bool is64 = t.data_type() == onnx::TensorProto::INT64;
    llvm::Expected<bool> isRaw = rawCount(is64 ? 8 : 4);
    if (!isRaw)
      return isRaw.takeError();
    k.i.resize(n);
    if (*isRaw) {
      for (int64_t j = 0; j < n; ++j) {
        if (is64) {
          std::memcpy(&k.i[j], raw.data() + 8 * j, 8);
        } else {
          int32_t v;
          std::memcpy(&v, raw.data() + 4 * j, 4);
          k.i[j] = v;
        }
      }
    } else if (is64 && t.int64_data_size() == n) {
      k.i.assign(t.int64_data().begin(), t.int64_data().end());
    } else if (!is64 && t.int32_data_size() == n) {
      k.i.assign(t.int32_data().begin(), t.int32_data().end());
    } else {
      return countMismatch(is64 ? t.int64_data_size() : t.int32_data_size());
    }
    return k;
  }
  case onnx::TensorProto::BOOL: {
    // One byte per element in raw data, else one int32 each (ONNX's
    // encoding of bool); anything but 0 is true.
    k.isFloat = false;
    k.isBool = true;
    llvm::Expected<bool> isRaw = rawCount(1);
    if (!isRaw)
      return isRaw.takeError();
    k.i.resize(n);
    if (*isRaw) {
      for (int64_t j = 0; j < n; ++j)
        k.i[j] = raw[j] != 0;
    } else if (t.int32_data_size() == n) {
      for (int64_t j = 0; j < n; ++j)
        k.i[j] = t.int32_data(j) != 0;
    } else {
      return countMismatch(t.int32_data_size());
    }
    return k;
  }
  default:
    return makeError("tensor '" + t.name() + "' has element type " +
                     onnx::TensorProto::DataType_Name(
                         onnx::TensorProto::DataType(t.data_type())) +
                     ", which is not supported");
  }
}

const onnx::AttributeProto *onnx_import::attr(const onnx::NodeProto &n, StringRef name) {
  for (const onnx::AttributeProto &a : n.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}
int64_t onnx_import::intAttr(const onnx::NodeProto &n, StringRef name, int64_t dflt) {
  const onnx::AttributeProto *a = attr(n, name);
  return a ? a->i() : dflt;
}
float onnx_import::floatAttr(const onnx::NodeProto &n, StringRef name, float dflt) {
  const onnx::AttributeProto *a = attr(n, name);
  return a ? a->f() : dflt;
}
std::vector<int64_t> onnx_import::intsAttr(const onnx::NodeProto &n, StringRef name,
                                           std::vector<int64_t> dflt) {
  const onnx::AttributeProto *a = attr(n, name);
  if (!a)
    return dflt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}
std::string onnx_import::stringAttr(const onnx::NodeProto &n, StringRef name, std::string dflt) {
  const onnx::AttributeProto *a = attr(n, name);
  return a ? a->s() : dflt;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value ImportContext::materialize(const KnownTensor &t, Type elementType) {
  auto type = RankedTensorType::get(t.shape, elementType);
  int64_t n = t.size();
  // Small constants stay readable in the IR; weights go into resources.
  if (n <= 16 || !elementType.isF32()) {
    if (isa<FloatType>(elementType)) {
      SmallVector<APFloat> vals;
      for (int64_t k = 0; k < n; ++k) {
        APFloat v(t.at(k));
        bool lost;
        v.convert(cast<FloatType>(elementType).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &lost);
        vals.push_back(v);
      }
      return arith::ConstantOp::create(b, DenseElementsAttr::get(type, vals));
    }
    SmallVector<APInt> vals;
    // i1 holds 0 and 1: as a signed 1-bit value, 1 does not fit.
    unsigned width = elementType.getIntOrFloatBitWidth();
    for (int64_t k = 0; k < n; ++k)
      vals.push_back(APInt(width, uint64_t(t.intAt(k)), /*isSigned=*/width > 1));
    return arith::ConstantOp::create(b, DenseElementsAttr::get(type, vals));
  }
  std::vector<float> data(n);
  for (int64_t k = 0; k < n; ++k)
    data[k] = float(t.at(k));
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyInferAlign<float>(data);
  auto attr = DenseF32ResourceElementsAttr::get(
      type, "onnx_constant_" + std::to_string(constantCounter++), std::move(blob));
  return arith::ConstantOp::create(b, cast<TypedAttr>(attr));
}

llvm::Expected<Value> ImportContext::get(const std::string &name) {
  auto it = values.find(name);
  if (it != values.end() && isChannelsLast(name)) {
    // Readers of the model's layout get NCHW, transposed back once.
    Value &nchw = otherLayout[name];
    if (!nchw)
      nchw = transposed(it->second, {0, 3, 1, 2});
    return nchw;
  }
  if (it != values.end())
    return it->second;
  if (const KnownTensor *k = known(name)) {
    Type elem = k->isFloat  ? Type(b.getF32Type())
                : k->isBool ? Type(b.getI1Type())
                            : Type(b.getI64Type());
    Value v = materialize(*k, elem);
    values[name] = v;
    return v;
  }
  return makeError("value '" + name + "' is used before it is defined");
}

llvm::Expected<Operand> ImportContext::operand(const std::string &name) {
  Operand o;
  if ((o.known = known(name))) {
    o.shape = o.known->shape;
    return o;
  }
  llvm::Expected<Value> v = get(name);
  if (!v)
    return v.takeError();
  o.value = *v;
  o.shape.assign(typeOf(*v).getShape().begin(), typeOf(*v).getShape().end());
  return o;
}

llvm::Expected<const KnownTensor *> ImportContext::requireKnown(const onnx::NodeProto &node,
                                                                int input) {
  if (!hasInput(node, input))
    return nodeError(node, "input " + std::to_string(input) + " is missing");
  if (const KnownTensor *k = known(node.input(input)))
    return k;
  return nodeError(node, "input '" + node.input(input) +
                             "' must be a constant (an initializer or computed from "
                             "constants); dynamic values are not supported there");
}

//===----------------------------------------------------------------------===//
// Diagnostics and building blocks
//===----------------------------------------------------------------------===//

llvm::Error ImportContext::checkWindow(const onnx::NodeProto &node, llvm::ArrayRef<int64_t> kernel,
                                       llvm::ArrayRef<int64_t> strides,
                                       llvm::ArrayRef<int64_t> dilations,
                                       llvm::ArrayRef<int64_t> pads) const {
  constexpr int64_t kMax = int64_t(1) << 20;
  auto inRange = [&](llvm::ArrayRef<int64_t> v, int64_t lo) {
    return llvm::all_of(v, [&](int64_t x) { return x >= lo && x <= kMax; });
  };
  if (!inRange(kernel, 1) || !inRange(strides, 1) || !inRange(dilations, 1))
    return nodeError(node, "kernel " + shapeString(kernel) + ", strides " +
                               shapeString(strides) + " and dilations " +
                               shapeString(dilations) + " must be between 1 and " +
                               std::to_string(kMax));
  if (!inRange(pads, 0))
    return nodeError(node, "pads " + shapeString(pads) + " must be between 0 and " +
                               std::to_string(kMax));
  return llvm::Error::success();
}

Value ImportContext::extractSlice(Value input, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                                  ArrayRef<int64_t> strides) {
  Type element = cast<RankedTensorType>(input.getType()).getElementType();
  if (llvm::is_contained(sizes, 0))
    return emptyTensor(sizes, element);
  return tensor::ExtractSliceOp::create(
      b, RankedTensorType::get(sizes, element), input, ValueRange{}, ValueRange{},
      ValueRange{}, b.getDenseI64ArrayAttr(offsets), b.getDenseI64ArrayAttr(sizes),
      b.getDenseI64ArrayAttr(strides));
}

Value onnx_import::addF(ImplicitLocOpBuilder &ib, Value v, Value acc) {
  return arith::AddFOp::create(ib, v, acc);
}

Value ImportContext::filled(ArrayRef<int64_t> shape, Type elementType, double value) {
  Value init = emptyTensor(shape, elementType);
  return linalg::FillOp::create(b, ValueRange{constantScalar(elementType, value)},
                                ValueRange{init})
      .getResult(0);
}

llvm::Expected<Value>
ImportContext::elementwise(const onnx::NodeProto &node, ArrayRef<Value> inputs, Type resultElement,
                           std::function<Value(ImplicitLocOpBuilder &, ValueRange)> body,
                           ArrayRef<int64_t> minShape) {
  std::vector<int64_t> shape(minShape.begin(), minShape.end());
  for (Value v : inputs) {
    auto s = broadcastShapes(shape, typeOf(v).getShape());
    if (!s)
      return nodeError(node, "shapes " + shapeString(shape) + " and " +
                                 shapeString(typeOf(v).getShape()) + " do not broadcast");
    shape = *s;
  }
  int64_t rank = shape.size();
  // Broadcast unit dimensions are collapsed away, so every input is read
  // through a projected permutation ((d1) for a per-channel bias, not
  // (d1, 0, 0)): such a generic is elementwise to later passes (fusion).
  SmallVector<AffineMap> maps;
  SmallVector<Value> operands;
  for (Value v : inputs) {
    ArrayRef<int64_t> s = typeOf(v).getShape();
    SmallVector<AffineExpr> exprs;
    SmallVector<int64_t> kept;
    for (size_t k = 0; k < s.size(); ++k) {
      int64_t d = rank - int64_t(s.size()) + int64_t(k);
      if (s[k] == 1 && shape[d] != 1)
        continue;
      exprs.push_back(b.getAffineDimExpr(d));
      kept.push_back(s[k]);
    }
    if (kept.size() == s.size())
      operands.push_back(v);
    else if (kept.empty())
      operands.push_back(tensor::CollapseShapeOp::create(
          b, RankedTensorType::get({}, typeOf(v).getElementType()), v,
          SmallVector<ReassociationIndices>{}));
    else
      operands.push_back(reshaped(v, kept));
    maps.push_back(AffineMap::get(rank, 0, exprs, &ctx));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto op = linalg::GenericOp::create(
      b, TypeRange{RankedTensorType::get(shape, resultElement)}, operands,
      ValueRange{emptyTensor(shape, resultElement)}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value r = body(ib, args.drop_back());
        linalg::YieldOp::create(ib, r);
      });
  return op.getResult(0);
}

llvm::Expected<Value> ImportContext::unary(const onnx::NodeProto &node,
                                           std::function<Value(ImplicitLocOpBuilder &, Value)> fn) {
  llvm::Expected<Value> x = getAsStored(node.input(0));
  if (!x)
    return x.takeError();
  return elementwise(node, {*x}, typeOf(*x).getElementType(),
                     [&](ImplicitLocOpBuilder &ib, ValueRange a) { return fn(ib, a[0]); });
}

Value ImportContext::reduce(Value input, ArrayRef<int64_t> axes, bool keepDims, double init,
                            std::function<Value(ImplicitLocOpBuilder &, Value, Value)> combine) {
  RankedTensorType type = typeOf(input);
  int64_t rank = type.getRank();
  std::vector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (!reduced || keepDims) {
      outShape.push_back(reduced ? 1 : type.getDimSize(d));
      outExprs.push_back(reduced ? b.getAffineConstantExpr(0) : b.getAffineDimExpr(d));
    }
  }
  Type elem = type.getElementType();
  Value acc = filled(outShape, elem, init);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, outExprs, &ctx)};
  return linalg::GenericOp::create(b, TypeRange{acc.getType()}, ValueRange{input},
                                   ValueRange{acc}, maps, iterators,
                                   [&](OpBuilder &nested, Location loc, ValueRange args) {
                                     ImplicitLocOpBuilder ib(loc, nested);
                                     linalg::YieldOp::create(ib, combine(ib, args[0], args[1]));
                                   })
      .getResult(0);
}

llvm::Expected<Value> ImportContext::mean(const onnx::NodeProto &node, Value input,
                                          ArrayRef<int64_t> axes, bool keepDims) {
  int64_t count = 1;
  for (int64_t a : axes)
    count *= typeOf(input).getDimSize(a);
  Type elem = typeOf(input).getElementType();
  Value sum = reduce(input, axes, keepDims, 0.0, addF);
  return elementwise(node, {sum}, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
    return arith::DivFOp::create(ib, v[0], constantScalar(elem, double(count)));
  });
}

Value ImportContext::padded(Value input, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                            double value) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return input;
  RankedTensorType type = typeOf(input);
  SmallVector<int64_t> shape(type.getShape());
  for (size_t d = 0; d < shape.size(); ++d)
    shape[d] += low[d] + high[d];
  Value pad = constantScalar(type.getElementType(), value);
  SmallVector<OpFoldResult> lo, hi;
  for (size_t d = 0; d < shape.size(); ++d) {
    lo.push_back(b.getIndexAttr(low[d]));
    hi.push_back(b.getIndexAttr(high[d]));
  }
  return tensor::PadOp::create(b, RankedTensorType::get(shape, type.getElementType()), input,
                               lo, hi, pad);
}

Value ImportContext::reshaped(Value input, ArrayRef<int64_t> shape) {
  RankedTensorType type = typeOf(input);
  if (type.getShape() == shape)
    return input;
  auto target = RankedTensorType::get(shape, type.getElementType());
  // One collapse or one expand where the reshape is one: later passes see
  // through it (epilogue fusion folds it away) better than through 1-D.
  if (type.getRank() > 0 && !shape.empty()) {
    if (type.getRank() > static_cast<int64_t>(shape.size())) {
      if (auto groups = getReassociationIndicesForCollapse(type.getShape(), shape))
        return tensor::CollapseShapeOp::create(b, target, input, *groups);
    } else if (type.getRank() < static_cast<int64_t>(shape.size())) {
      if (auto groups = getReassociationIndicesForCollapse(shape, type.getShape()))
        return tensor::ExpandShapeOp::create(b, target, input, *groups);
    }
  }
  // Otherwise through 1-D: collapse everything, then expand to the target (both are
  // static reassociations that fold into views when lowered).
  Value flat = input;
  if (type.getRank() != 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < type.getRank(); ++d)
      all[0].push_back(d);
    if (type.getRank() == 0)
      all.clear();
    flat = tensor::CollapseShapeOp::create(
        b, RankedTensorType::get({type.getNumElements()}, type.getElementType()), input, all);
  }
  if (shape.size() == 1)
    return flat;
  SmallVector<ReassociationIndices> all(1);
  for (size_t d = 0; d < shape.size(); ++d)
    all[0].push_back(d);
  if (shape.empty())
    all.clear();
  return tensor::ExpandShapeOp::create(b, target, flat, all);
}

llvm::Expected<Value> ImportContext::getChannelsLast(const std::string &name) {
  if (isChannelsLast(name))
    return values.at(name);
  llvm::Expected<Value> v = get(name);
  if (!v)
    return v.takeError();
  if (typeOf(*v).getRank() != 4)
    return makeError("value '" + name + "' is not a rank-4 NCHW tensor");
  Value &nhwc = otherLayout[name];
  if (!nhwc)
    nhwc = permuted(*v, {0, 2, 3, 1});
  return nhwc;
}

Value ImportContext::permuted(Value input, ArrayRef<int64_t> perm) {
  RankedTensorType type = typeOf(input);
  SmallVector<int64_t> nonUnit, shape;
  for (int64_t p : perm) {
    shape.push_back(type.getDimSize(p));
    if (type.getDimSize(p) != 1)
      nonUnit.push_back(p);
  }
  if (llvm::is_sorted(nonUnit))
    return reshaped(input, shape);
  return transposed(input, perm);
}

Value ImportContext::transposed(Value input, ArrayRef<int64_t> perm) {
  RankedTensorType type = typeOf(input);
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = emptyTensor(shape, type.getElementType());
  return linalg::TransposeOp::create(b, input, init, perm).getResult()[0];
}

llvm::Expected<std::vector<int64_t>>
ImportContext::normalizeAxes(const onnx::NodeProto &node, std::vector<int64_t> axes, int64_t rank) {
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank)
      return nodeError(node, "axis " + std::to_string(a) + " is out of range for rank " +
                                 std::to_string(rank));
    if (a < 0)
      a += rank;
  }
  return axes;
}

llvm::Expected<std::vector<int64_t>>
ImportContext::normalizeDistinctAxes(const onnx::NodeProto &node, const std::vector<int64_t> &axes,
                                     int64_t rank) {
  llvm::Expected<std::vector<int64_t>> norm = normalizeAxes(node, axes, rank);
  if (!norm)
    return norm.takeError();
  std::vector<int64_t> sorted = *norm;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return nodeError(node, "axes " + shapeString(axes) + " name an axis twice");
  return norm;
}
