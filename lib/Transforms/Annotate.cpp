//===- Annotate.cpp - Attach default search spaces ------------------------===//

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Transforms/Passes.h"
#include "dltune/Transforms/SchedulePlan.h"
#include "dltune/Transforms/UpstreamSchedule.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEANNOTATE
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {
struct AnnotatePass : public dltune::impl::DLTuneAnnotateBase<AnnotatePass> {
  using DLTuneAnnotateBase::DLTuneAnnotateBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (target != "cpu" && target != "gpu") {
      module.emitError() << "dltune-annotate: target must be cpu or gpu, got '"
                         << target << "'";
      return signalPassFailure();
    }
    ScheduleTarget schedTarget =
        target == "gpu" ? ScheduleTarget::GPU : ScheduleTarget::CPU;
    CpuTarget cpu = CpuTarget::getHost(CpuTarget::resolveThreads(numThreads));
    if (cpuLanes > 0)
      cpu.lanes = cpuLanes;
    if (cpuRegisters > 0)
      cpu.vectorRegisters = cpuRegisters;
    if (l1KB > 0)
      cpu.l1Bytes = l1KB << 10;
    if (l2KB > 0)
      cpu.l2Bytes = l2KB << 10;
    if (gpuSms < 0) {
      module.emitError() << "dltune-annotate: gpu-sms must not be negative";
      return signalPassFailure();
    }
    if (gpuCc < 0) {
      module.emitError() << "dltune-annotate: gpu-cc must not be negative";
      return signalPassFailure();
    }
    GpuPlanTarget gpu;
    if (gpuSms > 0)
      gpu.multiprocessors = gpuSms;
    if (gpuCc > 0)
      gpu.computeCapability = gpuCc;
    bool failed = false;
    bool fuse = fuseEpilogues && schedTarget == ScheduleTarget::CPU;
    if (fuse && mlir::failed(mergeElementwiseChains(module)))
      module.emitRemark() << "dltune-annotate: merging elementwise chains did not "
                             "converge; some chains stay split";

    module.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(DLTuneDialect::kSpaceAttrName))
        return;
      // An epilogue is tuned and applied with the op it follows (annotated
      // before it: the walk goes in program order).
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()); fuse && generic)
        if (linalg::LinalgOp root = getEpilogueRoot(generic);
            root && root->hasAttr(DLTuneDialect::kSpaceAttrName))
          return;
      if (auto sched = op->getAttrOfType<FlatSymbolRefAttr>(
              DLTuneDialect::kScheduleAttrName)) {
        // The space comes from the upstream sequence's tune knobs.
        FailureOr<SearchSpace> space = getUpstreamScheduleSpace(module, sched, op);
        if (mlir::failed(space)) {
          failed = true;
          return;
        }
        op->setAttr(DLTuneDialect::kSpaceAttrName, getSpaceAttr(ctx, *space));
        if (defaultConfig && !op->hasAttr(DLTuneDialect::kConfigAttrName)) {
          std::mt19937_64 rng(0);
          if (std::optional<Config> c = space->sample(rng))
            op->setAttr(DLTuneDialect::kConfigAttrName,
                        ConfigAttr::get(ctx, *space, *c));
        }
        return;
      }
      std::string whyNot;
      FailureOr<SchedulePlan> plan =
          buildSchedulePlan(op, schedTarget, cpu, whyNot, gpu);
      if (mlir::failed(plan)) {
        op->emitRemark() << "dltune-annotate: left alone: " << whyNot;
        return;
      }
      op->setAttr(DLTuneDialect::kSpaceAttrName, getSpaceAttr(ctx, plan->space));
      op->setAttr(DLTuneDialect::kTargetAttrName, StringAttr::get(ctx, target));
      if (defaultConfig && !op->hasAttr(DLTuneDialect::kConfigAttrName)) {
        std::optional<Config> config = plan->getDefaultConfig();
        if (!config) {
          op->emitRemark() << "dltune-annotate: the space has no valid "
                              "configuration; no default attached";
          return;
        }
        op->setAttr(DLTuneDialect::kConfigAttrName,
                    ConfigAttr::get(ctx, plan->space, *config));
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
