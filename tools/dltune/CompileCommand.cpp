//===- CompileCommand.cpp - dltune compile: a kernel or model to a library ===//
//
//   dltune compile FILE.mlir --entry NAME -o OUT.so [--default-config]
//                            [--threads N]
//
// Builds the entry, scheduled with the configs it carries (or dltune's
// defaults), into a shared library exporting `_mlir_ciface_<entry>`: the
// artifact the tuner's workers build for every candidate, for programs
// outside dltune to load. Every memref descriptor is passed by pointer; a
// result comes back through a descriptor pointer passed first, its storage
// allocated by the library with malloc (the caller frees `allocated`).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Execution/CpuKernel.h"
#include "dltune/Execution/KernelRunner.h"
#include "dltune/Execution/SharedObjectKernel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dltune;
namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand compileCmd("compile",
                          "Build a kernel or model into a shared library (C interface)");

static cl::opt<std::string> compileFile(cl::Positional, cl::desc("<file.mlir>"), cl::Required,
                                        cl::sub(compileCmd));
static cl::opt<std::string> compileEntry("entry", cl::desc("Function to export"),
                                         cl::init("main"), cl::sub(compileCmd));
static cl::opt<std::string> compileOutput("o", cl::desc("Shared library to write"),
                                          cl::value_desc("file.so"), cl::Required,
                                          cl::sub(compileCmd));
static cl::opt<bool> compileDefaultConfig(
    "default-config",
    cl::desc("Schedule ops without a configuration with dltune's heuristic defaults"),
    cl::sub(compileCmd));
static cl::opt<int> compileThreads(
    "threads", cl::desc("Threads the default configurations use (0: the machine's cores)"),
    cl::init(0), cl::sub(compileCmd));
static cl::opt<bool> compileFoldConstantPacks(
    "fold-constant-packs",
    cl::desc("Pack constant operands (weights) at compile time, not on every call "
             "(--dltune-fold-constant-packs; =false for A/B comparisons)"),
    cl::init(true), cl::sub(compileCmd));
static cl::opt<bool> compileWinograd("winograd", cl::desc(kWinogradHelp), cl::init(true),
                                     cl::sub(compileCmd));
static cl::opt<bool> compilePadInPlace(
    "pad-in-place",
    cl::desc("Producers write into the padded tensors pads make, no copy "
             "(--dltune-pad-in-place; =false for A/B comparisons)"),
    cl::init(true), cl::sub(compileCmd));

/// "memref<1x3x224x224xf32> *" for the printed C signature.
static std::string describe(const BufferType &type) {
  return "memref<" + type.str() + "> *";
}

int compileCommand() {
  MLIRContext ctx;
  setUpContext(ctx);
  OwningOpRef<ModuleOp> module = parseFile(compileFile, ctx);
  if (!module)
    return 1;
  if (checkThreadsOption(compileThreads))
    return 1;
  if (compileThreads.getNumOccurrences() && !compileDefaultConfig)
    return fail("--threads sets the default configurations' threads: it needs --default-config "
                "(configs the module carries have their own)");
  llvm::Expected<KernelSignature> signature = getKernelSignature(*module, compileEntry);
  if (!signature)
    return fail(llvm::toString(signature.takeError()));
  if (signature->results.size() > 1)
    return fail("'" + compileEntry + "' returns " + llvm::Twine(signature->results.size()) +
                " values; the C interface of a library returns at most one");
  // As `dltune run` schedules and lowers.
  std::string pipeline = RunOptions().schedulePipeline;
  if (compileDefaultConfig)
    pipeline = getDefaultConfigPipeline(compileThreads, compileWinograd) + "," + pipeline;
  BuildPhases phases;
  if (llvm::Error e = buildSharedObjectWith(
          *module, compileEntry, pipeline,
          llvm::formatv("dltune-lower-cpu{{fold-constant-packs={0} pad-in-place={1}}",
                        compileFoldConstantPacks ? "true" : "false",
                        compilePadInPlace ? "true" : "false")
              .str(),
          compileOutput, &phases))
    return fail(llvm::toString(std::move(e)));
  std::vector<std::string> params;
  for (const BufferType &r : signature->results)
    params.push_back(describe(r) + "result");
  for (const BufferType &a : signature->args)
    params.push_back(describe(a));
  llvm::outs() << llvm::formatv("wrote {0} ({1:f1} s): void _mlir_ciface_{2}({3})\n",
                                compileOutput.getValue(),
                                phases.scheduleAndLower + phases.codegen + phases.link,
                                compileEntry.getValue(), llvm::join(params, ", "));
  return 0;
}

} // namespace dltune_tool
