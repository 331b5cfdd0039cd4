//===- Error.h - Building llvm::Error values --------------------*- C++ -*-===//
#ifndef DLTUNE_TUNING_SUPPORT_ERROR_H
#define DLTUNE_TUNING_SUPPORT_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace mlir::dltune {
/// An llvm::Error carrying `msg` (library boundaries report with these).
inline llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}
} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SUPPORT_ERROR_H
