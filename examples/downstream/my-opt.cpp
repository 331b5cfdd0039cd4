//===- my-opt.cpp - A downstream opt tool with dltune inside --------------===//
//
// Registers its own pass and dltune's dialect (with what dltune's passes
// need in a context), passes and pipeline (include/dltune/DLTune.h).
//
//===----------------------------------------------------------------------===//

#include "CountConfigsPass.h"

#include "dltune/DLTune.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include <cstdlib>

int main(int argc, char **argv) {
  // Candidates are measured by the installed dltune's worker command.
  setenv("DLTUNE_WORKER", MY_DLTUNE_WORKER, /*overwrite=*/0);
  my::registerRequireConfigsPass();
  mlir::dltune::registerAllDLTunePassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::dltune::registerDLTuneDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "my-opt: a downstream compiler with dltune\n", registry));
}
