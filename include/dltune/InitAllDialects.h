//===- InitAllDialects.h - Everything a dltune context needs ----*- C++ -*-===//
#ifndef DLTUNE_INITALLDIALECTS_H
#define DLTUNE_INITALLDIALECTS_H

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace mlir::dltune {
/// Upstream's dialects, extensions and LLVM IR translations, the transform
/// extensions schedules use, and the dltune dialect.
inline void registerAllDLTuneDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerScheduleExtensions(registry);
  registry.insert<DLTuneDialect>();
}
} // namespace mlir::dltune

#endif // DLTUNE_INITALLDIALECTS_H
