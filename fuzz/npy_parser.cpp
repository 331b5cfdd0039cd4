//===- npy_parser.cpp - Fuzz target: NumPy .npy files ---------------------===//
//
// Parses the input as a .npy file; what parses must serialize and parse
// back to the same type and bytes.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dltune/Execution/NpyFile.h"

#include <cstring>

using namespace mlir::dltune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<HostBuffer> b =
      parseNpy(llvm::StringRef(reinterpret_cast<const char *>(data), size));
  if (!b) {
    llvm::consumeError(b.takeError());
    return 0;
  }
  llvm::Expected<std::string> bytes = serializeNpy(*b);
  FUZZ_CHECK(static_cast<bool>(bytes), "a parsed buffer does not serialize");
  llvm::Expected<HostBuffer> again = parseNpy(*bytes);
  FUZZ_CHECK(static_cast<bool>(again), "a serialized buffer does not parse");
  FUZZ_CHECK(again->getType().str() == b->getType().str(), b->getType().str());
  FUZZ_CHECK(std::memcmp(again->data(), b->data(), b->getType().getBytes()) == 0,
             "data changed in the round trip");
  return 0;
}
