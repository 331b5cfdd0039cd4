//===- tophub_import.cpp - Fuzz target: dltune db import-tophub -----------===//
//
// Imports the input as an AutoTVM (TopHub) log into an in-memory database.
// An accepted log must export and import again unchanged.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

using namespace mlir::dltune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return dltune_fuzz::fuzzLineImport(data, size, importAutoTVMLog, "fuzz.log");
}
