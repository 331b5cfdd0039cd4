//===- TuningPipeline.cpp - dltune-pipeline -------------------------------===//
//
// A pass pipeline, not a pass: it is registered with PassPipelineRegistration
// and has no ODS declaration (docs/pipelines.md lists the pipelines).
//
//===----------------------------------------------------------------------===//

#include "TunerPassOptions.h"

#include "dltune/Transforms/AutotunePasses.h"
#include "dltune/Transforms/Passes.h"
#include "dltune/Transforms/SchedulePlan.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<int64_t> threads{*this, "threads",
                          llvm::cl::desc("CPU threads per kernel (0: all cores)"),
                          llvm::cl::init(0)};
  Option<bool> winograd{*this, "winograd",
                        llvm::cl::desc("CPU: compute 3x3 stride-1 convolutions by "
                                       "Winograd's F(2x2, 3x3) or, on large maps, F(4x4, 3x3) "
                                       "first (--dltune-winograd)"),
                        llvm::cl::init(true)};
  TunerOptionSet tuner = makeTunerPassOptions<::mlir::detail::PassOptions>(*this);
};
} // namespace

void mlir::dltune::registerDLTuneTuningPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "dltune-pipeline",
      "Annotate, autotune, apply the best configurations and lower (to LLVM for "
      "target=cpu, to NVVM and a host launcher for target=gpu); takes every "
      "--dltune-autotune option and `threads`",
      [](OpPassManager &pm, const PipelineOptions &opts) {
        ModuleTunerOptions tune = opts.tuner.getValues();
        DLTuneAnnotateOptions annotate;
        annotate.numThreads = opts.threads;
        annotate.target = tune.target;
        // A chip chosen by hand: spaces for it, and kernels lowered for it.
        annotate.gpuCc = GpuPlanTarget::getComputeCapabilityOfChip(tune.gpuChip);
        if (opts.winograd && tune.target != "gpu") {
          DLTuneWinogradOptions winograd;
          winograd.threads = opts.threads;
          pm.addPass(createDLTuneWinograd(winograd));
        }
        if (tune.target != "gpu")
          pm.addPass(createDLTuneWidenConvs());
        else // the GPU's tuned kernel is the matmul
          pm.addPass(createDLTuneConvToMatmul());
        pm.addPass(createDLTuneAnnotate(annotate));
        pm.addPass(createDLTuneAutotune(tune));
        pm.addPass(createDLTuneApply());
        pm.addPass(createDLTuneStrip());
        if (tune.target == "gpu") {
          DLTuneLowerGPUOptions lower;
          if (!tune.gpuChip.empty())
            lower.chip = tune.gpuChip;
          pm.addPass(createDLTuneLowerGPU(lower));
        }
        else
          pm.addPass(createDLTuneLowerCPU());
      });
}
