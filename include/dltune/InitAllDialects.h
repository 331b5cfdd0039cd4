//===- InitAllDialects.h - Everything a dltune context needs ----*- C++ -*-===//
#ifndef DLTUNE_INITALLDIALECTS_H
#define DLTUNE_INITALLDIALECTS_H

#include "dltune/DLTune.h"

namespace mlir::dltune {
/// What dltune's own tools register: registerDLTuneDialects (DLTune.h)
/// already includes every upstream dialect.
inline void registerAllDLTuneDialects(DialectRegistry &registry) {
  registerDLTuneDialects(registry);
}
} // namespace mlir::dltune

#endif // DLTUNE_INITALLDIALECTS_H
