//===- Common.h - Shared pieces of the dltune subcommands -------*- C++ -*-===//
#ifndef DLTUNE_TOOLS_DLTUNE_COMMON_H
#define DLTUNE_TOOLS_DLTUNE_COMMON_H

#include "dltune/Execution/StudySettings.h"
#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/SearchStrategy/SearchStrategy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

namespace dltune_tool {

/// Prints "dltune: error: MSG" and returns 1.
int fail(const llvm::Twine &msg);
/// The most threads a kernel may be given (`--threads`): more is a typo.
inline constexpr int kMaxThreads = 1024;
/// 0 when `threads` is in [0, kMaxThreads], else 1 after an error.
int checkThreadsOption(int threads);
/// Shortest faithful text of a number ("1.5", "0.000123").
std::string formatNumber(double v);

/// Seconds since the epoch (what the database's timestamps hold).
double secondsNow();

/// The median of `v` (the mean of the middle two for an even count; NaN
/// for none).
double median(std::vector<double> v);
/// The passes that attach dltune's default configurations for CPU kernels
/// using `threads` threads (0: the machine's cores), after computing 3x3
/// convolutions by Winograd's algorithm when `winograd` is set.
std::string getDefaultConfigPipeline(int threads, bool winograd);
/// The same for `target` (cpu or gpu): on the GPU, convolutions become
/// GEMMs and every op gets the GPU default configuration for this GPU's
/// SM count (what `dltune run --target gpu --default-config` runs).
std::string getDefaultConfigPipeline(const std::string &target, int threads, bool winograd,
                                     const std::string &chip = "");
/// The passes `dltune tune` annotates a model with before tuning it (CPU:
/// Winograd when `winograd`, widened convs; then default spaces): whatever
/// finds a model's tasks in a database must annotate it the same way, or
/// the task hashes differ. `chip` (sm_XY; may be empty) chosen by hand
/// overrides the driver's compute capability (getGpuDeviceOptions).
std::string getTuningAnnotatePipeline(int threads, const std::string &target, bool winograd,
                                      const std::string &chip = "");

/// " gpu-sms=N gpu-cc=XY" for dltune-annotate: the SM count and compute
/// capability of the first GPU the CUDA driver reports, so that GPU defaults
/// and spaces follow the device; empty without a driver (the pass then
/// assumes an H100's 132 SMs and compute capability 9.0). A `chip` chosen
/// by hand (`--chip sm_80`) sets the compute capability instead: the
/// kernels are built for it.
std::string getGpuDeviceOptions(const std::string &chip = "");
/// `--winograd`'s help text (the flag of run, compare, compile and tune).
inline constexpr const char *kWinogradHelp =
    "Compute 3x3 stride-1 convolutions by Winograd's F(2x2, 3x3) or, on large maps, F(4x4, 3x3) (--dltune-winograd; "
    "=false for A/B comparisons)";
/// Registers every dialect, extension and translation dltune needs.
void setUpContext(mlir::MLIRContext &ctx);
/// Parses an MLIR file; prints the diagnostics and returns null on error.
mlir::OwningOpRef<mlir::ModuleOp> parseFile(const std::string &path,
                                            mlir::MLIRContext &ctx);

/// Annotates `module` in place as `dltune tune` does (getTuningAnnotatePipeline),
/// quietly (no remarks about ops left alone); `what` names the model in errors.
llvm::Error annotateForTuning(mlir::ModuleOp module, int threads, const std::string &target,
                              bool winograd, const std::string &what,
                              const std::string &chip = "");
/// annotateForTuning, then the tasks' hashes with their occurrences, in the
/// order the tasks first appear.
llvm::Expected<std::vector<std::pair<std::string, int64_t>>>
annotateAndCollectTasks(mlir::ModuleOp module, int threads, const std::string &target,
                        bool winograd, const std::string &what);

/// A study's worker not heard from for this long is taken for killed or
/// cut off (`study status` says silent; others no longer count it busy):
/// workers write their row at least every 30 s while tuning.
inline constexpr double kWorkerSilentSeconds = 600;

/// `--suspend`, `--plateau`, `--min-improvement` and `--suspend-interval`
/// of a subcommand that registers studies (`study create`, `tune --study`):
/// Trimmer's suspension among the study's workers (docs/distributed.md).
class StudySuspensionFlags {
public:
  explicit StudySuspensionFlags(llvm::cl::SubCommand &sub);
  mlir::dltune::StudySuspensionSettings getValues() const;
  /// The flags given on the command line, as "--name".
  std::vector<std::string> getGivenNames() const;

private:
  llvm::cl::opt<bool> suspend;
  llvm::cl::opt<int> plateau;
  llvm::cl::opt<double> minImprovement;
  llvm::cl::opt<int64_t> intervalTrials;
};

/// A study of `files` with `settings` (StudyCommand.cpp): each file read
/// and annotated as the workers will, so that its task list is known.
llvm::Expected<mlir::dltune::Study> makeStudy(const std::string &name,
                                              const std::vector<std::string> &files,
                                              const mlir::dltune::StudySettings &settings);

/// Counts cost-model fits and model proposals for the report; model errors
/// become warnings on stderr.
class CliStrategyObserver : public mlir::dltune::StrategyObserver {
public:
  void onModelFit(size_t) override { ++fits; }
  void onModelProposals(size_t count) override { proposals += count; }
  void onModelError(llvm::Error error) override;
  int64_t fits = 0, proposals = 0;
};

// One entry point per subcommand; each returns the process exit code.
int runCommand();
int compareCommand();
int replayCommand();
int replayModelCommand();
int dbCommand();
int workerCommand();
int tuneCommand();
int importCommand();
int modelEvalCommand();
int compileCommand();
int reportCommand();
int studyCommand();

extern llvm::cl::SubCommand runCmd, compareCmd, replayCmd, replayModelCmd, dbCmd, workerCmd,
    tuneCmd, importCmd, modelEvalCmd, compileCmd, reportCmd, studyCmd;

} // namespace dltune_tool

#endif
