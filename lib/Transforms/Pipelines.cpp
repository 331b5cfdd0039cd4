//===- Pipelines.cpp - dltune-default-pipeline ----------------------------===//
//
// A pass pipeline, not a pass: it is registered with PassPipelineRegistration
// and has no ODS declaration (docs/pipelines.md lists the pipelines).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::dltune;

void mlir::dltune::registerDLTunePipelines() {
  PassPipelineRegistration<>(
      "dltune-default-pipeline",
      "Compute 3x3 convolutions by Winograd's algorithm, widen convolutions of "
      "awkward widths, annotate with default spaces and configs, apply them and "
      "lower to LLVM for the CPU",
      [](OpPassManager &pm) {
        // Transforms on every core, as the annotated ops' default threads.
        DLTuneWinogradOptions winograd;
        winograd.threads = 0;
        pm.addPass(createDLTuneWinograd(winograd));
        pm.addPass(createDLTuneWidenConvs());
        DLTuneAnnotateOptions annotate;
        annotate.defaultConfig = true;
        pm.addPass(createDLTuneAnnotate(annotate));
        pm.addPass(createDLTuneApply());
        pm.addPass(createDLTuneStrip());
        pm.addPass(createDLTuneLowerCPU());
      });
}
