//===- MeasureResult.cpp - Outcome of measuring one candidate -------------===//

#include "dltune/Tuning/MeasureResult.h"

using namespace mlir::dltune;

static constexpr const char *kNames[] = {
    "ok",           "invalid_config", "compile_error", "compile_timeout",
    "runtime_crash", "run_timeout",   "wrong_result",  "out_of_memory"};

llvm::StringRef mlir::dltune::toString(MeasureStatus status) {
  return kNames[static_cast<int>(status)];
}

std::optional<MeasureStatus> mlir::dltune::parseMeasureStatus(llvm::StringRef text) {
  for (int i = 0; i < 8; ++i)
    if (text == kNames[i])
      return static_cast<MeasureStatus>(i);
  return std::nullopt;
}
