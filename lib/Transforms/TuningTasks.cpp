//===- TuningTasks.cpp - Grouping annotated ops into tuning tasks ---------===//

#include "dltune/Transforms/TuningTasks.h"
#include "GpuMemRefLayout.h"
#include "dltune/Transforms/GpuMatmulKernel.h"
#include "dltune/Transforms/GpuRowReduction.h"
#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/EpilogueFusion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace mlir::dltune;

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// Whether `v` is cloned into a kernel rather than passed in: scalar
/// constants and empty tensors (a fill's destination) say nothing about the
/// data and keep the kernel's signature to the real inputs. Tensor constants
/// (weights) are cloned too when `cloneTensorConstants` is set: the
/// lowering packs constant operands at compile time, so a kernel that takes
/// them as arguments would be timed with a per-call packing the model never
/// runs.
static bool isClonedIntoKernel(Value v, bool cloneTensorConstants) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() != 0)
    return false;
  return isa<tensor::EmptyOp>(def) ||
         (def->hasTrait<OpTrait::ConstantLike>() &&
          (cloneTensorConstants || !isa<ShapedType>(v.getType())));
}

/// The task's ops (the op, or its fusion group: fill, op, epilogue; on the
/// GPU a matmul's patch gather, and the pad it reads, go first) in
/// `func @dltune_task(inputs...) -> results of the last op`; values the
/// group reads from outside become arguments, except scalar constants,
/// empty tensors and, with `cloneTensorConstants`, tensor constants, which
/// are cloned in with the constants bodies capture. Other values bodies
/// capture (the gather's input) become arguments with
/// `capturesAsArguments`; without it they fail the extraction.
static FailureOr<OwningOpRef<ModuleOp>> extractKernel(ArrayRef<Operation *> group,
                                                      bool cloneTensorConstants,
                                                      bool capturesAsArguments = false) {
  Operation *first = group.front(), *last = group.back();
  MLIRContext *ctx = first->getContext();
  llvm::SmallPtrSet<Operation *, 4> inGroup(group.begin(), group.end());
  SetVector<Value> inputs, cloned;
  for (Operation *op : group)
    for (Value v : op->getOperands()) {
      if (v.getDefiningOp() && inGroup.contains(v.getDefiningOp()))
        continue;
      (isClonedIntoKernel(v, cloneTensorConstants) ? cloned : inputs).insert(v);
    }
  for (Operation *op : group) {
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value v : captured) {
      Operation *def = v.getDefiningOp();
      if (def && inGroup.contains(def))
        continue; // cloned with the group, before its user
      if (def && def->hasTrait<OpTrait::ConstantLike>())
        cloned.insert(v);
      else if (capturesAsArguments)
        inputs.insert(v);
      else
        return failure();
    }
  }
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b, first->getLoc());
  b.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argTypes;
  for (Value v : inputs)
    argTypes.push_back(v.getType());
  auto type = b.getFunctionType(argTypes, last->getResultTypes());
  auto func = func::FuncOp::create(b, first->getLoc(), kTaskEntryName, type);
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping map;
  for (auto [v, arg] : llvm::zip(inputs, body->getArguments()))
    map.map(v, arg);
  for (Value v : cloned)
    b.clone(*v.getDefiningOp(), map);
  Operation *lastClone = nullptr;
  for (Operation *op : group) {
    lastClone = b.clone(*op, map);
    lastClone->removeAttr(DLTuneDialect::kConfigAttrName);
  }
  func::ReturnOp::create(b, last->getLoc(), lastClone->getResults());
  // The TF32 opt-in of an enclosing op travels with the kernel (its space
  // depends on it).
  if (llvm::any_of(group, isTf32Allowed))
    (*module)->setAttr(DLTuneDialect::kAllowTf32AttrName, UnitAttr::get(ctx));
  return module;
}

/// The computation of a task kernel in generic form: named ops generalized
/// (so indexing maps, strides and dilations are explicit), every discardable
/// attribute dropped (dltune's space and config, user tags), printed in
/// MLIR's generic syntax. Equal computations print equally; the printed
/// body, maps, iterator types and captured constants all take part.
static std::string getCanonicalComputation(ModuleOp kernel) {
  OwningOpRef<ModuleOp> copy = kernel.clone();
  IRRewriter rewriter(kernel.getContext());
  SmallVector<linalg::LinalgOp> named;
  copy->walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp>(op))
      named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    // Ops that cannot be generalized keep their named form, which still
    // prints every attribute that defines them.
    (void)linalg::generalizeNamedOp(rewriter, op);
  }
  DictionaryAttr none = DictionaryAttr::get(kernel.getContext());
  copy->walk([&](Operation *op) { op->setDiscardableAttrs(none); });
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm().skipRegions(false);
  copy->print(os, flags);
  return text;
}

/// "maximumf", "addf+mulf": the arithmetic an op's body performs.
static std::string describeBody(linalg::LinalgOp op) {
  std::string ops;
  for (Operation &inner : op->getRegion(0).front().without_terminator()) {
    StringRef name = inner.getName().getStringRef();
    name.consume_front("arith.");
    name.consume_front("math.");
    ops += (ops.empty() ? "" : "+") + name.str();
  }
  return ops.empty() ? "copy" : ops;
}

static std::string joinShape(ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t j = 0; j < shape.size(); ++j)
    s += (j ? "x" : "") + std::to_string(shape[j]);
  return s;
}

/// What a person reads in tables: the op's name, and what makes it differ
/// from its default form (non-default maps, strides, dilations), or for
/// generic ops what they compute.
static std::string describeOp(linalg::LinalgOp op) {
  std::string name = op->getName().getStringRef().str();
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
    // The shapes follow in every report (the shapes column).
    std::string kind = op.getNumReductionLoops() == 0 ? "elementwise" : "reduction";
    return kind + " " + describeBody(op);
  }
  if (op.hasUserDefinedMaps()) {
    name += " maps";
    for (AffineMap map : op.getIndexingMapsArray()) {
      name += " (";
      for (unsigned i = 0; i < map.getNumResults(); ++i) {
        std::string r;
        llvm::raw_string_ostream os(r);
        map.getResult(i).print(os);
        name += (i ? "," : "") + r;
      }
      name += ")";
    }
  }
  for (StringRef attrName : {"strides", "dilations"}) {
    auto attr = op->getAttrOfType<DenseIntElementsAttr>(attrName);
    if (!attr || llvm::all_of(attr.getValues<int64_t>(), [](int64_t v) { return v == 1; }))
      continue;
    name += " " + attrName.drop_back().str() + " ";
    bool first = true;
    for (int64_t v : attr.getValues<int64_t>()) {
      name += (first ? "" : "x") + std::to_string(v);
      first = false;
    }
  }
  return name;
}

int64_t mlir::dltune::getExecutionsPerCall(Operation *op) {
  int64_t count = 1;
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>())
    if (std::optional<APInt> trips = loop.getStaticTripCount())
      count *= static_cast<int64_t>(trips->getZExtValue());
  return count;
}

/// The patch gather writing a GPU matmul's A (--dltune-conv-to-matmul: a
/// 2-d generic without inputs whose body extracts from the convolution's
/// input, used only by the matmul), or null. The GPU lowering computes it
/// in the matmul kernel's loads (an implicit GEMM, GpuGatheredOperand.h),
/// so the task measures the two together: with A an argument it would time
/// a kernel reading a patch buffer, which the model never runs.
static linalg::GenericOp getPatchGatherOfA(linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp>(op.getOperation()))
    return {};
  auto gather = op.getDpsInputs()[0].getDefiningOp<linalg::GenericOp>();
  if (!gather || gather.getNumDpsInputs() != 0 || gather.getNumLoops() != 2 ||
      gather.getNumReductionLoops() != 0 || !gather->hasOneUse() ||
      gather->getBlock() != op->getBlock())
    return {};
  WalkResult extracts =
      gather.getBody()->walk([](tensor::ExtractOp) { return WalkResult::interrupt(); });
  return extracts.wasInterrupted() ? gather : linalg::GenericOp();
}

/// Puts `op` (a producer of an operand of the group) before the group's
/// ops unless it is there already.
static void prependOnce(SmallVectorImpl<Operation *> &group, Operation *op) {
  if (op && !llvm::is_contained(group, op))
    group.insert(group.begin(), op);
}

/// The tensor.pad `v` is, when `user` alone reads it in `user`'s block.
static Operation *getPadReadOnlyBy(Value v, Operation *user) {
  auto pad = v.getDefiningOp<tensor::PadOp>();
  return pad && pad->hasOneUse() && pad->getBlock() == user->getBlock() ? pad.getOperation()
                                                                         : nullptr;
}

/// The transpose `user` alone reads as its operand `v`, through collapse or
/// expand reshapes only it reads, with those reshapes (transpose first);
/// empty when `v` is not such a transpose. --dltune-lower-gpu may read it
/// as a view of the transpose's input (GpuTransposeViews: the encoder's Q,
/// V and K^T), so the task must hold it to time the kernel the model runs.
static SmallVector<Operation *> getTransposeReadOnlyBy(Value v, Operation *user) {
  SmallVector<Operation *> chain;
  Operation *def = v.getDefiningOp();
  while (def && def->hasOneUse() && def->getBlock() == user->getBlock() &&
         isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
    chain.insert(chain.begin(), def);
    def = def->getOperand(0).getDefiningOp();
  }
  auto transpose = dyn_cast_or_null<linalg::TransposeOp>(def);
  if (!transpose || !transpose->hasOneUse() || transpose->getBlock() != user->getBlock())
    return {};
  // Only where the reader can see it as a view of the transpose's input:
  // the input's strides permuted, then reshaped as the chain does. Where
  // the reshapes cannot merge the permuted dimensions (the encoder's heads
  // put back into rows), the model's lowering writes the producer through
  // the inverse view instead and the reader gets contiguous rows, which
  // the task then has without the transpose.
  auto inputType = cast<RankedTensorType>(transpose.getInput().getType());
  if (!inputType.hasStaticShape())
    return {};
  SmallVector<int64_t> inputStrides = computeSuffixProduct(inputType.getShape());
  SmallVector<int64_t> shape, strides;
  for (int64_t from : transpose.getPermutation()) {
    shape.push_back(inputType.getDimSize(from));
    strides.push_back(inputStrides[from]);
  }
  MLIRContext *ctx = transpose.getContext();
  auto view = MemRefType::get(shape, inputType.getElementType(),
                              StridedLayoutAttr::get(ctx, 0, strides));
  for (Operation *reshape : chain) {
    FailureOr<MemRefType> reshaped = getReshapedType(reshape, view);
    if (failed(reshaped))
      return {};
    view = *reshaped;
  }
  chain.insert(chain.begin(), transpose);
  return chain;
}

/// The ops a GPU task of `op` measures: its fusion group and what the GPU
/// lowering computes in its kernel, so that candidates are timed as the
/// model runs them. A window kernel's (GpuWindowKernel.h) output fill is
/// its start value and its padded inputs are read in place
/// (GpuPadFolding.h); a matmul's C fill starts its accumulators (with C an
/// argument the kernel would load C first, which the model's kernel never
/// does), and its patch gather is computed in its loads (an implicit GEMM),
/// with the pad the gather reads (the fill also makes C a fresh buffer: the
/// kernel gathers only where C cannot share memory with the input). A row
/// kernel's task is its run (getGpuRowRun). Sets `capturesInputs` where a
/// body then reads a value from outside the group (the gather's input).
static SmallVector<Operation *> getGpuTaskGroup(linalg::LinalgOp op, const SearchSpace &space,
                                                bool &capturesInputs) {
  // A row kernel's run (softmax, a layer norm): all of it, as it runs.
  if (space.getKnobIndex("lanes"))
    return getGpuRowRun(op);
  SmallVector<Operation *> group = getFusionGroup(op);
  auto addFill = [&] {
    if (linalg::FillOp fill = getFusableFill(op); fill && !llvm::is_contained(group, fill))
      group.insert(llvm::find(group, op.getOperation()), fill);
  };
  if (space.getKnobIndex("block_threads")) {
    addFill();
    for (Value input : op.getDpsInputs())
      prependOnce(group, getPadReadOnlyBy(input, op));
    return group;
  }
  addFill();
  // A matmul's operands that are transposes: with them (the model may read
  // them as views; the kernel then differs from one of contiguous operands).
  for (Value input : op.getDpsInputs())
    for (Operation *viewed : llvm::reverse(getTransposeReadOnlyBy(input, op)))
      prependOnce(group, viewed);
  linalg::GenericOp gather = getPatchGatherOfA(op);
  if (!gather)
    return group;
  prependOnce(group, gather);
  gather.getBody()->walk([&](tensor::ExtractOp extract) {
    prependOnce(group, getPadReadOnlyBy(extract.getTensor(), op));
  });
  capturesInputs = true;
  return group;
}

std::vector<TuningTask> mlir::dltune::collectTuningTasks(ModuleOp module) {
  std::vector<TuningTask> tasks;
  std::map<uint64_t, size_t> byHash;
  module.walk([&](linalg::LinalgOp op) {
    auto spaceAttr = op->getAttrOfType<SpaceAttr>(DLTuneDialect::kSpaceAttrName);
    if (!spaceAttr || op->hasAttr(DLTuneDialect::kScheduleAttrName))
      return;
    llvm::Expected<SearchSpace> space = spaceAttr.getSearchSpace();
    if (!space) {
      op->emitRemark() << "dltune: not tuned: " << llvm::toString(space.takeError());
      return;
    }
    auto targetAttr = op->getAttrOfType<StringAttr>(DLTuneDialect::kTargetAttrName);
    TaskDescriptor desc;
    desc.target = targetAttr ? targetAttr.getValue().str() : "cpu";
    bool capturesInputs = false;
    SmallVector<Operation *> group = desc.target == "gpu"
                                         ? getGpuTaskGroup(op, *space, capturesInputs)
                                         : getFusionGroup(op);
    // The identity comes from the kernel with weights as arguments, so
    // layers that differ only in their weights share one task. A gather's
    // input (captured by its body) is an argument too.
    FailureOr<OwningOpRef<ModuleOp>> keyKernel =
        extractKernel(group, /*cloneTensorConstants=*/false, capturesInputs);
    if (failed(keyKernel)) {
      op->emitRemark() << "dltune: not tuned: the op captures a non-constant value";
      return;
    }
    desc.opKind = describeOp(op);
    if (capturesInputs) // the patch gather's
      desc.opKind += " gathering A";
    if (desc.target == "gpu" && llvm::any_of(group, [](Operation *o) {
          return isa<linalg::TransposeOp>(o);
        }))
      desc.opKind += " through transposes"; // read as views (getTransposeReadOnlyBy)
    if (linalg::GenericOp epilogue = getFusableEpilogue(op))
      desc.opKind += " + " + describeBody(epilogue);
    // A row kernel's later steps: "reduction maximumf + subf+exp, fill, addf".
    if (desc.target == "gpu" && space->getKnobIndex("lanes")) {
      std::string steps;
      for (Operation *later : llvm::make_range(llvm::find(group, op.getOperation()) + 1,
                                               group.end())) {
        auto step = dyn_cast<linalg::LinalgOp>(later);
        if (!step) // a view or a constant the steps read through
          continue;
        steps += (steps.empty() ? "" : ", ") +
                 (isa<linalg::FillOp>(later) ? std::string("fill") : describeBody(step));
      }
      if (!steps.empty())
        desc.opKind += " + " + steps;
    }
    for (Type t : op->getOperandTypes()) {
      auto shaped = dyn_cast<ShapedType>(t);
      desc.shapes.push_back(shaped ? std::vector<int64_t>(shaped.getShape().begin(),
                                                          shaped.getShape().end())
                                   : std::vector<int64_t>{});
      desc.elementTypes.push_back(typeString(shaped ? shaped.getElementType() : t));
    }
    // The identity is the computation and the target, never the space: its
    // ranges (threads up to the core count) differ between machines.
    desc.computation = getCanonicalComputation(**keyKernel);
    // TF32 changes what the kernel computes (and its space): a task of its
    // own.
    if (isTf32Allowed(op))
      desc.computation += "\n// allow_tf32";
    uint64_t hash = desc.getHash();
    auto it = byHash.find(hash);
    if (it != byHash.end()) {
      tasks[it->second].ops.push_back(op);
      tasks[it->second].executionsPerCall += getExecutionsPerCall(op);
      return;
    }
    TuningTask task;
    task.descriptor = desc;
    task.space = std::move(*space);
    // CPU kernels carry the first occurrence's weights (timing does not
    // depend on their values). GPU kernels keep them as arguments: the GPU
    // lowering has no compile-time packing and would have to copy them in.
    FailureOr<OwningOpRef<ModuleOp>> measured =
        desc.target == "cpu" ? extractKernel(group, /*cloneTensorConstants=*/true)
                             : std::move(keyKernel);
    assert(succeeded(measured) && "cloning more constants cannot fail");
    task.kernel = std::move(*measured);
    task.ops.push_back(op);
    task.executionsPerCall = getExecutionsPerCall(op);
    TaskRecord &rec = task.record;
    llvm::raw_string_ostream hs(rec.hash);
    hs << llvm::format_hex_no_prefix(hash, 16);
    rec.opKind = desc.opKind;
    rec.target = desc.target;
    for (size_t i = 0; i < desc.shapes.size(); ++i) {
      rec.shapes += (i ? ";" : "") + joinShape(desc.shapes[i]);
      rec.elementTypes += (i ? ";" : "") + desc.elementTypes[i];
    }
    rec.space = task.space.getCanonicalString();
    rec.source = "dltune";
    byHash[hash] = tasks.size();
    tasks.push_back(std::move(task));
  });
  return tasks;
}

llvm::Error mlir::dltune::setKernelConfig(ModuleOp kernel, StringRef configText) {
  linalg::LinalgOp target;
  kernel.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(DLTuneDialect::kSpaceAttrName))
      target = op;
  });
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the kernel has no op with a dltune.space");
  auto spaceAttr = target->getAttrOfType<SpaceAttr>(DLTuneDialect::kSpaceAttrName);
  llvm::Expected<SearchSpace> space = spaceAttr.getSearchSpace();
  if (!space)
    return space.takeError();
  llvm::Expected<Config> config = space->parseConfig(configText);
  if (!config)
    return config.takeError();
  if (llvm::Error e = space->checkValid(*config))
    return e;
  target->setAttr(DLTuneDialect::kConfigAttrName,
                  ConfigAttr::get(kernel.getContext(), *space, *config));
  return llvm::Error::success();
}

std::string mlir::dltune::getKernelTarget(ModuleOp kernel) {
  std::string target = "cpu";
  kernel.walk([&](Operation *op) {
    if (auto t = op->getAttrOfType<StringAttr>(DLTuneDialect::kTargetAttrName))
      target = t.getValue().str();
  });
  return target;
}
