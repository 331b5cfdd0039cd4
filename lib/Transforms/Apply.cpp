//===- Apply.cpp - Apply dltune.config through the Transform dialect ------===//

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/DepthwisePointwiseFusion.h"
#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Transforms/Passes.h"
#include "dltune/Transforms/ScheduleBuilder.h"
#include "dltune/Transforms/SchedulePlan.h"
#include "dltune/Transforms/UpstreamSchedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEAPPLY
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

static constexpr llvm::StringLiteral kTargetMarker = "__dltune_target__";
static constexpr llvm::StringLiteral kFailedMarker = "__dltune_failed__";
static constexpr llvm::StringLiteral kEpilogueMarker = "__dltune_epilogue__";
static constexpr llvm::StringLiteral kFillMarker = "__dltune_fill__";

/// Knob values of `op`'s config, checked against its space when it has one.
static FailureOr<std::map<std::string, int64_t>> getCheckedValues(Operation *op) {
  auto config = op->getAttrOfType<ConfigAttr>(DLTuneDialect::kConfigAttrName);
  if (!config)
    return op->emitOpError() << "dltune.config must be a #dltune.config";
  if (auto spaceAttr = op->getAttrOfType<SpaceAttr>(DLTuneDialect::kSpaceAttrName)) {
    llvm::Expected<SearchSpace> space = spaceAttr.getSearchSpace();
    if (!space)
      return op->emitOpError() << llvm::toString(space.takeError());
    llvm::Expected<Config> values = config.toConfig(*space);
    if (!values)
      return op->emitOpError() << "dltune.config " << llvm::toString(values.takeError());
    if (llvm::Error err = space->checkValid(*values))
      return op->emitOpError() << "dltune.config " << llvm::toString(std::move(err));
  }
  std::map<std::string, int64_t> values;
  for (NamedAttribute v : config.getValues())
    values[v.getName().str()] = cast<IntegerAttr>(v.getValue()).getInt();
  return values;
}

/// Builds the transform module for a dltune-generated schedule.
static FailureOr<OwningOpRef<ModuleOp>>
buildGeneratedSchedule(linalg::LinalgOp op,
                       const std::map<std::string, int64_t> &values) {
  auto targetAttr = op->getAttrOfType<StringAttr>(DLTuneDialect::kTargetAttrName);
  ScheduleTarget target = targetAttr && targetAttr.getValue() == "gpu"
                              ? ScheduleTarget::GPU
                              : ScheduleTarget::CPU;
  std::string why;
  int64_t threads = values.count("threads") ? values.at("threads") : 1;
  FailureOr<SchedulePlan> plan = buildSchedulePlan(op, target, threads, why);
  if (failed(plan))
    return op->emitOpError() << "cannot be scheduled: " << why;
  std::optional<FusedEpilogue> fused;
  if (target == ScheduleTarget::CPU)
    if (linalg::GenericOp epilogue = getFusableEpilogue(op))
      fused = FusedEpilogue{getEpilogueLoopsInRoot(op, epilogue),
                            static_cast<bool>(getFusableFill(op))};
  std::string error;
  FailureOr<OwningOpRef<ModuleOp>> module = buildScheduleModule(
      op->getContext(), op->getLoc(), *plan, values,
      ScheduleMarkers{kTargetMarker, kEpilogueMarker, kFillMarker}, error,
      fused ? &*fused : nullptr);
  if (failed(module))
    return op->emitOpError() << "dltune.config: " << error;
  return module;
}

/// Generated schedules pack operands with `nofold` pads of zero width:
/// `nofold` keeps them alive until hoist_pad has built the packing loops;
/// after that, one that feeds an insert_slice into the packed buffer only
/// copies each panel into a temporary buffer (filled with the padding value
/// first) before it is copied again. A hoisted pad without a packing loop
/// is itself the copy into contiguous memory and stays.
static void dropZeroPads(Operation *root) {
  SmallVector<tensor::PadOp> pads;
  root->walk([&](tensor::PadOp pad) {
    auto zero = [](ArrayRef<int64_t> amounts) {
      return llvm::all_of(amounts, [](int64_t a) { return a == 0; });
    };
    if (pad.getNofold() && zero(pad.getStaticLow()) && zero(pad.getStaticHigh()) &&
        pad.getSourceType() == pad.getResultType() && pad->hasOneUse() &&
        isa<tensor::InsertSliceOp>(*pad->user_begin()))
      pads.push_back(pad);
  });
  for (tensor::PadOp pad : pads) {
    pad.getResult().replaceAllUsesWith(pad.getSource());
    pad.erase();
  }
}

/// Applies `schedule` to a copy of the function holding `op`, and replaces
/// the function body only on success, so a failed schedule leaves the op
/// untouched.
static LogicalResult applySchedule(Operation *op, ModuleOp schedule,
                                   StringRef entryName, bool bindOpItself) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return op->emitOpError() << "must be inside a function to be scheduled";
  // The op's epilogue and fill are marked for the generated schedule to
  // find; upstream sequences only see the op.
  SmallVector<std::pair<Operation *, StringRef>> marks = {{op, kTargetMarker}};
  if (auto root = dyn_cast<linalg::LinalgOp>(op); root && !bindOpItself) {
    if (linalg::GenericOp epilogue = getFusableEpilogue(root)) {
      marks.push_back({epilogue, kEpilogueMarker});
      if (linalg::FillOp fill = getFusableFill(root))
        marks.push_back({fill, kFillMarker});
    }
  }
  for (auto [marked, name] : marks)
    marked->setAttr(name, UnitAttr::get(op->getContext()));
  Operation *copy = func->clone();
  for (auto [marked, name] : marks)
    marked->removeAttr(name);

  Operation *payload = copy;
  if (bindOpItself) {
    copy->walk([&](Operation *inner) {
      if (inner->hasAttr(kTargetMarker))
        payload = inner;
    });
  }
  auto entry = transform::detail::findTransformEntryPoint(copy, schedule, entryName);
  if (!entry) {
    copy->erase();
    return op->emitOpError() << "internal error: no entry @" << entryName;
  }
  std::string messages;
  LogicalResult result = failure();
  {
    ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
      messages += "\n  " + diag.str();
      return success();
    });
    transform::TransformOptions options;
    result = transform::applyTransformNamedSequence(payload, entry, schedule,
                                                    options);
  }
  if (failed(result)) {
    copy->erase();
    return op->emitOpError() << "schedule failed to apply; op left untouched:"
                             << messages;
  }
  // Ops derived from the scheduled one inherited its attributes.
  copy->walk([&](Operation *inner) {
    inner->removeAttr(kEpilogueMarker);
    inner->removeAttr(kFillMarker);
    if (!inner->hasAttr(kTargetMarker))
      return;
    inner->removeAttr(kTargetMarker);
    for (StringRef name :
         {DLTuneDialect::kSpaceAttrName, DLTuneDialect::kConfigAttrName,
          DLTuneDialect::kTargetAttrName, DLTuneDialect::kScheduleAttrName})
      inner->removeAttr(name);
  });
  if (!bindOpItself)
    dropZeroPads(copy);
  func->getRegion(0).takeBody(copy->getRegion(0));
  copy->erase();
  return success();
}

namespace {
struct ApplyPass : public dltune::impl::DLTuneApplyBase<ApplyPass> {
  using DLTuneApplyBase::DLTuneApplyBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    DLTuneApplyBase::getDependentDialects(registry);
    registerScheduleExtensions(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (fuseDepthwisePointwise && failed(fuseDepthwiseIntoPointwise(module)))
      return signalPassFailure();
    // A successful schedule replaces the whole function body, so look the
    // next target up afresh each time; failed ones are marked to skip them.
    bool failedAny = false;
    while (true) {
      linalg::LinalgOp op;
      module.walk([&](linalg::LinalgOp candidate) {
        if (candidate->hasAttr(DLTuneDialect::kConfigAttrName) &&
            !candidate->hasAttr(kFailedMarker)) {
          op = candidate;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (!op)
        break;
      if (failed(applyOne(module, op))) {
        failedAny = true;
        op->setAttr(kFailedMarker, UnitAttr::get(&getContext()));
      }
    }
    module.walk([](Operation *op) { op->removeAttr(kFailedMarker); });
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult applyOne(ModuleOp module, linalg::LinalgOp op) {
    FailureOr<std::map<std::string, int64_t>> values = getCheckedValues(op);
    if (failed(values))
      return failure();
    if (auto seq = op->getAttrOfType<FlatSymbolRefAttr>(
            DLTuneDialect::kScheduleAttrName)) {
      FailureOr<OwningOpRef<ModuleOp>> schedule =
          instantiateUpstreamSchedule(module, seq, *values, op);
      return failure(failed(schedule) ||
                     failed(applySchedule(op, schedule->get(), seq.getValue(), true)));
    }
    FailureOr<OwningOpRef<ModuleOp>> schedule = buildGeneratedSchedule(op, *values);
    return failure(failed(schedule) ||
                   failed(applySchedule(
                       op, schedule->get(),
                       transform::TransformDialect::kTransformEntryPointSymbolName,
                       false)));
  }
};
} // namespace
