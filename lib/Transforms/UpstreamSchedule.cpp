//===- UpstreamSchedule.cpp - transform.tune.knob interop -----------------===//

#include "dltune/Transforms/UpstreamSchedule.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::dltune;

FailureOr<transform::NamedSequenceOp>
mlir::dltune::lookupScheduleSequence(ModuleOp module, FlatSymbolRefAttr name,
                                     Operation *user) {
  transform::NamedSequenceOp found;
  module.walk([&](transform::NamedSequenceOp seq) {
    if (seq.getSymName() == name.getValue()) {
      found = seq;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found)
    return user->emitOpError() << "dltune.schedule refers to " << name << ", which is not a "
                               << transform::NamedSequenceOp::getOperationName()
                               << " in this module";
  return found;
}

static LogicalResult getKnobOptions(transform::tune::KnobOp knob,
                                    std::vector<int64_t> &values,
                                    Operation *user) {
  auto options = dyn_cast<ArrayAttr>(knob.getOptions());
  if (!options)
    return user->emitOpError() << "tune knob '" << knob.getName().str()
                               << "' must list its options as an array";
  for (Attribute a : options) {
    auto i = dyn_cast<IntegerAttr>(a);
    if (!i)
      return user->emitOpError() << "tune knob '" << knob.getName().str()
                                 << "' has a non-integer option";
    values.push_back(i.getInt());
  }
  return success();
}

FailureOr<SearchSpace>
mlir::dltune::getUpstreamScheduleSpace(ModuleOp module, FlatSymbolRefAttr name,
                                       Operation *user) {
  FailureOr<transform::NamedSequenceOp> seq =
      lookupScheduleSequence(module, name, user);
  if (failed(seq))
    return failure();
  std::vector<Knob> knobs;
  bool bad = false;
  seq->walk([&](transform::tune::KnobOp knob) {
    Knob k{knob.getName().str(), {}};
    if (failed(getKnobOptions(knob, k.values, user)))
      bad = true;
    knobs.push_back(std::move(k));
  });
  if (bad)
    return failure();
  if (knobs.empty())
    return user->emitOpError() << "schedule " << name << " has no "
                               << transform::tune::KnobOp::getOperationName() << " ops";
  llvm::Expected<SearchSpace> space = SearchSpace::create(knobs, {}, {});
  if (!space)
    return user->emitOpError() << "schedule " << name << ": "
                               << llvm::toString(space.takeError());
  return std::move(*space);
}

FailureOr<OwningOpRef<ModuleOp>> mlir::dltune::instantiateUpstreamSchedule(
    ModuleOp module, FlatSymbolRefAttr name,
    const std::map<std::string, int64_t> &values, Operation *user) {
  FailureOr<transform::NamedSequenceOp> seq =
      lookupScheduleSequence(module, name, user);
  if (failed(seq))
    return failure();
  MLIRContext *ctx = module.getContext();
  OpBuilder builder(ctx);
  OwningOpRef<ModuleOp> holder = ModuleOp::create(builder, user->getLoc());
  (*holder)->setAttr(transform::TransformDialect::kWithNamedSequenceAttrName,
                     builder.getUnitAttr());
  builder.setInsertionPointToEnd(holder->getBody());
  Operation *clone = builder.clone(*seq->getOperation());
  bool bad = false;
  clone->walk([&](transform::tune::KnobOp knob) {
    auto it = values.find(knob.getName().str());
    if (it == values.end()) {
      user->emitOpError() << "dltune.config has no value for tune knob '"
                          << knob.getName().str() << "'";
      bad = true;
      return;
    }
    std::vector<int64_t> options;
    if (failed(getKnobOptions(knob, options, user))) {
      bad = true;
      return;
    }
    auto opt = llvm::find(options, it->second);
    if (opt == options.end()) {
      user->emitOpError() << "value " << it->second << " of tune knob '"
                          << knob.getName().str() << "' is not among its options";
      bad = true;
      return;
    }
    knob.setSelectedAttr(cast<ArrayAttr>(knob.getOptions())[opt - options.begin()]);
  });
  if (bad)
    return failure();
  return holder;
}
