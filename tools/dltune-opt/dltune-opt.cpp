//===- dltune-opt.cpp - mlir-opt with the dltune dialect and passes -------===//
//
// Built the way a downstream opt tool would be (include/dltune/DLTune.h),
// with every upstream dialect and pass on top.
//
//===----------------------------------------------------------------------===//

#include "dltune/InitAllDialects.h"
#include "dltune/Transforms/LowerGpu.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  // Before any thread starts: the GPU lowering's libdevice (setenv).
  (void)mlir::dltune::exportCudaToolkitForLibdevice();
  mlir::registerAllPasses();
  mlir::dltune::registerAllDLTunePassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::dltune::registerAllDLTuneDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dltune optimizer driver\n", registry));
}
