//===- dltune-opt.cpp - mlir-opt with the dltune dialect and passes -------===//

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::dltune::registerAllDLTunePassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::dltune::registerScheduleExtensions(registry);
  registry.insert<mlir::dltune::DLTuneDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dltune optimizer driver\n", registry));
}
