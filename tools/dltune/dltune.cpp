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
#include "dltune/Version.h"

#include "mlir/InitAllPasses.h"

#include "llvm/Support/raw_ostream.h"

using namespace dltune_tool;

int main(int argc, char **argv) {
  // Kernels timed here (and in the tuner's workers, which are this program)
  // reuse freed memory as the libraries `dltune compile` writes do.
  mlir::dltune::keepFreedMemoryInProcess();
  mlir::registerAllPasses();
  mlir::dltune::registerAllDLTunePassesAndPipelines();
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << mlir::dltune::getGeneratorString() << "\n";
  });
  llvm::cl::ParseCommandLineOptions(argc, argv, "dltune: MLIR autotuning driver\n");
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
  llvm::errs() << "dltune: error: expected a subcommand (import, tune, run, compare, compile, replay, "
                  "replay-model, model-eval, db); "
                  "see dltune --help\n";
  return 1;
}
