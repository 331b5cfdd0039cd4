//===- jsonl_import.cpp - Fuzz target: dltune db import -------------------===//
//
// Imports the input as JSON lines into an in-memory database. An accepted
// file must export and import again unchanged.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

using namespace mlir::dltune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return dltune_fuzz::fuzzLineImport(data, size, importJsonLines, "fuzz.jsonl");
}
