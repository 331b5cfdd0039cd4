//===- OnnxImporter.cpp - ONNX models to linalg on tensors ----------------===//
//
// One pass over the graph in node order (ONNX requires topological order).
// Every value is either an SSA value of @main or a tensor known at import
// time (initializers, Constant nodes, Shape results and what folds from
// them); known tensors become constants only where a runtime op needs them,
// so shape subgraphs leave nothing behind.
//
//===----------------------------------------------------------------------===//

#include "dltune/Import/OnnxImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::dltune;

namespace {
/// Most elements of one tensor the importer takes (8 GiB of f32): counts
/// above it, overflowing ones included, are refused with a diagnostic.
constexpr int64_t kMaxElements = int64_t(1) << 31;

/// The product of non-negative dimensions; INT64_MAX when it overflows, so
/// that a check against kMaxElements refuses it.
int64_t getElementCount(llvm::ArrayRef<int64_t> shape) {
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t n = 1;
  for (int64_t d : shape)
    if (llvm::MulOverflow(n, d, n))
      return INT64_MAX;
  return n;
}

/// "N elements (at most M)" for a count refused against kMaxElements.
std::string describeTooManyElements(int64_t n) {
  return (n == INT64_MAX ? std::string("too many") : std::to_string(n)) +
         " elements (at most " + std::to_string(kMaxElements) + ")";
}


/// A tensor whose contents are known at import time. Floating-point data
/// is kept as double, integers as int64 (ONNX shape math is int64).
struct KnownTensor {
  std::vector<int64_t> shape;
  bool isFloat = true;
  std::vector<double> f;
  std::vector<int64_t> i;

  int64_t size() const { return getElementCount(shape); }
  double at(int64_t k) const { return isFloat ? f[k] : double(i[k]); }
  int64_t intAt(int64_t k) const { return isFloat ? int64_t(f[k]) : i[k]; }
};

/// `t` with its dimensions permuted (result dim d is t's dim perm[d]).
KnownTensor permutedKnown(const KnownTensor &t, ArrayRef<int64_t> perm) {
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

llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t k = 0; k < shape.size(); ++k)
    s += (k ? "x" : "") + std::to_string(shape[k]);
  return s.empty() ? "scalar" : s;
}

/// Numpy broadcasting of two shapes; nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    int64_t da = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    int64_t db = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[k] = std::max(da, db);
  }
  return out;
}

class Importer {
public:
  Importer(MLIRContext &ctx, const onnx::ModelProto &model, StringRef source,
           const OnnxImportOptions &options)
      : ctx(ctx), model(model), source(source.str()), options(options),
        b(UnknownLoc::get(&ctx), &ctx) {}

  llvm::Expected<OwningOpRef<ModuleOp>> run();

private:
  using Handler = llvm::Error (Importer::*)(const onnx::NodeProto &);

  // Values.
  llvm::Expected<Value> get(const std::string &name);
  /// The type of a run-time value; null for a known (folded) value and for
  /// a name not defined yet. (`otherLayout` only holds copies of `values`.)
  ShapedType getRuntimeType(const std::string &name) const {
    if (known(name))
      return {};
    auto it = values.find(name);
    return it == values.end() ? ShapedType() : cast<ShapedType>(it->second.getType());
  }
  const KnownTensor *known(const std::string &name) const {
    auto it = knownValues.find(name);
    return it == knownValues.end() ? nullptr : &it->second;
  }
  llvm::Expected<const KnownTensor *> requireKnown(const onnx::NodeProto &node, int input);
  /// A value that ops like Reshape and Slice take either way: known at
  /// import time (`known`, folded) or at run time (`value`); `shape` for both.
  struct Operand {
    const KnownTensor *known = nullptr;
    Value value;
    std::vector<int64_t> shape;
  };
  llvm::Expected<Operand> operand(const std::string &name);
  Value materialize(const KnownTensor &t, Type elementType);
  void define(const onnx::NodeProto &node, int output, Value v) {
    values[node.output(output)] = v;
  }
  static RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }
  bool hasInput(const onnx::NodeProto &node, int k) const {
    return node.input_size() > k && !node.input(k).empty();
  }

  // Reading the model.
  llvm::Expected<KnownTensor> readTensor(const onnx::TensorProto &t);
  llvm::Expected<Type> convertElementType(int onnxType);
  llvm::Error declareInputs(SmallVectorImpl<Type> &argTypes,
                            SmallVectorImpl<std::string> &argNames);

  // Attributes.
  const onnx::AttributeProto *attr(const onnx::NodeProto &n, StringRef name) const;
  int64_t intAttr(const onnx::NodeProto &n, StringRef name, int64_t dflt) const;
  float floatAttr(const onnx::NodeProto &n, StringRef name, float dflt) const;
  std::vector<int64_t> intsAttr(const onnx::NodeProto &n, StringRef name,
                                std::vector<int64_t> dflt = {}) const;
  std::string stringAttr(const onnx::NodeProto &n, StringRef name, std::string dflt) const;

  llvm::Error nodeError(const onnx::NodeProto &node, const llvm::Twine &msg) const {
    return makeError(source + ": node '" + nodeName(node) + "' (" + node.op_type() +
                     "): " + msg);
  }
  /// A window's kernel, strides and dilations are positive and its pads not
  /// negative, each at most 2^20: the output-size arithmetic then neither
  /// divides by zero nor overflows (both found by the onnx_import fuzzer).
  llvm::Error checkWindow(const onnx::NodeProto &node, llvm::ArrayRef<int64_t> kernel,
                          llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> dilations,
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
  std::string nodeName(const onnx::NodeProto &node) const {
    return node.name().empty() ? node.op_type() + "#" + std::to_string(nodeIndex)
                               : node.name();
  }

  // Building blocks.
  Value emptyTensor(ArrayRef<int64_t> shape, Type elementType) {
    return tensor::EmptyOp::create(b, shape, elementType);
  }
  /// tensor.extract_slice, or an empty tensor when the slice holds no
  /// element: MLIR's verifier wants every offset inside its dimension even
  /// for a slice of size 0, and a dimension of size 0 has no such offset.
  Value extractSlice(Value source, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                     ArrayRef<int64_t> strides) {
    Type element = cast<RankedTensorType>(source.getType()).getElementType();
    if (llvm::is_contained(sizes, 0))
      return emptyTensor(sizes, element);
    return tensor::ExtractSliceOp::create(
        b, RankedTensorType::get(sizes, element), source, ValueRange{}, ValueRange{},
        ValueRange{}, b.getDenseI64ArrayAttr(offsets), b.getDenseI64ArrayAttr(sizes),
        b.getDenseI64ArrayAttr(strides));
  }
  Value filled(ArrayRef<int64_t> shape, Type elementType, double value);
  Value constantScalar(Type t, double v) {
    if (isa<FloatType>(t))
      return arith::ConstantOp::create(b, b.getFloatAttr(t, v));
    return arith::ConstantOp::create(b, b.getIntegerAttr(t, int64_t(v)));
  }
  /// A linalg.generic over the broadcast shape of `inputs` (numpy rules);
  /// `body` gets the scalars and returns the result element.
  llvm::Expected<Value>
  elementwise(const onnx::NodeProto &node, ArrayRef<Value> inputs, Type resultElement,
              std::function<Value(ImplicitLocOpBuilder &, ValueRange)> body);
  llvm::Expected<Value> unary(const onnx::NodeProto &node,
                              std::function<Value(ImplicitLocOpBuilder &, Value)> fn);
  /// Reduces `input` over `axes` with `combine`, starting from `init`;
  /// keepDims keeps the reduced axes as size 1.
  Value reduce(Value input, ArrayRef<int64_t> axes, bool keepDims, double init,
               std::function<Value(ImplicitLocOpBuilder &, Value, Value)> combine);
  /// The mean over `axes`: a sum, then one division by the count.
  llvm::Expected<Value> mean(const onnx::NodeProto &node, Value input, ArrayRef<int64_t> axes,
                             bool keepDims);
  /// The sum combiner of reduce().
  static Value addF(ImplicitLocOpBuilder &ib, Value v, Value acc) {
    return arith::AddFOp::create(ib, v, acc);
  }
  Value padded(Value input, ArrayRef<int64_t> low, ArrayRef<int64_t> high, double value);
  Value reshaped(Value input, ArrayRef<int64_t> shape);
  Value transposed(Value input, ArrayRef<int64_t> perm);
  /// `input` permuted by `perm`: a reshape when only unit dims move.
  Value permuted(Value input, ArrayRef<int64_t> perm);
  /// Value `name` in NHWC (rank 4), transposing a NCHW one once.
  llvm::Expected<Value> getChannelsLast(const std::string &name);
  bool isChannelsLast(const std::string &name) const { return channelsLast.count(name); }
  /// Value `name` in the layout it is stored in (for layout-blind ops).
  llvm::Expected<Value> getAsStored(const std::string &name) {
    return isChannelsLast(name) ? getChannelsLast(name) : get(name);
  }
  /// Defines value `name`, in NHWC or in the model's layout.
  void defineIn(bool nhwc, const std::string &name, Value v) {
    if (nhwc)
      defineChannelsLast(name, v);
    else
      values[name] = v;
  }
  /// Defines output `k` of `node` in the layout of its input `from`.
  void defineLike(const onnx::NodeProto &node, int k, const std::string &from, Value v) {
    defineIn(isChannelsLast(from), node.output(k), v);
  }
  /// A convolution or pooling op `Op` of `input` and `second` (weights or
  /// window) accumulating into `acc`.
  template <typename Op>
  Value windowed(Value input, Value second, Value acc, ArrayRef<int64_t> strides,
                 ArrayRef<int64_t> dilations) {
    return Op::create(b, TypeRange{acc.getType()}, ValueRange{input, second}, ValueRange{acc},
                      b.getI64TensorAttr(strides), b.getI64TensorAttr(dilations))
        .getResult(0);
  }
  void defineChannelsLast(const std::string &name, Value v) {
    values[name] = v;
    channelsLast.insert(name);
  }
  /// Whether a node reading `name` works in NHWC: conv/pool always (with
  /// the option), elementwise ops when their input already is.
  bool wantsChannelsLast(const std::string &name) const {
    return options.channelsLast && isChannelsLast(name);
  }
  llvm::Expected<std::vector<int64_t>> normalizeAxes(const onnx::NodeProto &node,
                                                     std::vector<int64_t> axes, int64_t rank);

  // Op handlers.
  llvm::Error importConv(const onnx::NodeProto &node);
  llvm::Error importBatchNorm(const onnx::NodeProto &node);
  llvm::Error importGemm(const onnx::NodeProto &node);
  llvm::Error importMatMul(const onnx::NodeProto &node);
  llvm::Error importBinary(const onnx::NodeProto &node);
  llvm::Error importUnary(const onnx::NodeProto &node);
  llvm::Error importClip(const onnx::NodeProto &node);
  llvm::Error importPool(const onnx::NodeProto &node);
  llvm::Error importGlobalAveragePool(const onnx::NodeProto &node);
  llvm::Error importReduceMean(const onnx::NodeProto &node);
  llvm::Error importSoftmax(const onnx::NodeProto &node);
  llvm::Error importLayerNorm(const onnx::NodeProto &node);
  llvm::Error importFlatten(const onnx::NodeProto &node);
  llvm::Error importReshape(const onnx::NodeProto &node);
  llvm::Error importTranspose(const onnx::NodeProto &node);
  llvm::Error importConcat(const onnx::NodeProto &node);
  llvm::Error importSlice(const onnx::NodeProto &node);
  llvm::Error importSplit(const onnx::NodeProto &node);
  llvm::Error importGather(const onnx::NodeProto &node);
  llvm::Error importSqueezeUnsqueeze(const onnx::NodeProto &node);
  llvm::Error importIdentity(const onnx::NodeProto &node);
  llvm::Error importConstant(const onnx::NodeProto &node);
  llvm::Error importShape(const onnx::NodeProto &node);
  llvm::Error importCast(const onnx::NodeProto &node);

  /// Conv weights and bias after folding a following BatchNormalization,
  /// and the name of the value the folded conv defines.
  bool foldBatchNormInto(const onnx::NodeProto &conv, KnownTensor &weight, KnownTensor &bias,
                         std::string &outputName);

  MLIRContext &ctx;
  const onnx::ModelProto &model;
  std::string source;
  OnnxImportOptions options;
  ImplicitLocOpBuilder b;
  int64_t opset = 0;
  size_t nodeIndex = 0;
  std::map<std::string, Value> values;
  /// Names whose value in `values` is the NHWC transpose of the model's
  /// rank-4 NCHW tensor (options.channelsLast).
  std::set<std::string> channelsLast;
  /// The other layout of a value, made once on first use.
  std::map<std::string, Value> otherLayout;
  std::map<std::string, KnownTensor> knownValues;
  /// How many nodes read each value (BatchNorm folding needs a single use).
  std::map<std::string, int> uses;
  /// Nodes consumed by a fold (a BatchNormalization folded into its Conv).
  std::set<size_t> folded;
  std::mt19937_64 weightRng;
  /// Elements of initializers without data filled with random values so
  /// far, at most kMaxRandomElements (VGG-16 has 1.4e8 weights).
  static constexpr int64_t kMaxRandomElements = int64_t(1) << 28;
  int64_t randomFilledElements = 0;
  int constantCounter = 0;
};

//===----------------------------------------------------------------------===//
// Reading tensors and attributes
//===----------------------------------------------------------------------===//

llvm::Expected<Type> Importer::convertElementType(int t) {
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

llvm::Expected<KnownTensor> Importer::readTensor(const onnx::TensorProto &t) {
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
  default:
    return makeError("tensor '" + t.name() + "' has element type " +
                     onnx::TensorProto::DataType_Name(
                         onnx::TensorProto::DataType(t.data_type())) +
                     ", which is not supported");
  }
}

const onnx::AttributeProto *Importer::attr(const onnx::NodeProto &n, StringRef name) const {
  for (const onnx::AttributeProto &a : n.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}
int64_t Importer::intAttr(const onnx::NodeProto &n, StringRef name, int64_t dflt) const {
  const onnx::AttributeProto *a = attr(n, name);
  return a ? a->i() : dflt;
}
float Importer::floatAttr(const onnx::NodeProto &n, StringRef name, float dflt) const {
  const onnx::AttributeProto *a = attr(n, name);
  return a ? a->f() : dflt;
}
std::vector<int64_t> Importer::intsAttr(const onnx::NodeProto &n, StringRef name,
                                        std::vector<int64_t> dflt) const {
  const onnx::AttributeProto *a = attr(n, name);
  if (!a)
    return dflt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}
std::string Importer::stringAttr(const onnx::NodeProto &n, StringRef name,
                                 std::string dflt) const {
  const onnx::AttributeProto *a = attr(n, name);
  return a ? a->s() : dflt;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value Importer::materialize(const KnownTensor &t, Type elementType) {
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
    for (int64_t k = 0; k < n; ++k)
      vals.push_back(APInt(elementType.getIntOrFloatBitWidth(), uint64_t(t.intAt(k)), true));
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

llvm::Expected<Value> Importer::get(const std::string &name) {
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
    Value v = materialize(*k, k->isFloat ? Type(b.getF32Type()) : Type(b.getI64Type()));
    values[name] = v;
    return v;
  }
  return makeError("value '" + name + "' is used before it is defined");
}

llvm::Expected<Importer::Operand> Importer::operand(const std::string &name) {
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

llvm::Expected<const KnownTensor *> Importer::requireKnown(const onnx::NodeProto &node,
                                                            int input) {
  if (!hasInput(node, input))
    return nodeError(node, "input " + std::to_string(input) + " is missing");
  if (const KnownTensor *k = known(node.input(input)))
    return k;
  return nodeError(node, "input '" + node.input(input) +
                             "' must be a constant (an initializer or computed from "
                             "constants); dynamic values are not supported there");
}

Value Importer::filled(ArrayRef<int64_t> shape, Type elementType, double value) {
  Value init = emptyTensor(shape, elementType);
  return linalg::FillOp::create(b, ValueRange{constantScalar(elementType, value)},
                                ValueRange{init})
      .getResult(0);
}

llvm::Expected<Value>
Importer::elementwise(const onnx::NodeProto &node, ArrayRef<Value> inputs, Type resultElement,
                      std::function<Value(ImplicitLocOpBuilder &, ValueRange)> body) {
  std::vector<int64_t> shape;
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

llvm::Expected<Value>
Importer::unary(const onnx::NodeProto &node,
                std::function<Value(ImplicitLocOpBuilder &, Value)> fn) {
  llvm::Expected<Value> x = getAsStored(node.input(0));
  if (!x)
    return x.takeError();
  return elementwise(node, {*x}, typeOf(*x).getElementType(),
                     [&](ImplicitLocOpBuilder &ib, ValueRange a) { return fn(ib, a[0]); });
}

Value Importer::reduce(Value input, ArrayRef<int64_t> axes, bool keepDims, double init,
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

llvm::Expected<Value> Importer::mean(const onnx::NodeProto &node, Value input,
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

Value Importer::padded(Value input, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
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

Value Importer::reshaped(Value input, ArrayRef<int64_t> shape) {
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

llvm::Expected<Value> Importer::getChannelsLast(const std::string &name) {
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

Value Importer::permuted(Value input, ArrayRef<int64_t> perm) {
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

Value Importer::transposed(Value input, ArrayRef<int64_t> perm) {
  RankedTensorType type = typeOf(input);
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = emptyTensor(shape, type.getElementType());
  return linalg::TransposeOp::create(b, input, init, perm).getResult()[0];
}

llvm::Expected<std::vector<int64_t>>
Importer::normalizeAxes(const onnx::NodeProto &node, std::vector<int64_t> axes, int64_t rank) {
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank)
      return nodeError(node, "axis " + std::to_string(a) + " is out of range for rank " +
                                 std::to_string(rank));
    if (a < 0)
      a += rank;
  }
  return axes;
}

//===----------------------------------------------------------------------===//
// Convolution, normalisation, matrix products
//===----------------------------------------------------------------------===//

bool Importer::foldBatchNormInto(const onnx::NodeProto &conv, KnownTensor &weight,
                                 KnownTensor &bias, std::string &outputName) {
  if (uses[conv.output(0)] != 1)
    return false;
  const onnx::GraphProto &g = model.graph();
  for (int k = nodeIndex + 1; k < g.node_size(); ++k) {
    const onnx::NodeProto &n = g.node(k);
    if (!llvm::is_contained(n.input(), conv.output(0)))
      continue;
    if (n.op_type() != "BatchNormalization" || n.input(0) != conv.output(0) ||
        n.input_size() < 5 || n.output_size() > 1)
      return false;
    const KnownTensor *scale = known(n.input(1)), *beta = known(n.input(2)),
                      *mean = known(n.input(3)), *var = known(n.input(4));
    int64_t f = weight.shape[0];
    if (!scale || !beta || !mean || !var || scale->size() != f || beta->size() != f ||
        mean->size() != f || var->size() != f)
      return false;
    double eps = floatAttr(n, "epsilon", 1e-5f);
    int64_t per = weight.size() / f;
    for (int64_t o = 0; o < f; ++o) {
      double s = scale->at(o) / std::sqrt(var->at(o) + eps);
      for (int64_t j = 0; j < per; ++j)
        weight.f[o * per + j] *= s;
      bias.f[o] = (bias.f[o] - mean->at(o)) * s + beta->at(o);
    }
    folded.insert(k);
    outputName = n.output(0);
    return true;
  }
  return false;
}

llvm::Error Importer::importConv(const onnx::NodeProto &node) {
  // The input's NCHW shape, without transposing an NHWC one back.
  llvm::Expected<Value> x =
      isChannelsLast(node.input(0)) ? getChannelsLast(node.input(0)) : get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() != 4)
    return nodeError(node, "only 2-D convolutions (NCHW inputs) are supported, got input " +
                               shapeString(xt.getShape()));
  Type elem = xt.getElementType();
  bool inputIsNhwc = isChannelsLast(node.input(0));
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(inputIsNhwc ? 3 : 1),
          h = xt.getDimSize(inputIsNhwc ? 1 : 2), w = xt.getDimSize(inputIsNhwc ? 2 : 3);
  int64_t group = intAttr(node, "group", 1);
  std::string outputName = node.output(0);

  // Weights and bias: folded with a following BatchNormalization when both
  // are constants.
  const KnownTensor *wk = known(node.input(1));
  std::optional<KnownTensor> foldedWeight, foldedBias;
  if (wk && elem.isF32()) {
    KnownTensor wcopy = *wk, bcopy;
    bcopy.shape = {wk->shape[0]};
    bcopy.f.assign(wk->shape[0], 0.0);
    const KnownTensor *bk = hasInput(node, 2) ? known(node.input(2)) : nullptr;
    if (!hasInput(node, 2) || bk) {
      if (bk)
        for (int64_t o = 0; o < bk->size(); ++o)
          bcopy.f[o] = bk->at(o);
      if (foldBatchNormInto(node, wcopy, bcopy, outputName)) {
        foldedWeight = std::move(wcopy);
        foldedBias = std::move(bcopy);
      }
    }
  }
  // NHWC for ungrouped and depthwise convolutions: constant weights are
  // transposed here, at import.
  int64_t wf = wk ? wk->shape[0] : 0;
  bool nhwc = options.channelsLast && wk && wk->shape.size() == 4 &&
              (group == 1 || (group == c && wf == c && wk->shape[1] == 1));
  const KnownTensor *weightData = foldedWeight ? &*foldedWeight : nullptr;
  if (nhwc && !weightData && wk->size() > 0 && (wk->isFloat ? wk->f.size() : wk->i.size()))
    weightData = wk;
  if (nhwc && !weightData)
    nhwc = false; // weights as arguments: keep NCHW rather than transpose per call
  Value weight;
  if (nhwc) {
    KnownTensor t = group == 1 ? permutedKnown(*weightData, {2, 3, 1, 0}) // HWCF
                               : permutedKnown(*weightData, {2, 3, 0, 1}); // HW C 1
    if (group != 1)
      t.shape.pop_back();
    weight = materialize(t, elem);
  } else if (foldedWeight) {
    weight = materialize(*foldedWeight, elem);
  } else {
    llvm::Expected<Value> wv = get(node.input(1));
    if (!wv)
      return wv.takeError();
    weight = *wv;
  }
  RankedTensorType wt = typeOf(weight);
  if (!nhwc && wt.getRank() != 4)
    return nodeError(node, "weight must be 4-D, got " + shapeString(wt.getShape()));
  // The model's FCHW weight shape.
  SmallVector<int64_t> wShape =
      nhwc ? SmallVector<int64_t>(weightData->shape.begin(), weightData->shape.end())
           : SmallVector<int64_t>(wt.getShape());
  int64_t f = wShape[0], kh = wShape[2], kw = wShape[3];
  if (group < 1 || c % group || f % group || wShape[1] * group != c)
    return nodeError(node, llvm::formatv("group {0} does not fit {1} input channels and "
                                         "weight {2}",
                                         group, c, shapeString(wShape))
                               .str());
  std::vector<int64_t> strides = intsAttr(node, "strides", {1, 1});
  std::vector<int64_t> dilations = intsAttr(node, "dilations", {1, 1});
  std::vector<int64_t> pads = intsAttr(node, "pads", {0, 0, 0, 0});
  std::string autoPad = stringAttr(node, "auto_pad", "NOTSET");
  if (strides.size() != 2 || dilations.size() != 2 || pads.size() != 4)
    return nodeError(node, "strides, dilations and pads must describe 2 spatial dims");
  if (llvm::Error e = checkWindow(node, {kh, kw}, strides, dilations, pads))
    return e;
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int d = 0; d < 2; ++d) {
      int64_t in = d ? w : h, k = d ? kw : kh;
      int64_t out = (in + strides[d] - 1) / strides[d];
      int64_t total =
          std::max<int64_t>(0, (out - 1) * strides[d] + (k - 1) * dilations[d] + 1 - in);
      int64_t small = total / 2, big = total - small;
      pads[d] = autoPad == "SAME_UPPER" ? small : big;
      pads[d + 2] = autoPad == "SAME_UPPER" ? big : small;
    }
  } else if (autoPad == "VALID") {
    pads = {0, 0, 0, 0};
  } else if (autoPad != "NOTSET") {
    return nodeError(node, "auto_pad '" + autoPad + "' is not supported");
  }
  int64_t hp = h + pads[0] + pads[2], wp = w + pads[1] + pads[3];
  int64_t oh = (hp - dilations[0] * (kh - 1) - 1) / strides[0] + 1;
  int64_t ow = (wp - dilations[1] * (kw - 1) - 1) / strides[1] + 1;
  if (oh < 1 || ow < 1)
    return nodeError(node, "the kernel does not fit the padded input");
  Value result;
  if (nhwc) {
    llvm::Expected<Value> xl = getChannelsLast(node.input(0));
    if (!xl)
      return xl.takeError();
    Value input = padded(*xl, {0, pads[0], pads[1], 0}, {0, pads[2], pads[3], 0}, 0.0);
    Value acc = filled({n, oh, ow, f}, elem, 0.0);
    result = group == 1
                 ? windowed<linalg::Conv2DNhwcHwcfOp>(input, weight, acc, strides, dilations)
                 : windowed<linalg::DepthwiseConv2DNhwcHwcOp>(input, weight, acc, strides,
                                                              dilations);
  } else {
    if (inputIsNhwc) {
      llvm::Expected<Value> xn = get(node.input(0));
      if (!xn)
        return xn.takeError();
      x = *xn;
    }
    Value input = padded(*x, {0, 0, pads[0], pads[1]}, {0, 0, pads[2], pads[3]}, 0.0);
    if (group == 1) {
      Value acc = filled({n, f, oh, ow}, elem, 0.0);
      result = windowed<linalg::Conv2DNchwFchwOp>(input, weight, acc, strides, dilations);
    } else if (group == c && f == c) {
      // Depthwise: one filter per channel.
      Value w3 = reshaped(weight, {c, kh, kw});
      Value acc = filled({n, c, oh, ow}, elem, 0.0);
      result = windowed<linalg::DepthwiseConv2DNchwChwOp>(input, w3, acc, strides, dilations);
    } else {
      int64_t cg = c / group, fg = f / group;
      Value in5 = reshaped(input, {n, group, cg, hp, wp});
      Value w5 = reshaped(weight, {group, fg, cg, kh, kw});
      Value acc = filled({n, group, fg, oh, ow}, elem, 0.0);
      Value r5 = windowed<linalg::Conv2DNgchwGfchwOp>(in5, w5, acc, strides, dilations);
      result = reshaped(r5, {n, f, oh, ow});
    }
  }
  Value bias;
  if (foldedBias) {
    bias = materialize(*foldedBias, elem);
  } else if (hasInput(node, 2)) {
    llvm::Expected<Value> bv = get(node.input(2));
    if (!bv)
      return bv.takeError();
    bias = *bv;
  }
  if (bias && nhwc) {
    // The bias runs along the last (channel) dimension.
    llvm::Expected<Value> sum =
        elementwise(node, {result, bias}, elem, [](ImplicitLocOpBuilder &ib, ValueRange a) {
          return arith::AddFOp::create(ib, a[0], a[1]);
        });
    if (!sum)
      return sum.takeError();
    result = *sum;
  } else if (bias) {
    Value b4 = reshaped(bias, {f, 1, 1});
    llvm::Expected<Value> sum =
        elementwise(node, {result, b4}, elem, [](ImplicitLocOpBuilder &ib, ValueRange a) {
          return arith::AddFOp::create(ib, a[0], a[1]);
        });
    if (!sum)
      return sum.takeError();
    result = *sum;
  }
  defineIn(nhwc, outputName, result);
  return llvm::Error::success();
}

llvm::Error Importer::importBatchNorm(const onnx::NodeProto &node) {
  if (intAttr(node, "training_mode", 0))
    return nodeError(node, "training_mode=1 is not supported (inference only)");
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() < 2)
    return nodeError(node, "input must have a channel dimension");
  int64_t c = xt.getDimSize(1);
  double eps = floatAttr(node, "epsilon", 1e-5f);
  // y = x * s + t with s = scale / sqrt(var + eps), t = bias - mean * s,
  // per channel, folded here when the parameters are constants.
  std::vector<const KnownTensor *> p;
  for (int k = 1; k <= 4; ++k) {
    llvm::Expected<const KnownTensor *> t = requireKnown(node, k);
    if (!t)
      return t.takeError();
    if ((*t)->size() != c)
      return nodeError(node, "parameter " + std::to_string(k) + " has " +
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
  Value sv = materialize(s, xt.getElementType()), tv = materialize(t, xt.getElementType());
  llvm::Expected<Value> y = elementwise(node, {*x, sv, tv}, xt.getElementType(),
                                        [](ImplicitLocOpBuilder &ib, ValueRange a) {
                                          Value m = arith::MulFOp::create(ib, a[0], a[1]);
                                          return arith::AddFOp::create(ib, m, a[2]);
                                        });
  if (!y)
    return y.takeError();
  define(node, 0, *y);
  return llvm::Error::success();
}

llvm::Error Importer::importGemm(const onnx::NodeProto &node) {
  llvm::Expected<Value> a = get(node.input(0));
  if (!a)
    return a.takeError();
  llvm::Expected<Value> bm = get(node.input(1));
  if (!bm)
    return bm.takeError();
  Value av = *a, bv = *bm;
  if (typeOf(av).getRank() != 2 || typeOf(bv).getRank() != 2)
    return nodeError(node, "A and B must be 2-D");
  // A constant operand (the usual transposed FC weight) is transposed here,
  // once, rather than by a linalg.transpose on every call.
  auto transposedInput = [&](int input, Value v) {
    const KnownTensor *k = known(node.input(input));
    if (k && k->size() > 0 && (k->isFloat ? k->f.size() : k->i.size()) == size_t(k->size()))
      return materialize(permutedKnown(*k, {1, 0}), typeOf(v).getElementType());
    return transposed(v, {1, 0});
  };
  if (intAttr(node, "transA", 0))
    av = transposedInput(0, av);
  if (intAttr(node, "transB", 0))
    bv = transposedInput(1, bv);
  int64_t m = typeOf(av).getDimSize(0), k = typeOf(av).getDimSize(1),
          n = typeOf(bv).getDimSize(1);
  if (typeOf(bv).getDimSize(0) != k)
    return nodeError(node, "inner dimensions differ: " + shapeString(typeOf(av).getShape()) +
                               " and " + shapeString(typeOf(bv).getShape()));
  Type elem = typeOf(av).getElementType();
  Value acc = filled({m, n}, elem, 0.0);
  Value y = linalg::MatmulOp::create(b, TypeRange{acc.getType()}, ValueRange{av, bv},
                                     ValueRange{acc})
                .getResult(0);
  double alpha = floatAttr(node, "alpha", 1.0f), beta = floatAttr(node, "beta", 1.0f);
  Value c;
  if (hasInput(node, 2)) {
    llvm::Expected<Value> cv = get(node.input(2));
    if (!cv)
      return cv.takeError();
    c = *cv;
  }
  if (alpha != 1.0 || (c && beta != 0.0)) {
    SmallVector<Value> ins = {y};
    if (c && beta != 0.0)
      ins.push_back(c);
    llvm::Expected<Value> r =
        elementwise(node, ins, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
          Value r = v[0];
          if (alpha != 1.0)
            r = arith::MulFOp::create(ib, r, constantScalar(elem, alpha));
          if (v.size() > 1) {
            Value cc = v[1];
            if (beta != 1.0)
              cc = arith::MulFOp::create(ib, cc, constantScalar(elem, beta));
            r = arith::AddFOp::create(ib, r, cc);
          }
          return r;
        });
    if (!r)
      return r.takeError();
    y = *r;
  }
  define(node, 0, y);
  return llvm::Error::success();
}

llvm::Error Importer::importMatMul(const onnx::NodeProto &node) {
  llvm::Expected<Value> a = get(node.input(0));
  if (!a)
    return a.takeError();
  llvm::Expected<Value> bm = get(node.input(1));
  if (!bm)
    return bm.takeError();
  Value av = *a, bv = *bm;
  ArrayRef<int64_t> as = typeOf(av).getShape(), bs = typeOf(bv).getShape();
  if (as.size() < 2 || bs.size() < 2)
    return nodeError(node, "1-D operands are not supported, got " + shapeString(as) + " and " +
                               shapeString(bs));
  int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    return nodeError(node, "inner dimensions differ: " + shapeString(as) + " and " +
                               shapeString(bs));
  Type elem = typeOf(av).getElementType();
  std::vector<int64_t> batchA(as.begin(), as.end() - 2), batchB(bs.begin(), bs.end() - 2);
  auto batch = broadcastShapes(batchA, batchB);
  if (!batch)
    return nodeError(node, "batch dimensions do not broadcast");
  int64_t batchSize = getElementCount(*batch);
  if (batchSize > kMaxElements)
    return nodeError(node, "batch dimensions " + shapeString(*batch) + " are too large");
  std::vector<int64_t> outShape = *batch;
  outShape.push_back(m);
  outShape.push_back(n);
  Value y;
  if (batchB.empty() || batchSize == 1) {
    // A's batch folds into its rows: one matmul.
    Value a2 = reshaped(av, {batchSize * m, k});
    Value b2 = reshaped(bv, {k, n});
    Value acc = filled({batchSize * m, n}, elem, 0.0);
    y = linalg::MatmulOp::create(b, TypeRange{acc.getType()}, ValueRange{a2, b2},
                                 ValueRange{acc})
            .getResult(0);
  } else {
    // Broadcast both to the full batch, then one batch_matmul.
    auto expand = [&](Value v, ArrayRef<int64_t> vb, int64_t rows, int64_t cols) -> Value {
      std::vector<int64_t> full = *batch;
      full.push_back(rows);
      full.push_back(cols);
      if (vb == ArrayRef<int64_t>(*batch))
        return reshaped(v, {batchSize, rows, cols});
      llvm::Expected<Value> e = elementwise(
          node, {v, emptyTensor(full, elem)}, elem,
          [](ImplicitLocOpBuilder &, ValueRange args) { return args[0]; });
      return reshaped(*e, {batchSize, rows, cols});
    };
    Value a3 = expand(av, batchA, m, k), b3 = expand(bv, batchB, k, n);
    Value acc = filled({batchSize, m, n}, elem, 0.0);
    y = linalg::BatchMatmulOp::create(b, TypeRange{acc.getType()}, ValueRange{a3, b3},
                                      ValueRange{acc})
            .getResult(0);
  }
  define(node, 0, reshaped(y, outShape));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

llvm::Error Importer::importBinary(const onnx::NodeProto &node) {
  const std::string &op = node.op_type();
  const KnownTensor *ka = known(node.input(0)), *kb = known(node.input(1));
  // Shape arithmetic on constants folds here.
  if (ka && kb && !ka->isFloat && !kb->isFloat && ka->size() <= 64 && kb->size() <= 64) {
    auto shape = broadcastShapes(ka->shape, kb->shape);
    if (!shape)
      return nodeError(node, "shapes do not broadcast");
    KnownTensor r;
    r.isFloat = false;
    r.shape = *shape;
    for (int64_t k = 0; k < r.size(); ++k) {
      int64_t x = ka->i[ka->size() == 1 ? 0 : k % ka->size()];
      int64_t y = kb->i[kb->size() == 1 ? 0 : k % kb->size()];
      int64_t v = op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y
                  : (y == 0 ? 0 : x / y);
      if (op == "Div" && y == 0)
        return nodeError(node, "integer division by zero in a constant");
      r.i.push_back(v);
    }
    knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  // With an NHWC input the op runs in NHWC; the other input is brought to
  // NHWC too (a per-channel constant C x 1 x 1 becomes a 1 x 1 x C view).
  bool nhwc = isChannelsLast(node.input(0)) || isChannelsLast(node.input(1));
  auto input = [&](const std::string &name) -> llvm::Expected<Value> {
    if (!nhwc || isChannelsLast(name))
      return getAsStored(name);
    llvm::Expected<Value> v = get(name);
    if (!v)
      return v.takeError();
    RankedTensorType t = typeOf(*v);
    if (t.getRank() > 4)
      return nodeError(node, "an input of rank > 4 next to an NHWC one");
    if (t.getRank() == 4)
      return getChannelsLast(name); // transposed once for all its readers
    SmallVector<int64_t> shape(4 - t.getRank(), 1);
    shape.append(t.getShape().begin(), t.getShape().end());
    return permuted(reshaped(*v, shape), {0, 2, 3, 1});
  };
  llvm::Expected<Value> a = input(node.input(0));
  if (!a)
    return a.takeError();
  llvm::Expected<Value> bv = input(node.input(1));
  if (!bv)
    return bv.takeError();
  Type elem = typeOf(*a).getElementType();
  if (typeOf(*bv).getElementType() != elem)
    return nodeError(node, "operands have different element types");
  bool isFloat = isa<FloatType>(elem);
  // Pow with a constant exponent of 2 or 0.5 (layer norms exported by
  // PyTorch) becomes a multiply or a square root.
  std::optional<double> exponent;
  if (op == "Pow" && kb && kb->size() == 1)
    exponent = kb->at(0);
  llvm::Expected<Value> r = elementwise(
      node, {*a, *bv}, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) -> Value {
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
    return nodeError(node, "integer Pow is not supported");
  defineIn(nhwc, node.output(0), *r);
  return llvm::Error::success();
}

llvm::Error Importer::importUnary(const onnx::NodeProto &node) {
  const std::string op = node.op_type();
  llvm::Expected<Value> x = getAsStored(node.input(0));
  if (!x)
    return x.takeError();
  Type elem = typeOf(*x).getElementType();
  if (!isa<FloatType>(elem))
    return nodeError(node, "only floating-point inputs are supported");
  float alpha = floatAttr(node, "alpha", op == "HardSigmoid" ? 0.2f : 0.01f);
  float beta = floatAttr(node, "beta", 0.5f);
  llvm::Expected<Value> r = unary(node, [&](ImplicitLocOpBuilder &ib, Value v) -> Value {
    auto c = [&](double d) { return constantScalar(elem, d); };
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
  defineLike(node, 0, node.input(0), *r);
  return llvm::Error::success();
}

llvm::Error Importer::importClip(const onnx::NodeProto &node) {
  double lo = -INFINITY, hi = INFINITY;
  if (opset < 11) {
    lo = floatAttr(node, "min", -INFINITY);
    hi = floatAttr(node, "max", INFINITY);
  }
  for (int k : {1, 2}) {
    if (!hasInput(node, k))
      continue;
    llvm::Expected<const KnownTensor *> t = requireKnown(node, k);
    if (!t)
      return t.takeError();
    (k == 1 ? lo : hi) = (*t)->at(0);
  }
  llvm::Expected<Value> r = unary(node, [&](ImplicitLocOpBuilder &ib, Value v) -> Value {
    Type elem = v.getType();
    if (std::isfinite(lo))
      v = arith::MaximumFOp::create(ib, v, constantScalar(elem, lo));
    if (std::isfinite(hi))
      v = arith::MinimumFOp::create(ib, v, constantScalar(elem, hi));
    return v;
  });
  if (!r)
    return r.takeError();
  defineLike(node, 0, node.input(0), *r);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Pooling and reductions
//===----------------------------------------------------------------------===//

llvm::Error Importer::importPool(const onnx::NodeProto &node) {
  bool isMax = node.op_type() == "MaxPool";
  if (node.output_size() > 1 && !node.output(1).empty())
    return nodeError(node, "the Indices output is not supported");
  // NHWC with the option: the pooling window runs over contiguous channels.
  bool nhwc = options.channelsLast;
  if (nhwc) {
    llvm::Expected<Value> stored = getAsStored(node.input(0));
    if (!stored)
      return stored.takeError();
    nhwc = typeOf(*stored).getRank() == 4;
  }
  llvm::Expected<Value> x = nhwc ? getChannelsLast(node.input(0)) : get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() != 4)
    return nodeError(node, "only 2-D pooling (NCHW) is supported");
  std::vector<int64_t> k = intsAttr(node, "kernel_shape");
  std::vector<int64_t> strides = intsAttr(node, "strides", {1, 1});
  std::vector<int64_t> pads = intsAttr(node, "pads", {0, 0, 0, 0});
  std::vector<int64_t> dilations = intsAttr(node, "dilations", {1, 1});
  bool ceil = intAttr(node, "ceil_mode", 0);
  bool countPad = intAttr(node, "count_include_pad", 0);
  std::string autoPad = stringAttr(node, "auto_pad", "NOTSET");
  if (k.size() != 2 || strides.size() != 2 || pads.size() != 4 || dilations.size() != 2)
    return nodeError(node, "kernel_shape, strides, pads and dilations must describe 2 dims");
  if (llvm::Error e = checkWindow(node, k, strides, dilations, pads))
    return e;
  if (autoPad != "NOTSET" && autoPad != "VALID")
    return nodeError(node, "auto_pad '" + autoPad + "' is not supported");
  if (!isMax && (dilations[0] != 1 || dilations[1] != 1))
    return nodeError(node, "dilated average pooling is not supported");
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(nhwc ? 3 : 1);
  int64_t in[2] = {xt.getDimSize(nhwc ? 1 : 2), xt.getDimSize(nhwc ? 2 : 3)}, out[2], extra[2];
  for (int d = 0; d < 2; ++d) {
    int64_t span = in[d] + pads[d] + pads[d + 2] - dilations[d] * (k[d] - 1) - 1;
    if (span < 0)
      return nodeError(node, "the kernel does not fit the padded input");
    out[d] = (ceil ? (span + strides[d] - 1) / strides[d] : span / strides[d]) + 1;
    // ceil_mode: a last window may start inside the input and run past it.
    if (ceil && (out[d] - 1) * strides[d] >= in[d] + pads[d])
      --out[d];
    extra[d] = std::max<int64_t>(
        0, (out[d] - 1) * strides[d] + dilations[d] * (k[d] - 1) + 1 - (in[d] + pads[d] + pads[d + 2]));
  }
  Type elem = xt.getElementType();
  double padValue = isMax ? -INFINITY : 0.0;
  Value input =
      nhwc ? padded(*x, {0, pads[0], pads[1], 0},
                    {0, pads[2] + extra[0], pads[3] + extra[1], 0}, padValue)
           : padded(*x, {0, 0, pads[0], pads[1]},
                    {0, 0, pads[2] + extra[0], pads[3] + extra[1]}, padValue);
  Value window = emptyTensor(k, elem);
  Value acc = nhwc ? filled({n, out[0], out[1], c}, elem, padValue)
                   : filled({n, c, out[0], out[1]}, elem, padValue);
  auto defineResult = [&](Value v) { defineIn(nhwc, node.output(0), v); };
  if (isMax) {
    defineResult(
        nhwc ? windowed<linalg::PoolingNhwcMaxOp>(input, window, acc, strides, dilations)
             : windowed<linalg::PoolingNchwMaxOp>(input, window, acc, strides, dilations));
    return llvm::Error::success();
  }
  Value r = nhwc ? windowed<linalg::PoolingNhwcSumOp>(input, window, acc, strides, dilations)
                 : windowed<linalg::PoolingNchwSumOp>(input, window, acc, strides, dilations);
  // Divisors per output position: the window size, or the part of it
  // inside the input (count_include_pad=0); computed here, a constant.
  KnownTensor div;
  div.shape = {out[0], out[1]};
  if (nhwc)
    div.shape.push_back(1); // broadcast along the channels
  for (int64_t i = 0; i < out[0]; ++i)
    for (int64_t j = 0; j < out[1]; ++j) {
      auto inside = [&](int d, int64_t o) {
        int64_t lo = o * strides[d] - pads[d], hi = lo + k[d];
        if (countPad)
          // Padding counts, the ceil_mode overhang does not.
          return std::min(hi, in[d] + pads[d + 2]) - std::max(lo, -pads[d]);
        return std::min(hi, in[d]) - std::max<int64_t>(lo, 0);
      };
      div.f.push_back(double(inside(0, i) * inside(1, j)));
    }
  bool uniform = llvm::all_of(div.f, [&](double v) { return v == div.f[0]; });
  if (uniform) {
    double d = div.f[0];
    llvm::Expected<Value> y = elementwise(node, {r}, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
      return arith::DivFOp::create(ib, v[0], constantScalar(elem, d));
    });
    if (!y)
      return y.takeError();
    defineResult(*y);
  } else {
    Value dv = materialize(div, elem);
    llvm::Expected<Value> y = elementwise(node, {r, dv}, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) {
      return arith::DivFOp::create(ib, v[0], v[1]);
    });
    if (!y)
      return y.takeError();
    defineResult(*y);
  }
  return llvm::Error::success();
}

llvm::Error Importer::importGlobalAveragePool(const onnx::NodeProto &node) {
  if (isChannelsLast(node.input(0))) {
    // Mean over H and W of the NHWC value is N x C; as N x C x 1 x 1 it is
    // the model's layout again.
    llvm::Expected<Value> x = getChannelsLast(node.input(0));
    if (!x)
      return x.takeError();
    RankedTensorType xt = typeOf(*x);
    llvm::Expected<Value> y = mean(node, *x, {1, 2}, /*keepDims=*/false);
    if (!y)
      return y.takeError();
    define(node, 0, reshaped(*y, {xt.getDimSize(0), xt.getDimSize(3), 1, 1}));
    return llvm::Error::success();
  }
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() < 3)
    return nodeError(node, "input must be N x C x spatial");
  std::vector<int64_t> axes;
  for (int64_t d = 2; d < xt.getRank(); ++d)
    axes.push_back(d);
  llvm::Expected<Value> y = mean(node, *x, axes, /*keepDims=*/true);
  if (!y)
    return y.takeError();
  define(node, 0, *y);
  return llvm::Error::success();
}

llvm::Error Importer::importReduceMean(const onnx::NodeProto &node) {
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  std::vector<int64_t> axes = intsAttr(node, "axes");
  if (hasInput(node, 1)) { // opset 18 moves axes to an input
    llvm::Expected<const KnownTensor *> t = requireKnown(node, 1);
    if (!t)
      return t.takeError();
    axes = (*t)->i;
  }
  if (axes.empty())
    for (int64_t d = 0; d < xt.getRank(); ++d)
      axes.push_back(d);
  llvm::Expected<std::vector<int64_t>> norm = normalizeAxes(node, axes, xt.getRank());
  if (!norm)
    return norm.takeError();
  llvm::Expected<Value> y = mean(node, *x, *norm, intAttr(node, "keepdims", 1));
  if (!y)
    return y.takeError();
  define(node, 0, *y);
  return llvm::Error::success();
}

llvm::Error Importer::importSoftmax(const onnx::NodeProto &node) {
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  int64_t axis = intAttr(node, "axis", -1);
  llvm::Expected<std::vector<int64_t>> a = normalizeAxes(node, {axis}, xt.getRank());
  if (!a)
    return a.takeError();
  Type elem = xt.getElementType();
  // exp(x - max) / sum(exp(x - max)) along the axis.
  Value mx = reduce(*x, *a, true, -INFINITY, [](ImplicitLocOpBuilder &ib, Value v, Value acc) {
    return arith::MaximumFOp::create(ib, v, acc);
  });
  llvm::Expected<Value> e = elementwise(node, {*x, mx}, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) {
    return math::ExpOp::create(ib, arith::SubFOp::create(ib, v[0], v[1]));
  });
  if (!e)
    return e.takeError();
  Value sum = reduce(*e, *a, true, 0.0, addF);
  llvm::Expected<Value> y = elementwise(node, {*e, sum}, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) {
    return arith::DivFOp::create(ib, v[0], v[1]);
  });
  if (!y)
    return y.takeError();
  define(node, 0, *y);
  return llvm::Error::success();
}

llvm::Error Importer::importLayerNorm(const onnx::NodeProto &node) {
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  int64_t axis = intAttr(node, "axis", -1);
  llvm::Expected<std::vector<int64_t>> a0 = normalizeAxes(node, {axis}, xt.getRank());
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
  Value sum = reduce(*x, axes, true, 0.0, addF);
  llvm::Expected<Value> centred =
      elementwise(node, {*x, sum}, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
        Value mean = arith::DivFOp::create(ib, v[1], constantScalar(elem, double(count)));
        return arith::SubFOp::create(ib, v[0], mean);
      });
  if (!centred)
    return centred.takeError();
  llvm::Expected<Value> sq = elementwise(node, {*centred}, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) {
    return arith::MulFOp::create(ib, v[0], v[0]);
  });
  if (!sq)
    return sq.takeError();
  Value var = reduce(*sq, axes, true, 0.0, addF);
  SmallVector<Value> ins = {*centred, var};
  for (int k : {1, 2}) {
    if (!hasInput(node, k))
      continue;
    llvm::Expected<Value> p = get(node.input(k));
    if (!p)
      return p.takeError();
    ins.push_back(*p);
  }
  bool hasScale = hasInput(node, 1), hasBias = hasInput(node, 2);
  llvm::Expected<Value> y = elementwise(node, ins, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
    Value variance = arith::DivFOp::create(ib, v[1], constantScalar(elem, double(count)));
    Value denom = math::SqrtOp::create(
        ib, arith::AddFOp::create(ib, variance, constantScalar(elem, eps)));
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
        return nodeError(node, "the Mean and InvStdDev outputs are not supported");
  define(node, 0, *y);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Shapes and data movement
//===----------------------------------------------------------------------===//

llvm::Error Importer::importFlatten(const onnx::NodeProto &node) {
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> s = typeOf(*x).getShape();
  int64_t axis = intAttr(node, "axis", 1);
  if (axis < 0)
    axis += s.size();
  if (axis < 0 || axis > int64_t(s.size()))
    return nodeError(node, "axis out of range");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < int64_t(s.size()); ++d)
    (d < axis ? outer : inner) *= s[d];
  define(node, 0, reshaped(*x, {outer, inner}));
  return llvm::Error::success();
}

llvm::Error Importer::importReshape(const onnx::NodeProto &node) {
  llvm::Expected<const KnownTensor *> shapeT = requireKnown(node, 1);
  if (!shapeT)
    return shapeT.takeError();
  bool allowZero = intAttr(node, "allowzero", 0);
  llvm::Expected<Operand> input = operand(node.input(0));
  if (!input)
    return input.takeError();
  const KnownTensor *kx = input->known;
  Value xv = input->value;
  const std::vector<int64_t> &in = input->shape;
  int64_t total = getElementCount(in);
  std::vector<int64_t> shape = (*shapeT)->i;
  int64_t inferred = -1, product = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0 && !allowZero) {
      if (d >= in.size())
        return nodeError(node, "shape entry 0 copies a dimension the input does not have");
      shape[d] = in[d];
    }
    if (shape[d] == -1) {
      if (inferred >= 0)
        return nodeError(node, "more than one -1 in the target shape");
      inferred = d;
      continue;
    }
    if (shape[d] < 0)
      return nodeError(node, "negative dimension in the target shape");
    if (llvm::MulOverflow(product, shape[d], product))
      return nodeError(node, "the target shape " + shapeString(shape) + " is too large");
  }
  if (inferred >= 0) {
    if (product == 0 || total % product)
      return nodeError(node, "cannot infer the -1 dimension");
    shape[inferred] = total / product;
    product *= shape[inferred];
  }
  if (product != total)
    return nodeError(node, "cannot reshape " + shapeString(in) + " (" + std::to_string(total) +
                               " elements) to " + shapeString(shape));
  if (kx) {
    KnownTensor r = *kx;
    r.shape = shape;
    knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  define(node, 0, reshaped(xv, shape));
  return llvm::Error::success();
}

llvm::Error Importer::importTranspose(const onnx::NodeProto &node) {
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  int64_t rank = typeOf(*x).getRank();
  std::vector<int64_t> perm = intsAttr(node, "perm");
  if (perm.empty())
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t d = 0; d < rank; ++d)
    if (int64_t(sorted.size()) != rank || sorted[d] != d)
      return nodeError(node, "perm is not a permutation of the input's dimensions");
  define(node, 0, transposed(*x, perm));
  return llvm::Error::success();
}

llvm::Error Importer::importConcat(const onnx::NodeProto &node) {
  int64_t axis = intAttr(node, "axis", 0);
  bool allKnown = llvm::all_of(node.input(), [&](const std::string &n) { return known(n); });
  if (allKnown) {
    // Shape vectors: 1-D concatenation of constants.
    KnownTensor r;
    r.isFloat = known(node.input(0))->isFloat;
    for (const std::string &n : node.input()) {
      const KnownTensor *k = known(n);
      if (k->shape.size() > 1 || k->isFloat != r.isFloat)
        allKnown = false;
      r.f.insert(r.f.end(), k->f.begin(), k->f.end());
      r.i.insert(r.i.end(), k->i.begin(), k->i.end());
    }
    if (allKnown) {
      r.shape = {int64_t(r.isFloat ? r.f.size() : r.i.size())};
      knownValues[node.output(0)] = std::move(r);
      return llvm::Error::success();
    }
  }
  // Channel concatenation of NHWC values (SqueezeNet's fire modules) stays
  // in NHWC, along the last dimension.
  bool nhwc = llvm::any_of(node.input(), [&](const std::string &n) { return isChannelsLast(n); });
  if (nhwc && (axis == 1 || axis == -3)) {
    for (const std::string &n : node.input()) {
      llvm::Expected<Value> v = getAsStored(n);
      if (!v)
        return v.takeError();
      nhwc &= typeOf(*v).getRank() == 4;
    }
  } else {
    nhwc = false;
  }
  SmallVector<Value> ins;
  for (const std::string &n : node.input()) {
    llvm::Expected<Value> v = nhwc ? getChannelsLast(n) : get(n);
    if (!v)
      return v.takeError();
    ins.push_back(*v);
  }
  RankedTensorType t0 = typeOf(ins[0]);
  int64_t rank = t0.getRank();
  llvm::Expected<std::vector<int64_t>> a = normalizeAxes(node, {axis}, rank);
  if (!a)
    return a.takeError();
  axis = nhwc ? 3 : (*a)[0];
  SmallVector<int64_t> shape(t0.getShape());
  shape[axis] = 0;
  for (Value v : ins) {
    RankedTensorType t = typeOf(v);
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && (t.getRank() != rank || t.getDimSize(d) != t0.getDimSize(d)))
        return nodeError(node, "inputs differ outside the concatenation axis");
    shape[axis] += t.getDimSize(axis);
  }
  Value result = emptyTensor(shape, t0.getElementType());
  int64_t offset = 0;
  for (Value v : ins) {
    RankedTensorType t = typeOf(v);
    // Nothing to insert (and no offset the verifier would take for it).
    if (llvm::is_contained(t.getShape(), 0))
      continue;
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes, strides(rank, b.getIndexAttr(1));
    offsets[axis] = b.getIndexAttr(offset);
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(b.getIndexAttr(t.getDimSize(d)));
    result = tensor::InsertSliceOp::create(b, v, result, offsets, sizes, strides);
    offset += t.getDimSize(axis);
  }
  defineIn(nhwc, node.output(0), result);
  return llvm::Error::success();
}

llvm::Error Importer::importSlice(const onnx::NodeProto &node) {
  llvm::Expected<const KnownTensor *> starts = requireKnown(node, 1);
  if (!starts)
    return starts.takeError();
  llvm::Expected<const KnownTensor *> ends = requireKnown(node, 2);
  if (!ends)
    return ends.takeError();
  std::vector<int64_t> axes, steps;
  if (hasInput(node, 3)) {
    llvm::Expected<const KnownTensor *> t = requireKnown(node, 3);
    if (!t)
      return t.takeError();
    axes = (*t)->i;
  }
  if (hasInput(node, 4)) {
    llvm::Expected<const KnownTensor *> t = requireKnown(node, 4);
    if (!t)
      return t.takeError();
    steps = (*t)->i;
  }
  llvm::Expected<Operand> input = operand(node.input(0));
  if (!input)
    return input.takeError();
  const KnownTensor *kx = input->known;
  Value xv = input->value;
  const std::vector<int64_t> &in = input->shape;
  int64_t rank = in.size();
  size_t count = (*starts)->i.size();
  if (axes.empty())
    for (size_t k = 0; k < count; ++k)
      axes.push_back(k);
  if (steps.empty())
    steps.assign(count, 1);
  if ((*ends)->i.size() != count || axes.size() != count || steps.size() != count)
    return nodeError(node, "starts, ends, axes and steps differ in length");
  llvm::Expected<std::vector<int64_t>> na = normalizeAxes(node, axes, rank);
  if (!na)
    return na.takeError();
  std::vector<int64_t> offset(rank, 0), size = in, stride(rank, 1);
  for (size_t k = 0; k < count; ++k) {
    int64_t d = (*na)[k], dim = in[d], st = steps[k];
    if (st <= 0)
      return nodeError(node, "only positive steps are supported");
    int64_t s = (*starts)->i[k], e = (*ends)->i[k];
    if (s < 0)
      s += dim;
    if (e < 0)
      e += dim;
    s = std::clamp<int64_t>(s, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
    offset[d] = s;
    stride[d] = st;
    size[d] = e > s ? (e - s + st - 1) / st : 0;
  }
  if (kx) {
    if (rank != 1 || kx->isFloat)
      return nodeError(node, "slicing a constant is supported for 1-D integer shapes only");
    KnownTensor r;
    r.isFloat = false;
    for (int64_t j = 0; j < size[0]; ++j)
      r.i.push_back(kx->i[offset[0] + j * stride[0]]);
    r.shape = {size[0]};
    knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  define(node, 0, extractSlice(xv, offset, size, stride));
  return llvm::Error::success();
}

llvm::Error Importer::importSplit(const onnx::NodeProto &node) {
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  int64_t rank = xt.getRank();
  llvm::Expected<std::vector<int64_t>> a = normalizeAxes(node, {intAttr(node, "axis", 0)}, rank);
  if (!a)
    return a.takeError();
  int64_t axis = (*a)[0], dim = xt.getDimSize(axis), parts = node.output_size();
  std::vector<int64_t> sizes = intsAttr(node, "split"); // before opset 13
  if (hasInput(node, 1)) {
    llvm::Expected<const KnownTensor *> t = requireKnown(node, 1);
    if (!t)
      return t.takeError();
    sizes = (*t)->i;
  }
  if (sizes.empty()) {
    // Equal parts; with num_outputs (opset 18) the last may be smaller.
    int64_t each = (dim + parts - 1) / parts;
    for (int64_t k = 0; k < parts; ++k)
      sizes.push_back(std::min(each, dim - k * each));
  }
  if (int64_t(sizes.size()) != parts || llvm::any_of(sizes, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(sizes, [&](int64_t v) { return v > dim; }) ||
      std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != dim)
    return nodeError(node, "split sizes do not add up to dimension " + std::to_string(axis) +
                               " (" + std::to_string(dim) + ") over " +
                               std::to_string(parts) + " outputs");
  int64_t offset = 0;
  for (int64_t k = 0; k < parts; ++k) {
    SmallVector<int64_t> offsets(rank, 0), shape(xt.getShape()), strides(rank, 1);
    offsets[axis] = offset;
    shape[axis] = sizes[k];
    offset += sizes[k];
    if (node.output(k).empty())
      continue;
    define(node, k, extractSlice(*x, offsets, shape, strides));
  }
  return llvm::Error::success();
}

llvm::Error Importer::importGather(const onnx::NodeProto &node) {
  llvm::Expected<const KnownTensor *> data = requireKnown(node, 0);
  if (!data)
    return data.takeError();
  llvm::Expected<const KnownTensor *> idx = requireKnown(node, 1);
  if (!idx)
    return idx.takeError();
  const KnownTensor &d = **data, &ix = **idx;
  int64_t rank = d.shape.size();
  llvm::Expected<std::vector<int64_t>> a = normalizeAxes(node, {intAttr(node, "axis", 0)}, rank);
  if (!a)
    return a.takeError();
  int64_t axis = (*a)[0];
  int64_t outer = 1, inner = 1, dim = d.shape[axis];
  for (int64_t k = 0; k < axis; ++k)
    outer *= d.shape[k];
  for (int64_t k = axis + 1; k < rank; ++k)
    inner *= d.shape[k];
  KnownTensor r;
  r.isFloat = d.isFloat;
  r.shape.assign(d.shape.begin(), d.shape.begin() + axis);
  r.shape.insert(r.shape.end(), ix.shape.begin(), ix.shape.end());
  r.shape.insert(r.shape.end(), d.shape.begin() + axis + 1, d.shape.end());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < ix.size(); ++j) {
      int64_t i = ix.intAt(j);
      if (i < 0)
        i += dim;
      if (i < 0 || i >= dim)
        return nodeError(node, "index " + std::to_string(ix.intAt(j)) + " is out of range");
      for (int64_t q = 0; q < inner; ++q) {
        int64_t src = (o * dim + i) * inner + q;
        if (d.isFloat)
          r.f.push_back(d.f[src]);
        else
          r.i.push_back(d.i[src]);
      }
    }
  knownValues[node.output(0)] = std::move(r);
  return llvm::Error::success();
}

llvm::Error Importer::importSqueezeUnsqueeze(const onnx::NodeProto &node) {
  bool squeeze = node.op_type() == "Squeeze";
  std::vector<int64_t> axes = intsAttr(node, "axes");
  if (hasInput(node, 1)) { // opset 13 moved axes to an input
    llvm::Expected<const KnownTensor *> t = requireKnown(node, 1);
    if (!t)
      return t.takeError();
    axes = (*t)->i;
  }
  llvm::Expected<Operand> input = operand(node.input(0));
  if (!input)
    return input.takeError();
  const KnownTensor *kx = input->known;
  Value xv = input->value;
  const std::vector<int64_t> &in = input->shape;
  std::vector<int64_t> shape;
  if (squeeze) {
    if (axes.empty())
      for (int64_t d = 0; d < int64_t(in.size()); ++d)
        if (in[d] == 1)
          axes.push_back(d);
    llvm::Expected<std::vector<int64_t>> na = normalizeAxes(node, axes, in.size());
    if (!na)
      return na.takeError();
    for (int64_t d = 0; d < int64_t(in.size()); ++d) {
      if (!llvm::is_contained(*na, d)) {
        shape.push_back(in[d]);
      } else if (in[d] != 1) {
        return nodeError(node, "cannot squeeze dimension " + std::to_string(d) + " of size " +
                                   std::to_string(in[d]));
      }
    }
  } else {
    int64_t rank = in.size() + axes.size();
    llvm::Expected<std::vector<int64_t>> na = normalizeAxes(node, axes, rank);
    if (!na)
      return na.takeError();
    size_t next = 0;
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(llvm::is_contained(*na, d) ? 1 : in[next++]);
  }
  if (kx) {
    KnownTensor r = *kx;
    r.shape = shape;
    knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  define(node, 0, reshaped(xv, shape));
  return llvm::Error::success();
}

llvm::Error Importer::importIdentity(const onnx::NodeProto &node) {
  if (const KnownTensor *k = known(node.input(0))) {
    knownValues[node.output(0)] = *k;
    return llvm::Error::success();
  }
  llvm::Expected<Value> x = getAsStored(node.input(0));
  if (!x)
    return x.takeError();
  defineLike(node, 0, node.input(0), *x);
  // Dropout's mask output is not supported; its ratio does not matter in
  // inference.
  if (node.op_type() == "Dropout" && node.output_size() > 1 && !node.output(1).empty())
    return nodeError(node, "the mask output is not supported");
  return llvm::Error::success();
}

llvm::Error Importer::importConstant(const onnx::NodeProto &node) {
  KnownTensor k;
  if (const onnx::AttributeProto *a = attr(node, "value")) {
    llvm::Expected<KnownTensor> t = readTensor(a->t());
    if (!t)
      return nodeError(node, llvm::toString(t.takeError()));
    k = std::move(*t);
  } else if (const onnx::AttributeProto *a = attr(node, "value_float")) {
    k.f = {a->f()};
  } else if (const onnx::AttributeProto *a = attr(node, "value_floats")) {
    k.f.assign(a->floats().begin(), a->floats().end());
    k.shape = {int64_t(k.f.size())};
  } else if (const onnx::AttributeProto *a = attr(node, "value_int")) {
    k.isFloat = false;
    k.i = {a->i()};
  } else if (const onnx::AttributeProto *a = attr(node, "value_ints")) {
    k.isFloat = false;
    k.i.assign(a->ints().begin(), a->ints().end());
    k.shape = {int64_t(k.i.size())};
  } else {
    return nodeError(node, "no supported value attribute (sparse and string constants are not "
                           "supported)");
  }
  knownValues[node.output(0)] = std::move(k);
  return llvm::Error::success();
}

llvm::Error Importer::importShape(const onnx::NodeProto &node) {
  llvm::Expected<Operand> input = operand(node.input(0));
  if (!input)
    return input.takeError();
  const std::vector<int64_t> &in = input->shape;
  int64_t rank = in.size();
  int64_t start = intAttr(node, "start", 0), end = intAttr(node, "end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  KnownTensor r;
  r.isFloat = false;
  r.i.assign(in.begin() + start, in.begin() + end);
  r.shape = {end - start};
  knownValues[node.output(0)] = std::move(r);
  return llvm::Error::success();
}

llvm::Error Importer::importCast(const onnx::NodeProto &node) {
  int64_t to = intAttr(node, "to", onnx::TensorProto::FLOAT);
  const KnownTensor *k = known(node.input(0));
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
    knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  llvm::Expected<Value> x = get(node.input(0));
  if (!x)
    return x.takeError();
  llvm::Expected<Type> target = convertElementType(to);
  if (!target)
    return nodeError(node, llvm::toString(target.takeError()));
  Type from = typeOf(*x).getElementType();
  if (from == *target) {
    define(node, 0, *x);
    return llvm::Error::success();
  }
  llvm::Expected<Value> r = elementwise(node, {*x}, *target, [&](ImplicitLocOpBuilder &ib, ValueRange v) -> Value {
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
  define(node, 0, *r);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

llvm::Error Importer::declareInputs(SmallVectorImpl<Type> &argTypes,
                                    SmallVectorImpl<std::string> &argNames) {
  const onnx::GraphProto &g = model.graph();
  std::set<std::string> initializerNames;
  for (const onnx::TensorProto &t : g.initializer())
    initializerNames.insert(t.name());
  for (const onnx::ValueInfoProto &vi : g.input()) {
    if (initializerNames.count(vi.name()))
      continue; // older exporters list initializers as inputs too
    if (!vi.type().has_tensor_type())
      return makeError(source + ": graph input '" + vi.name() + "' is not a tensor");
    const onnx::TypeProto::Tensor &tt = vi.type().tensor_type();
    llvm::Expected<Type> elem = convertElementType(tt.elem_type());
    if (!elem)
      return makeError(source + ": graph input '" + vi.name() + "': " +
                       llvm::toString(elem.takeError()));
    SmallVector<int64_t> shape;
    if (!tt.has_shape())
      return makeError(source + ": graph input '" + vi.name() +
                       "' has no shape; only static shapes are supported");
    for (const onnx::TensorShapeProto::Dimension &d : tt.shape().dim()) {
      if (!d.has_dim_value() || d.dim_value() < 0)
        return makeError(source + ": graph input '" + vi.name() + "' has a dynamic dimension" +
                         (d.has_dim_param() ? " '" + d.dim_param() + "'" : std::string()) +
                         "; only static shapes are supported (export with fixed sizes)");
      shape.push_back(d.dim_value());
    }
    if (int64_t n = getElementCount(shape); n > kMaxElements)
      return makeError(source + ": graph input '" + vi.name() + "' has " +
                       describeTooManyElements(n));
    argTypes.push_back(RankedTensorType::get(shape, *elem));
    argNames.push_back(vi.name());
  }
  for (const onnx::TensorProto &t : g.initializer()) {
    llvm::Expected<KnownTensor> k = readTensor(t);
    if (!k)
      return makeError(source + ": initializer: " + llvm::toString(k.takeError()));
    if (options.weightsAsArguments && k->isFloat && k->size() > 16) {
      argTypes.push_back(RankedTensorType::get(k->shape, b.getF32Type()));
      argNames.push_back(t.name());
      continue;
    }
    knownValues[t.name()] = std::move(*k);
  }
  return llvm::Error::success();
}

llvm::Expected<OwningOpRef<ModuleOp>> Importer::run() {
  weightRng.seed(options.randomWeightSeed);
  for (const onnx::OperatorSetIdProto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
  if (opset == 0)
    return makeError(source + ": the model imports no default-domain opset");
  if (opset < 11 || opset > 18)
    return makeError(source + ": opset " + std::to_string(opset) +
                     " is not supported (13-17 are; 11, 12 and 18 are accepted)");
  const onnx::GraphProto &g = model.graph();
  for (const onnx::NodeProto &n : g.node())
    for (const std::string &in : n.input())
      ++uses[in];
  for (const onnx::ValueInfoProto &o : g.output())
    ++uses[o.name()];

  OwningOpRef<ModuleOp> module = ModuleOp::create(FileLineColLoc::get(&ctx, source, 0, 0));
  b.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  if (llvm::Error e = declareInputs(argTypes, argNames))
    return std::move(e);
  auto func = func::FuncOp::create(b, options.functionName,
                                   b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (size_t k = 0; k < argNames.size(); ++k) {
    values[argNames[k]] = entry->getArgument(k);
    func.setArgAttr(k, "onnx.name", b.getStringAttr(argNames[k]));
  }
  b.setInsertionPointToEnd(entry);

  // Per op: its handler, the inputs the ONNX spec requires (handlers read
  // them unchecked), whether it computes in floating point only (an integer
  // input would build IR that does not verify: LayerNormalization on int64,
  // found by the onnx_import fuzzer) and whether it takes tensors without
  // elements (linalg ops over a zero-size loop do not verify: a Softmax of a
  // Slice with no element, found by the fuzzer; only ops that move no data
  // take them).
  struct OpInfo {
    Handler handler;
    int requiredInputs = 1;
    bool floatOnly = false;
    bool takesEmpty = false;
  };
  static const std::map<std::string, OpInfo> ops = {
      {"Conv", {&Importer::importConv, 2, true, false}},
      {"BatchNormalization", {&Importer::importBatchNorm, 5, true, false}},
      {"Gemm", {&Importer::importGemm, 2, true, false}},
      {"MatMul", {&Importer::importMatMul, 2, true, false}},
      {"Add", {&Importer::importBinary, 2, false, false}},
      {"Sub", {&Importer::importBinary, 2, false, false}},
      {"Mul", {&Importer::importBinary, 2, false, false}},
      {"Div", {&Importer::importBinary, 2, false, false}},
      {"Pow", {&Importer::importBinary, 2, false, false}},
      {"Relu", {&Importer::importUnary, 1, false, false}},
      {"LeakyRelu", {&Importer::importUnary, 1, false, false}},
      {"Sigmoid", {&Importer::importUnary, 1, false, false}},
      {"HardSigmoid", {&Importer::importUnary, 1, false, false}},
      {"HardSwish", {&Importer::importUnary, 1, false, false}},
      {"Tanh", {&Importer::importUnary, 1, false, false}},
      {"Erf", {&Importer::importUnary, 1, false, false}},
      {"Sqrt", {&Importer::importUnary, 1, false, false}},
      {"Exp", {&Importer::importUnary, 1, false, false}},
      {"Log", {&Importer::importUnary, 1, false, false}},
      {"Neg", {&Importer::importUnary, 1, false, false}},
      {"Abs", {&Importer::importUnary, 1, false, false}},
      {"Reciprocal", {&Importer::importUnary, 1, false, false}},
      {"Clip", {&Importer::importClip, 1, true, false}},
      {"MaxPool", {&Importer::importPool, 1, true, false}},
      {"AveragePool", {&Importer::importPool, 1, true, false}},
      {"GlobalAveragePool", {&Importer::importGlobalAveragePool, 1, true, false}},
      {"ReduceMean", {&Importer::importReduceMean, 1, true, false}},
      {"Softmax", {&Importer::importSoftmax, 1, true, false}},
      {"LayerNormalization", {&Importer::importLayerNorm, 1, true, false}},
      {"Flatten", {&Importer::importFlatten, 1, false, false}},
      {"Reshape", {&Importer::importReshape, 2, false, false}},
      {"Transpose", {&Importer::importTranspose, 1, false, false}},
      {"Concat", {&Importer::importConcat, 1, false, true}},
      {"Slice", {&Importer::importSlice, 3, false, false}},
      {"Split", {&Importer::importSplit, 1, false, false}},
      {"Gather", {&Importer::importGather, 2, false, false}},
      {"Squeeze", {&Importer::importSqueezeUnsqueeze, 1, false, false}},
      {"Unsqueeze", {&Importer::importSqueezeUnsqueeze, 1, false, false}},
      {"Identity", {&Importer::importIdentity, 1, false, true}},
      {"Dropout", {&Importer::importIdentity, 1, false, true}},
      {"Constant", {&Importer::importConstant, 0, false, false}},
      {"Shape", {&Importer::importShape, 1, false, true}},
      {"Cast", {&Importer::importCast, 1, false, false}},
  };
  // SSA: one writer per tensor. A second node writing a name (or a node
  // writing a graph input or initializer) would silently redefine it.
  {
    llvm::StringMap<std::string> writers;
    for (const onnx::TensorProto &t : g.initializer())
      writers.try_emplace(t.name(), "an initializer");
    for (const onnx::ValueInfoProto &in : g.input())
      writers.try_emplace(in.name(), "a graph input");
    for (int k = 0; k < g.node_size(); ++k) {
      const onnx::NodeProto &n = g.node(k);
      std::string name = n.name().empty() ? n.op_type() + "#" + std::to_string(k) : n.name();
      for (const std::string &out : n.output()) {
        if (out.empty())
          continue;
        auto [it, fresh] = writers.try_emplace(out, "node '" + name + "'");
        if (!fresh)
          return makeError(source + ": tensor '" + out + "' is written by " + it->second +
                           " and by node '" + name + "' (ONNX graphs are in SSA form)");
      }
    }
  }
  for (nodeIndex = 0; nodeIndex < size_t(g.node_size()); ++nodeIndex) {
    if (folded.count(nodeIndex))
      continue;
    const onnx::NodeProto &node = g.node(nodeIndex);
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      return nodeError(node, "operators of domain '" + node.domain() + "' are not supported");
    auto it = ops.find(node.op_type());
    if (it == ops.end())
      return nodeError(node, "op type '" + node.op_type() + "' is not supported");
    const OpInfo &op = it->second;
    if (node.input_size() < op.requiredInputs)
      return nodeError(node, llvm::formatv("has {0} input(s), needs at least {1}",
                                           node.input_size(), op.requiredInputs)
                                 .str());
    if (node.output_size() == 0)
      return nodeError(node, "the node has no outputs");
    if (!op.takesEmpty)
      for (const std::string &in : node.input())
        if (ShapedType t = getRuntimeType(in); t && getElementCount(t.getShape()) == 0)
          return nodeError(node, "input '" + in + "' has no elements, which only Concat, "
                                 "Shape and Identity take");
    if (op.floatOnly)
      for (const std::string &in : node.input()) {
        const KnownTensor *k = known(in);
        ShapedType t = getRuntimeType(in);
        if ((k && !k->isFloat) || (t && !isa<FloatType>(t.getElementType())))
          return nodeError(node, "input '" + in +
                                     "' is not floating-point; only floating-point inputs "
                                     "are supported");
      }
    b.setLoc(NameLoc::get(b.getStringAttr(nodeName(node)),
                          FileLineColLoc::get(&ctx, source, nodeIndex + 1, 0)));
    if (llvm::Error e = (this->*op.handler)(node)) {
      // Errors from helpers do not know the node; say which it was.
      std::string msg = llvm::toString(std::move(e));
      if (!StringRef(msg).starts_with(source + ": "))
        return nodeError(node, msg);
      return makeError(msg);
    }
  }
  b.setLoc(func.getLoc());
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &o : g.output()) {
    llvm::Expected<Value> v = get(o.name());
    if (!v)
      return makeError(source + ": graph output '" + o.name() + "': " +
                       llvm::toString(v.takeError()));
    // A declared static shape must be the computed one: a model that says
    // otherwise is wrong somewhere, and its users would read the wrong
    // layout. Symbolic or missing dimensions are not checked.
    if (o.type().has_tensor_type() && o.type().tensor_type().has_shape()) {
      const onnx::TensorShapeProto &declared = o.type().tensor_type().shape();
      ArrayRef<int64_t> computed = typeOf(*v).getShape();
      bool allStatic = llvm::all_of(declared.dim(), [](const onnx::TensorShapeProto::Dimension &d) {
        return d.has_dim_value();
      });
      auto text = [](auto dims) {
        std::string t;
        for (int64_t d : dims)
          t += (t.empty() ? "" : "x") + std::to_string(d);
        return t.empty() ? std::string("a scalar") : t;
      };
      std::vector<int64_t> declaredDims;
      for (const onnx::TensorShapeProto::Dimension &d : declared.dim())
        declaredDims.push_back(d.dim_value());
      if (allStatic && declaredDims != std::vector<int64_t>(computed.begin(), computed.end()))
        return makeError(source + ": graph output '" + o.name() + "' is declared " +
                         text(declaredDims) + " but the graph computes " + text(computed));
    }
    results.push_back(*v);
  }
  if (results.empty())
    return makeError(source + ": the graph has no outputs");
  func::ReturnOp::create(b, results);
  func.setType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (int k = 0; k < g.output_size(); ++k)
    func.setResultAttr(k, "onnx.name", b.getStringAttr(g.output(k).name()));
  if (failed(verify(*module)))
    return makeError(source + ": the imported module does not verify (an importer bug)");
  return module;
}

} // namespace

void mlir::dltune::loadOnnxImportDialects(MLIRContext &context) {
  context.loadDialect<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                      math::MathDialect, tensor::TensorDialect>();
}

llvm::Expected<OwningOpRef<ModuleOp>>
mlir::dltune::importOnnxModel(llvm::StringRef bytes, llvm::StringRef sourceName,
                              MLIRContext &context, const OnnxImportOptions &options) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  onnx::ModelProto model;
  if (bytes.size() > size_t(INT32_MAX) || !model.ParseFromArray(bytes.data(), int(bytes.size())))
    return makeError(sourceName + ": not an ONNX model (the protobuf does not parse)");
  if (!model.has_graph())
    return makeError(sourceName + ": the model has no graph");
  loadOnnxImportDialects(context);
  Importer importer(context, model, sourceName, options);
  return importer.run();
}
