//===- ImportContext.h - State the ONNX op handlers share --------*- C++ -*-===//
//
// Private to lib/Import. The importer walks the graph in node order and
// hands each node to the handler its op table names (OpTable.h); every
// handler reads and defines values through one ImportContext: the value map
// (SSA values of @main and tensors known at import time), the NHWC layout
// bookkeeping, the builder, diagnostics and the IR building blocks several
// op families use. Attribute readers and small tensor utilities need no
// state and are free functions here.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_IMPORT_IMPORTCONTEXT_H
#define DLTUNE_LIB_IMPORT_IMPORTCONTEXT_H

#include "dltune/Import/OnnxImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include "llvm/Support/Error.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace mlir::dltune::onnx_import {

/// Most elements of one tensor the importer takes (8 GiB of f32): counts
/// above it, overflowing ones included, are refused with a diagnostic.
inline constexpr int64_t kMaxElements = int64_t(1) << 31;

/// The product of non-negative dimensions; INT64_MAX when it overflows, so
/// that a check against kMaxElements refuses it.
int64_t getElementCount(llvm::ArrayRef<int64_t> shape);

/// "N elements (at most M)" for a count refused against kMaxElements.
std::string describeTooManyElements(int64_t n);

/// A tensor whose contents are known at import time. Floating-point data
/// is kept as double, integers as int64 (ONNX shape math is int64), BOOL
/// as 0/1 in `i` with `isBool` (an i1 constant where a run-time op reads it).
struct KnownTensor {
  std::vector<int64_t> shape;
  bool isFloat = true;
  bool isBool = false;
  std::vector<double> f;
  std::vector<int64_t> i;

  int64_t size() const { return getElementCount(shape); }
  double at(int64_t k) const { return isFloat ? f[k] : double(i[k]); }
  int64_t intAt(int64_t k) const { return isFloat ? int64_t(f[k]) : i[k]; }
};

/// `t` with its dimensions permuted (result dim d is t's dim perm[d]).
KnownTensor permutedKnown(const KnownTensor &t, ArrayRef<int64_t> perm);

llvm::Error makeError(const llvm::Twine &msg);

/// "2x3x4", or "scalar" for rank 0.
std::string shapeString(ArrayRef<int64_t> shape);

/// Numpy broadcasting of two shapes; nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b);

/// The flat index in a tensor of shape `in` of element `k` (flat, row-major)
/// of the broadcast shape `out` that `in` broadcasts to.
int64_t broadcastIndex(ArrayRef<int64_t> out, ArrayRef<int64_t> in, int64_t k);

/// A value that ops like Reshape and Slice take either way: known at import
/// time (`known`, folded) or at run time (`value`); `shape` for both.
struct Operand {
  const KnownTensor *known = nullptr;
  Value value;
  std::vector<int64_t> shape;
};

inline RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

inline bool hasInput(const onnx::NodeProto &node, int k) {
  return node.input_size() > k && !node.input(k).empty();
}

// Attributes: the named attribute of a node, or the default without one.
const onnx::AttributeProto *attr(const onnx::NodeProto &n, StringRef name);
int64_t intAttr(const onnx::NodeProto &n, StringRef name, int64_t dflt);
float floatAttr(const onnx::NodeProto &n, StringRef name, float dflt);
std::vector<int64_t> intsAttr(const onnx::NodeProto &n, StringRef name,
                              std::vector<int64_t> dflt = {});
std::string stringAttr(const onnx::NodeProto &n, StringRef name, std::string dflt);

/// The sum combiner of ImportContext::reduce().
Value addF(ImplicitLocOpBuilder &ib, Value v, Value acc);

/// The importer's state while it walks one graph, and the building blocks
/// the op handlers share.
class ImportContext {
public:
  ImportContext(MLIRContext &ctx, const onnx::ModelProto &model, StringRef source,
                const OnnxImportOptions &options)
      : ctx(ctx), model(model), source(source.str()), options(options),
        b(UnknownLoc::get(&ctx), &ctx) {}

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
  llvm::Expected<Operand> operand(const std::string &name);
  Value materialize(const KnownTensor &t, Type elementType);
  void define(const onnx::NodeProto &node, int output, Value v) {
    values[node.output(output)] = v;
  }

  // Reading the model.
  llvm::Expected<KnownTensor> readTensor(const onnx::TensorProto &t);
  llvm::Expected<Type> convertElementType(int onnxType);

  // Diagnostics.
  llvm::Error nodeError(const onnx::NodeProto &node, const llvm::Twine &msg) const {
    return makeError(source + ": node '" + nodeName(node) + "' (" + node.op_type() +
                     "): " + msg);
  }
  /// A window's kernel, strides and dilations are positive and its pads not
  /// negative, each at most 2^20: the output-size arithmetic then neither
  /// divides by zero nor overflows (both found by the onnx_import fuzzer).
  llvm::Error checkWindow(const onnx::NodeProto &node, llvm::ArrayRef<int64_t> kernel,
                          llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> dilations,
                          llvm::ArrayRef<int64_t> pads) const;
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
  Value extractSlice(Value input, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                     ArrayRef<int64_t> strides);
  Value filled(ArrayRef<int64_t> shape, Type elementType, double value);
  Value constantScalar(Type t, double v) {
    if (isa<FloatType>(t))
      return arith::ConstantOp::create(b, b.getFloatAttr(t, v));
    return arith::ConstantOp::create(b, b.getIntegerAttr(t, int64_t(v)));
  }
  /// A linalg.generic over the broadcast shape of `inputs` and `shape`
  /// (numpy rules; Expand gives a `shape`); `body` gets the scalars and
  /// returns the result element.
  llvm::Expected<Value>
  elementwise(const onnx::NodeProto &node, ArrayRef<Value> inputs, Type resultElement,
              std::function<Value(ImplicitLocOpBuilder &, ValueRange)> body,
              ArrayRef<int64_t> shape = {});
  llvm::Expected<Value> unary(const onnx::NodeProto &node,
                              std::function<Value(ImplicitLocOpBuilder &, Value)> fn);
  /// Reduces `input` over `axes` with `combine`, starting from `init`;
  /// keepDims keeps the reduced axes as size 1.
  Value reduce(Value input, ArrayRef<int64_t> axes, bool keepDims, double init,
               std::function<Value(ImplicitLocOpBuilder &, Value, Value)> combine);
  /// The mean over `axes`: a sum, then one division by the count.
  llvm::Expected<Value> mean(const onnx::NodeProto &node, Value input, ArrayRef<int64_t> axes,
                             bool keepDims);
  Value padded(Value input, ArrayRef<int64_t> low, ArrayRef<int64_t> high, double value);
  Value reshaped(Value input, ArrayRef<int64_t> shape);
  Value transposed(Value input, ArrayRef<int64_t> perm);
  /// `input` permuted by `perm`: a reshape when only unit dims move.
  Value permuted(Value input, ArrayRef<int64_t> perm);
  /// A convolution or pooling op `Op` of `input` and `second` (weights or
  /// window) accumulating into `acc`.
  template <typename Op>
  Value windowed(Value input, Value second, Value acc, ArrayRef<int64_t> strides,
                 ArrayRef<int64_t> dilations) {
    return Op::create(b, TypeRange{acc.getType()}, ValueRange{input, second}, ValueRange{acc},
                      b.getI64TensorAttr(strides), b.getI64TensorAttr(dilations))
        .getResult(0);
  }
  llvm::Expected<std::vector<int64_t>> normalizeAxes(const onnx::NodeProto &node,
                                                     std::vector<int64_t> axes, int64_t rank);
  /// normalizeAxes, refusing axes that name one dimension twice.
  llvm::Expected<std::vector<int64_t>> normalizeDistinctAxes(const onnx::NodeProto &node,
                                                             const std::vector<int64_t> &axes,
                                                             int64_t rank);

  // Layouts (options.channelsLast).
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
  void defineChannelsLast(const std::string &name, Value v) {
    values[name] = v;
    channelsLast.insert(name);
  }
  /// Whether a node reading `name` works in NHWC: conv/pool always (with
  /// the option), elementwise ops when their input already is.
  bool wantsChannelsLast(const std::string &name) const {
    return options.channelsLast && isChannelsLast(name);
  }

  MLIRContext &ctx;
  const onnx::ModelProto &model;
  std::string source;
  OnnxImportOptions options;
  ImplicitLocOpBuilder b;
  int64_t opset = 0;
  /// The node being imported (its position in the graph).
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

} // namespace mlir::dltune::onnx_import

#endif // DLTUNE_LIB_IMPORT_IMPORTCONTEXT_H
