//===- pass_options.cpp - Fuzz target: --dltune-autotune's options --------===//
//
// The input is the option text of `dltune-autotune{...}`: MLIR's pass-option
// parser reads it into the tuner's options, and the pass validates them on
// an empty module. Whatever the text, this must neither crash nor hang, and
// nothing may be written: with no task, neither validation nor the pass
// may create a database or a work directory. (That a malformed option
// never becomes a database name is test/Reliability/pass-options.test's.)
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dltune/InitAllPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

#include <dirent.h>
#include <unistd.h>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool registered = [] {
    dltune::registerAllDLTunePassesAndPipelines();
    return true;
  }();
  (void)registered;
  // Options longer than this are not a user's typing.
  if (size > 4096)
    return 0;
  std::string options(reinterpret_cast<const char *>(data), size);
  // Run where a stray database would show: an empty directory of our own.
  static struct ScratchDirectory {
    std::string path;
    ScratchDirectory() {
      char tmpl[] = "/tmp/dltune-fuzz-pass-options-XXXXXX";
      const char *made = mkdtemp(tmpl);
      FUZZ_CHECK(made != nullptr, "cannot make a directory");
      FUZZ_CHECK(chdir(made) == 0, "cannot enter the directory");
      path = made;
    }
    ~ScratchDirectory() { rmdir(path.c_str()); }
  } scratch;
  const std::string &dir = scratch.path;
  MLIRContext ctx;
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  PassManager pm(&ctx);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline("builtin.module(dltune-autotune{" + options + "})", pm, os)))
    return 0;
  (void)pm.run(*module);
  // Nothing may appear in the directory: no database, no work directory.
  DIR *d = opendir(dir.c_str());
  FUZZ_CHECK(d != nullptr, "cannot read the directory");
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    FUZZ_CHECK(name == "." || name == "..", "the pass wrote '" + name + "' for options '" +
                                                options + "'");
  }
  closedir(d);
  return 0;
}
