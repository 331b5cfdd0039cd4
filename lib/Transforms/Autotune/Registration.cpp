//===- Registration.cpp - registerDLTuneDialects --------------------------===//
//
// Out of line so that DLTune.h stays light: it pulls in every upstream
// dialect, extension and translation header.
//
//===----------------------------------------------------------------------===//

#include "dltune/DLTune.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::dltune::registerDLTuneDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerScheduleExtensions(registry);
  registry.insert<DLTuneDialect>();
}
