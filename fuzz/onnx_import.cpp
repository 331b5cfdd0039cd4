//===- onnx_import.cpp - Fuzz target: ONNX model bytes --------------------===//
//
// Imports the input as a serialized ModelProto. Whatever imports must
// verify (the importer verifies and reports a failure as an error, so a
// module that does not verify is an importer bug, which aborts here).
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dltune/Import/OnnxImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::dltune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: imported weights would pile up otherwise.
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  ctx.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  llvm::Expected<OwningOpRef<ModuleOp>> module = importOnnxModel(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.onnx", ctx);
  if (!module) {
    std::string msg = llvm::toString(module.takeError());
    FUZZ_CHECK(msg.find("does not verify") == std::string::npos, msg);
    return 0;
  }
  return 0;
}
