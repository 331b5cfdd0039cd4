//===- TaskFeatures.cpp - Cost-model features of tasks and their history --===//

#include "dltune/Execution/TaskFeatures.h"
#include "dltune/Execution/CpuKernel.h"
#include "dltune/Transforms/SchedulePlan.h"
#include "dltune/Transforms/TuningTasks.h"
#include "dltune/Tuning/FeatureExtractor/GpuResourceFeatures.h"
#include "dltune/Tuning/Support/Error.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::dltune;

std::shared_ptr<const FeatureExtractor>
mlir::dltune::makeTaskFeatures(linalg::LinalgOp op, const SearchSpace &space,
                               const std::string &target, const DeviceInfo &device,
                               double flops) {
  if (!op)
    return createKnobFeatureExtractor(space);
  int64_t threads = 1;
  for (const Knob &k : space.getKnobs())
    if (k.name == "threads")
      threads = k.values.back();
  std::string why;
  FailureOr<SchedulePlan> plan = buildSchedulePlan(
      op, target == "gpu" ? ScheduleTarget::GPU : ScheduleTarget::CPU, threads, why,
      GpuPlanTarget::fromSpace(space));
  if (failed(plan))
    return createKnobFeatureExtractor(space);
  double bytes = 0;
  for (Type t : op->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(t); shaped && shaped.hasStaticShape())
      bytes += shaped.getNumElements() * std::max<int64_t>(1, shaped.getElementTypeBitWidth() / 8);
  ScheduleShape shape = getScheduleShape(*plan, flops, bytes);
  if (device.l1dBytes)
    shape.l1Bytes = device.l1dBytes;
  if (device.l2Bytes)
    shape.l2Bytes = device.l2Bytes;
  if (device.l3Bytes)
    shape.l3Bytes = device.l3Bytes;
  shape.cores = std::max(1, device.cores);
  std::vector<double> features = device.getFeatures();
  shape.simdLanes = features[8];
  shape.deviceFeatureNames = DeviceInfo::getFeatureNames();
  shape.deviceFeatures = features;
  return createScheduleFeatureExtractor(space, std::move(shape));
}

namespace {
/// "2x3" -> {2, 3}; "" -> {} (a scalar operand).
llvm::Expected<SmallVector<int64_t>> parseDims(StringRef text, StringRef what) {
  SmallVector<int64_t> dims;
  if (text.empty())
    return dims;
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t v = 0;
    if (p.getAsInteger(10, v) || v <= 0)
      return makeError("bad " + what + " '" + text + "'");
    dims.push_back(v);
  }
  return dims;
}

/// The op's attributes that its description names after its op name
/// ("stride 2x2", "dilation 1x2"); "+ ..." (a fused epilogue) ends them.
llvm::Expected<SmallVector<NamedAttribute>> parseOpAttributes(StringRef opKind,
                                                              Builder &b) {
  SmallVector<StringRef> words;
  opKind.split(words, ' ', -1, /*KeepEmpty=*/false);
  SmallVector<NamedAttribute> attrs;
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "+")
      break;
    if ((words[i] == "stride" || words[i] == "dilation") && i + 1 < words.size()) {
      llvm::Expected<SmallVector<int64_t>> v = parseDims(words[i + 1], words[i]);
      if (!v)
        return v.takeError();
      if (v->size() != 2) // every op rebuilt here is two-dimensional
        return makeError("bad " + words[i] + " '" + words[i + 1] + "'");
      auto type = RankedTensorType::get({int64_t(v->size())}, b.getI64Type());
      attrs.push_back(b.getNamedAttr(words[i] == "stride" ? "strides" : "dilations",
                                     DenseIntElementsAttr::get(type, ArrayRef<int64_t>(*v))));
      ++i;
      continue;
    }
    return makeError("the description's '" + words[i] +
                     "' (user-defined indexing maps or an unknown attribute) is not rebuilt");
  }
  return attrs;
}

template <typename OpT>
Operation *createNamed(OpBuilder &b, Location loc, ValueRange args,
                       ArrayRef<NamedAttribute> attrs) {
  return OpT::create(b, loc, TypeRange{args.back().getType()}, args.drop_back(),
                     ValueRange{args.back()}, attrs)
      .getOperation();
}

/// An op rebuildTaskOp knows: how to build it, and the ranks of its two
/// inputs and one output (checked before building: a named op's region
/// builder trusts them).
struct RebuildableOp {
  StringRef name;
  Operation *(*create)(OpBuilder &, Location, ValueRange, ArrayRef<NamedAttribute>);
  size_t ranks[3];
};

const RebuildableOp kRebuildableOps[] = {
    {"linalg.matmul", createNamed<linalg::MatmulOp>, {2, 2, 2}},
    {"linalg.batch_matmul", createNamed<linalg::BatchMatmulOp>, {3, 3, 3}},
    {"linalg.conv_2d_nhwc_hwcf", createNamed<linalg::Conv2DNhwcHwcfOp>, {4, 4, 4}},
    {"linalg.conv_2d_nchw_fchw", createNamed<linalg::Conv2DNchwFchwOp>, {4, 4, 4}},
    {"linalg.depthwise_conv_2d_nhwc_hwc", createNamed<linalg::DepthwiseConv2DNhwcHwcOp>,
     {4, 3, 4}},
    {"linalg.pooling_nhwc_sum", createNamed<linalg::PoolingNhwcSumOp>, {4, 2, 4}},
    {"linalg.pooling_nhwc_max", createNamed<linalg::PoolingNhwcMaxOp>, {4, 2, 4}},
    {"linalg.pooling_nhwc_min", createNamed<linalg::PoolingNhwcMinOp>, {4, 2, 4}},
};
} // namespace

llvm::Expected<OwningOpRef<ModuleOp>> mlir::dltune::rebuildTaskOp(MLIRContext &context,
                                                                  const TaskRecord &task) {
  context.loadDialect<func::FuncDialect, linalg::LinalgDialect>();
  std::string name = getTaskOpName(task.opKind);
  const RebuildableOp *known =
      llvm::find_if(kRebuildableOps, [&](const RebuildableOp &op) { return op.name == name; });
  if (known == std::end(kRebuildableOps))
    return makeError("'" + name + "' is not an op that can be rebuilt from its record");
  OpBuilder b(&context);
  llvm::Expected<SmallVector<NamedAttribute>> attrs = parseOpAttributes(task.opKind, b);
  if (!attrs)
    return attrs.takeError();
  SmallVector<StringRef> shapes, types;
  StringRef(task.shapes).split(shapes, ';');
  StringRef(task.elementTypes).split(types, ';');
  ArrayRef<size_t> ranks = known->ranks;
  if (shapes.size() != types.size() || shapes.size() != ranks.size())
    return makeError("shapes '" + task.shapes + "' and element types '" + task.elementTypes +
                     "' do not describe the three operands of '" + name + "'");
  // Parse and verifier errors go to the context's handler: collected here so
  // that a bad record is an error, not a printout.
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostics += (diagnostics.empty() ? "" : "; ") + d.str();
    return success();
  });
  SmallVector<Type> argTypes;
  for (size_t i = 0; i < shapes.size(); ++i) {
    llvm::Expected<SmallVector<int64_t>> dims = parseDims(shapes[i], "shape");
    if (!dims)
      return dims.takeError();
    Type element = parseType(types[i], &context);
    // Integers and floats only: a named op's body builder has no case for
    // `index` or anything else.
    if (!element || !isa<IntegerType, FloatType>(element))
      return makeError("bad element type '" + types[i] + "'");
    if (dims->size() != ranks[i])
      return makeError("the record's shapes do not fit '" + name + "': operand " +
                       std::to_string(i) + " has rank " + std::to_string(dims->size()) +
                       ", expected " + std::to_string(ranks[i]));
    argTypes.push_back(RankedTensorType::get(*dims, element));
  }
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, loc, kTaskEntryName,
                                   b.getFunctionType(argTypes, {argTypes.back()}));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToEnd(body);
  Operation *op = known->create(b, loc, body->getArguments(), *attrs);
  func::ReturnOp::create(b, loc, op->getResults());
  if (failed(verify(*module)))
    return makeError("the record's shapes do not fit '" + name + "': " + diagnostics);
  return module;
}

llvm::Expected<std::shared_ptr<const FeatureExtractor>>
mlir::dltune::makeHistorySourceFeatures(MLIRContext &context, const TaskHistorySource &source,
                                        const SearchSpace &targetSpace,
                                        const FeatureExtractor &targetFeatures) {
  llvm::Expected<OwningOpRef<ModuleOp>> module = rebuildTaskOp(context, source.task);
  if (!module)
    return module.takeError();
  linalg::LinalgOp op;
  (*module)->walk([&](linalg::LinalgOp o) { op = o; });
  llvm::Expected<DeviceInfo> device = DeviceInfo::fromJson(source.device.json);
  if (!device)
    return device.takeError();
  // The extractor keeps the shape, not the op: the module may go.
  std::shared_ptr<const FeatureExtractor> features = makeTaskFeatures(
      op, targetSpace, source.task.target, *device, countFlops(**module, kTaskEntryName));
  if (source.task.target == "gpu") // ptxas's resources of these rows are not known
    features = createGpuResourceFeatureExtractor(features, std::make_shared<GpuResourceTable>());
  if (features->getNames() != targetFeatures.getNames())
    return makeError("its features are not the target's (" +
                     std::to_string(features->getNames().size()) + " columns against " +
                     std::to_string(targetFeatures.getNames().size()) + ")");
  return features;
}
