//===- attr_parser.cpp - Fuzz target: #dltune.* attributes ----------------===//
//
// Parses "#dltune." + input as an attribute. What parses must print and
// parse back to the same attribute, and a space that verified must build
// its library space.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Dialect/DLTuneDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::dltune;

/// Attributes live as long as their context: a fresh one now and then keeps
/// memory bounded over millions of inputs.
static MLIRContext &getContext() {
  static std::unique_ptr<MLIRContext> ctx;
  static unsigned uses = 0;
  if (!ctx || ++uses % 4096 == 0) {
    ctx = std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
    ctx->loadDialect<DLTuneDialect>();
    ctx->getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  }
  return *ctx;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = getContext();
  std::string text = "#dltune." + std::string(reinterpret_cast<const char *>(data), size);
  size_t read = 0;
  Attribute attr = parseAttribute(text, &ctx, Type(), &read);
  if (!attr)
    return 0;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  attr.print(os);
  Attribute again = parseAttribute(printed, &ctx);
  FUZZ_CHECK(again == attr, "input: " << text << "\nprinted: " << printed);
  if (auto space = dyn_cast<SpaceAttr>(attr)) {
    llvm::Expected<SearchSpace> s = space.getSearchSpace();
    FUZZ_CHECK(static_cast<bool>(s), llvm::toString(s.takeError()) << "\n" << printed);
    s->enumerate([](const Config &) { return true; }, /*maxSteps=*/100000);
  }
  return 0;
}
