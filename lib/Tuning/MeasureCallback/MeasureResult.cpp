//===- MeasureResult.cpp - Outcome of measuring one candidate -------------===//

#include "dltune/Tuning/MeasureCallback/MeasureResult.h"

#include <iterator>

using namespace mlir::dltune;

static constexpr const char *kNames[] = {
    "ok",           "invalid_config", "compile_error", "compile_timeout",
    "runtime_crash", "run_timeout",   "wrong_result",  "out_of_memory"};

llvm::StringRef mlir::dltune::toString(MeasureStatus status) {
  return kNames[static_cast<int>(status)];
}

std::optional<MeasureStatus> mlir::dltune::parseMeasureStatus(llvm::StringRef text) {
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (text == kNames[i])
      return static_cast<MeasureStatus>(i);
  return std::nullopt;
}

llvm::Expected<MeasureStatus> mlir::dltune::parseMeasureStatusOrError(llvm::StringRef text) {
  if (std::optional<MeasureStatus> s = parseMeasureStatus(text))
    return *s;
  std::string known;
  for (const char *name : kNames)
    known += (known.empty() ? "" : ", ") + std::string(name);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown measurement status '%s' (known: %s)", text.str().c_str(),
                                 known.c_str());
}

std::vector<std::string> mlir::dltune::getEnvironmentFailureMarkers() {
  return {"No space left on device", "Disk quota exceeded", "Read-only file system",
          "cannot start the build worker", "cannot start the measure worker",
          "Too many open files", "database or disk is full"};
}

bool mlir::dltune::isEnvironmentFailure(const MeasureRecord &record) {
  if (record.isOk())
    return false;
  for (const std::string &marker : getEnvironmentFailureMarkers())
    if (llvm::StringRef(record.error).contains(marker))
      return true;
  return false;
}
