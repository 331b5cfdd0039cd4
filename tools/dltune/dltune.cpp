//===- dltune.cpp - The dltune command-line driver ------------------------===//
//
// Subcommands: run, compare (RunCommands.cpp), replay (ReplayCommand.cpp),
// replay-model (ReplayModelCommand.cpp), db (DbCommand.cpp), import
// (ImportCommand.cpp), model-eval (ModelEvalCommand.cpp), compile
// (CompileCommand.cpp), worker
// (WorkerCommand.cpp, used by the tuner).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "dltune/Execution/MallocPolicy.h"
#include "dltune/InitAllPasses.h"
#include "dltune/Transforms/LowerGpu.h"
#include "dltune/Version.h"

#include "mlir/InitAllPasses.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <unistd.h>

using namespace dltune_tool;

int main(int argc, char **argv) {
  // Kernels timed here (and in the tuner's workers, which are this program)
  // reuse freed memory as the libraries `dltune compile` writes do.
  mlir::dltune::keepFreedMemoryInProcess();
  // Before any thread starts: the GPU lowering's libdevice (setenv).
  (void)mlir::dltune::exportCudaToolkitForLibdevice();
  mlir::registerAllPasses();
  mlir::dltune::registerAllDLTunePassesAndPipelines();
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << mlir::dltune::getGeneratorString() << "\n";
  });
  llvm::cl::ParseCommandLineOptions(argc, argv, "dltune: MLIR autotuning driver\n");
  // An allocation sized by the input (a huge shape) that fails is the
  // user's error, said as such; the workers have their own handler (their
  // exit code says out_of_memory to the tuner).
  if (!workerCmd)
    llvm::install_bad_alloc_error_handler([](void *, const char *reason, bool) {
      const char prefix[] = "dltune: error: out of memory: ";
      (void)!write(STDERR_FILENO, prefix, sizeof(prefix) - 1);
      (void)!write(STDERR_FILENO, reason, strlen(reason));
      (void)!write(STDERR_FILENO, "\n", 1);
      _exit(1);
    });
  if (runCmd)
    return runCommand();
  if (compareCmd)
    return compareCommand();
  if (replayCmd)
    return replayCommand();
  if (replayModelCmd)
    return replayModelCommand();
  if (dbCmd)
    return dbCommand();
  if (workerCmd)
    return workerCommand();
  if (tuneCmd)
    return tuneCommand();
  if (importCmd)
    return importCommand();
  if (modelEvalCmd)
    return modelEvalCommand();
  if (compileCmd)
    return compileCommand();
  if (reportCmd)
    return reportCommand();
  if (studyCmd)
    return studyCommand();
  llvm::errs() << "dltune: error: expected a subcommand (import, tune, run, compare, compile, replay, "
                  "replay-model, model-eval, db, report); "
                  "see dltune --help\n";
  return 1;
}
