//===- TuningTasks.cpp - Grouping annotated ops into tuning tasks ---------===//

#include "dltune/Transforms/TuningTasks.h"
#include "dltune/Dialect/DLTuneAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

/// The op alone in `func @dltune_task(operands...) -> results`; constants
/// its body captures are cloned in.
static FailureOr<OwningOpRef<ModuleOp>> extractKernel(Operation *op) {
  MLIRContext *ctx = op->getContext();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b, op->getLoc());
  b.setInsertionPointToEnd(module->getBody());
  auto type = b.getFunctionType(op->getOperandTypes(), op->getResultTypes());
  auto func = func::FuncOp::create(b, op->getLoc(), kTaskEntryName, type);
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping map;
  for (auto [operand, arg] : llvm::zip(op->getOperands(), body->getArguments()))
    map.map(operand, arg);
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value v : captured) {
    Operation *def = v.getDefiningOp();
    if (!def || !def->hasTrait<OpTrait::ConstantLike>())
      return failure();
    b.clone(*def, map);
  }
  Operation *clone = b.clone(*op, map);
  clone->removeAttr(DLTuneDialect::kConfigAttrName);
  func::ReturnOp::create(b, op->getLoc(), clone->getResults());
  return module;
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
    desc.opKind = op->getName().getStringRef().str();
    desc.target = targetAttr ? targetAttr.getValue().str() : "cpu";
    for (Type t : op->getOperandTypes()) {
      auto shaped = dyn_cast<ShapedType>(t);
      desc.shapes.push_back(shaped ? std::vector<int64_t>(shaped.getShape().begin(),
                                                          shaped.getShape().end())
                                   : std::vector<int64_t>{});
      desc.elementTypes.push_back(typeString(shaped ? shaped.getElementType() : t));
    }
    // Ops with the same kind and shapes but different bodies (elementwise
    // generics) must not share a task: the body is part of the key.
    if (isa<linalg::GenericOp>(op)) {
      std::string body;
      llvm::raw_string_ostream os(body);
      op->getRegion(0).front().print(os);
      desc.opKind += "#" + std::to_string(stableHash(body) % 100000);
    }
    uint64_t hash = desc.getHash(*space);
    auto it = byHash.find(hash);
    if (it != byHash.end()) {
      tasks[it->second].ops.push_back(op);
      return;
    }
    FailureOr<OwningOpRef<ModuleOp>> kernel = extractKernel(op);
    if (failed(kernel)) {
      op->emitRemark() << "dltune: not tuned: the op captures a non-constant value";
      return;
    }
    TuningTask task;
    task.descriptor = desc;
    task.space = std::move(*space);
    task.kernel = std::move(*kernel);
    task.ops.push_back(op);
    TaskRecord &rec = task.record;
    llvm::raw_string_ostream hs(rec.hash);
    hs << llvm::format_hex_no_prefix(hash, 16);
    rec.opKind = desc.opKind;
    rec.target = desc.target;
    for (size_t i = 0; i < desc.shapes.size(); ++i) {
      rec.shapes += (i ? ";" : "");
      for (size_t j = 0; j < desc.shapes[i].size(); ++j)
        rec.shapes += (j ? "x" : "") + std::to_string(desc.shapes[i][j]);
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
