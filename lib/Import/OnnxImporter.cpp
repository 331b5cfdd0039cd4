//===- OnnxImporter.cpp - ONNX models to linalg on tensors ----------------===//
//
// The model and the graph: opset, inputs and initializers, one pass over
// the nodes in order (ONNX requires topological order) that hands each node
// to its op table entry (OpTable.h; the handlers live in one file per op
// family), then the outputs and the checks on the whole function.
//
//===----------------------------------------------------------------------===//

#include "dltune/Import/OnnxImporter.h"

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <onnx/onnx_pb.h>

#include <set>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

llvm::Error declareInputs(ImportContext &im, SmallVectorImpl<Type> &argTypes,
                          SmallVectorImpl<std::string> &argNames) {
  const onnx::GraphProto &g = im.model.graph();
  std::set<std::string> initializerNames;
  for (const onnx::TensorProto &t : g.initializer())
    initializerNames.insert(t.name());
  for (const onnx::ValueInfoProto &vi : g.input()) {
    if (initializerNames.count(vi.name()))
      continue; // older exporters list initializers as inputs too
    if (!vi.type().has_tensor_type())
      return makeError(im.source + ": graph input '" + vi.name() + "' is not a tensor");
    const onnx::TypeProto::Tensor &tt = vi.type().tensor_type();
    llvm::Expected<Type> elem = im.convertElementType(tt.elem_type());
    if (!elem)
      return makeError(im.source + ": graph input '" + vi.name() +
                       "': " + llvm::toString(elem.takeError()));
    SmallVector<int64_t> shape;
    if (!tt.has_shape())
      return makeError(im.source + ": graph input '" + vi.name() +
                       "' has no shape; only static shapes are supported");
    for (const onnx::TensorShapeProto::Dimension &d : tt.shape().dim()) {
      if (!d.has_dim_value() || d.dim_value() < 0)
        return makeError(im.source + ": graph input '" + vi.name() + "' has a dynamic dimension" +
                         (d.has_dim_param() ? " '" + d.dim_param() + "'" : std::string()) +
                         "; only static shapes are supported (export with fixed sizes)");
      shape.push_back(d.dim_value());
    }
    if (int64_t n = getElementCount(shape); n > kMaxElements)
      return makeError(im.source + ": graph input '" + vi.name() + "' has " +
                       describeTooManyElements(n));
    argTypes.push_back(RankedTensorType::get(shape, *elem));
    argNames.push_back(vi.name());
  }
  for (const onnx::TensorProto &t : g.initializer()) {
    llvm::Expected<KnownTensor> k = im.readTensor(t);
    if (!k)
      return makeError(im.source + ": initializer: " + llvm::toString(k.takeError()));
    if (im.options.weightsAsArguments && k->isFloat && k->size() > 16) {
      argTypes.push_back(RankedTensorType::get(k->shape, im.b.getF32Type()));
      argNames.push_back(t.name());
      continue;
    }
    im.knownValues[t.name()] = std::move(*k);
  }
  return llvm::Error::success();
}

llvm::Expected<OwningOpRef<ModuleOp>> importGraph(ImportContext &im) {
  im.weightRng.seed(im.options.randomWeightSeed);
  for (const onnx::OperatorSetIdProto &o : im.model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      im.opset = o.version();
  if (im.opset == 0)
    return makeError(im.source + ": the model imports no default-domain opset");
  if (im.opset < 11 || im.opset > 20)
    return makeError(im.source + ": opset " + std::to_string(im.opset) +
                     " is not supported (11-20 are)");
  const onnx::GraphProto &g = im.model.graph();
  for (const onnx::NodeProto &n : g.node())
    for (const std::string &in : n.input())
      ++im.uses[in];
  for (const onnx::ValueInfoProto &o : g.output())
    ++im.uses[o.name()];

  OwningOpRef<ModuleOp> module = ModuleOp::create(FileLineColLoc::get(&im.ctx, im.source, 0, 0));
  im.b.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  if (llvm::Error e = declareInputs(im, argTypes, argNames))
    return std::move(e);
  auto func =
      func::FuncOp::create(im.b, im.options.functionName, im.b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (size_t k = 0; k < argNames.size(); ++k) {
    im.values[argNames[k]] = entry->getArgument(k);
    func.setArgAttr(k, "onnx.name", im.b.getStringAttr(argNames[k]));
  }
  im.b.setInsertionPointToEnd(entry);

  const OpTable &ops = getOpTable();
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
          return makeError(im.source + ": tensor '" + out + "' is written by " + it->second +
                           " and by node '" + name + "' (ONNX graphs are in SSA form)");
      }
    }
  }
  for (im.nodeIndex = 0; im.nodeIndex < size_t(g.node_size()); ++im.nodeIndex) {
    if (im.folded.count(im.nodeIndex))
      continue;
    const onnx::NodeProto &node = g.node(im.nodeIndex);
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      return im.nodeError(node, "operators of domain '" + node.domain() + "' are not supported");
    const OpInfo *op = ops.lookup(node.op_type());
    if (!op)
      return im.nodeError(node, "op type '" + node.op_type() + "' is not supported");
    if (node.input_size() < op->requiredInputs)
      return im.nodeError(node, llvm::formatv("has {0} input(s), needs at least {1}",
                                              node.input_size(), op->requiredInputs)
                                    .str());
    if (node.output_size() == 0)
      return im.nodeError(node, "the node has no outputs");
    if (!op->takesEmpty)
      for (const std::string &in : node.input())
        if (ShapedType t = im.getRuntimeType(in); t && getElementCount(t.getShape()) == 0)
          return im.nodeError(node, "input '" + in +
                                        "' has no elements, which only Concat, "
                                        "Shape and Identity take");
    if (op->floatOnly)
      for (const std::string &in : node.input()) {
        const KnownTensor *k = im.known(in);
        ShapedType t = im.getRuntimeType(in);
        if ((k && !k->isFloat) || (t && !isa<FloatType>(t.getElementType())))
          return im.nodeError(node, "input '" + in +
                                        "' is not floating-point; only floating-point inputs "
                                        "are supported");
      }
    im.b.setLoc(NameLoc::get(im.b.getStringAttr(im.nodeName(node)),
                             FileLineColLoc::get(&im.ctx, im.source, im.nodeIndex + 1, 0)));
    if (llvm::Error e = op->handler(im, node)) {
      // Errors from helpers do not know the node; say which it was.
      std::string msg = llvm::toString(std::move(e));
      if (!StringRef(msg).starts_with(im.source + ": "))
        return im.nodeError(node, msg);
      return makeError(msg);
    }
  }
  im.b.setLoc(func.getLoc());
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &o : g.output()) {
    llvm::Expected<Value> v = im.get(o.name());
    if (!v)
      return makeError(im.source + ": graph output '" + o.name() +
                       "': " + llvm::toString(v.takeError()));
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
        return makeError(im.source + ": graph output '" + o.name() + "' is declared " +
                         text(declaredDims) + " but the graph computes " + text(computed));
    }
    results.push_back(*v);
  }
  if (results.empty())
    return makeError(im.source + ": the graph has no outputs");
  func::ReturnOp::create(im.b, results);
  func.setType(im.b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (int k = 0; k < g.output_size(); ++k)
    func.setResultAttr(k, "onnx.name", im.b.getStringAttr(g.output(k).name()));
  if (failed(verify(*module)))
    return makeError(im.source + ": the imported module does not verify (an importer bug)");
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
  ImportContext im(context, model, sourceName, options);
  return importGraph(im);
}
