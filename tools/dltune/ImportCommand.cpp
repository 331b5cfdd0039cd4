//===- ImportCommand.cpp - dltune import ----------------------------------===//
//
//   dltune import MODEL.onnx [-o OUT.mlir] [--weights-as-args] [--layout nhwc|nchw] [--seed N]
//
// Writes the model as one func.func @main on tensors (linalg, tensor,
// arith, math), ready for `dltune tune` and `dltune run`. Weights become
// dense resources in the file (or arguments with --weights-as-args).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Import/OnnxImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand importCmd("import", "Import an ONNX model to linalg on tensors");
static cl::opt<std::string> importFile(cl::Positional, cl::desc("<model.onnx>"), cl::Required,
                                       cl::sub(importCmd));
static cl::opt<std::string> importOutput("o", cl::desc("Output file (default: stdout)"),
                                         cl::init("-"), cl::sub(importCmd));
static cl::opt<bool> weightsAsArgs(
    "weights-as-args", cl::desc("Weights become arguments of @main instead of constants"),
    cl::sub(importCmd));
static cl::opt<std::string> layout(
    "layout",
    cl::desc("Layout of convolutions and pooling inside the model: nhwc (default; the "
             "model's NCHW inputs and outputs are kept) or nchw"),
    cl::init("nhwc"), cl::sub(importCmd));
static cl::opt<uint64_t>
    weightSeed("seed", cl::desc("Seed of the random weights given to initializers without data"),
               cl::init(0), cl::sub(importCmd));

int importCommand() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(importFile, /*IsText=*/false);
  if (!buffer)
    return fail("cannot read '" + importFile + "': " + buffer.getError().message());
  MLIRContext ctx;
  setUpContext(ctx);
  OnnxImportOptions options;
  options.weightsAsArguments = weightsAsArgs;
  options.randomWeightSeed = weightSeed;
  if (layout != "nhwc" && layout != "nchw")
    return fail("--layout must be nhwc or nchw, got '" + layout + "'");
  options.channelsLast = layout == "nhwc";
  llvm::Expected<OwningOpRef<ModuleOp>> module =
      importOnnxModel((*buffer)->getBuffer(), importFile, ctx, options);
  if (!module)
    return fail(llvm::toString(module.takeError()));
  std::string err;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(importOutput, &err);
  if (!out)
    return fail(err);
  (*module)->print(out->os(), OpPrintingFlags().enableDebugInfo(true, /*prettyForm=*/false));
  out->keep();
  return 0;
}

} // namespace dltune_tool
