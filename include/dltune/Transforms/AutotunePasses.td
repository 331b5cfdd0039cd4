//===- AutotunePasses.td - dltune tuning passes ------------*- tablegen -*-===//

#ifndef DLTUNE_TRANSFORMS_AUTOTUNEPASSES_TD
#define DLTUNE_TRANSFORMS_AUTOTUNEPASSES_TD

include "mlir/Pass/PassBase.td"

def DLTuneApplyBest : Pass<"dltune-apply-best", "ModuleOp"> {
  let summary = "Attach the best known configurations from a tuning database";
  let description = [{
    For every task (ops with equal kind, shapes, types, target and space)
    attaches the fastest successful configuration the database holds -
    measured on this machine if there is one, else on any device - without
    measuring anything. Tasks without a record get a remark.
  }];
  let options = [
    Option<"db", "db", "std::string", /*default=*/"\"dltune.db\"", "Tuning database">,
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"", "cpu or gpu">,
  ];
  let dependentDialects = ["::mlir::dltune::DLTuneDialect"];
}

def DLTuneAutotune : Pass<"dltune-autotune", "ModuleOp"> {
  let summary = "Tune every annotated op by building and measuring candidates";
  let description = [{
    Groups ops carrying `dltune.space` into tasks (same op kind, shapes,
    element types, target and space; the number of ops is the task's
    weight), proposes valid configurations with a search strategy, builds
    each candidate in a worker process (`jobs` in parallel, each under
    `build-timeout` and `mem-limit-mb`), measures them one at a time in
    worker processes (under `run-timeout`), verifies every output against
    the untuned lowering, commits each result to the SQLite database `db`
    as it finishes, and attaches the best configuration found to every op
    of the task.

    Re-running with the same database resumes: measured configurations are
    never measured again and count towards `trials`. Progress goes to
    stderr (a live line on a terminal), followed by a table per task.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"", "cpu or gpu (gpu needs a CUDA driver)">,
    Option<"db", "db", "std::string", /*default=*/"\"dltune.db\"", "Tuning database">,
    Option<"trials", "trials", "int64_t", /*default=*/"64",
           "Measurements per task, earlier ones in the database included">,
    Option<"timeBudget", "time-budget", "double", /*default=*/"0",
           "Seconds of tuning per task (0: no limit)">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0", "Random seed">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"random\"",
           "Search strategy: random, grid, sa, evolutionary, bo">,
    Option<"costModel", "cost-model", "std::string", /*default=*/"\"xgb\"",
           "Cost model of model-based strategies: xgb, xgb-reg, rf">,
    Option<"planSize", "plan-size", "unsigned", /*default=*/"64",
           "Model-based strategies: refit and re-plan every this many measurements">,
    Option<"jobs", "jobs", "unsigned", /*default=*/"1", "Parallel candidate builds">,
    Option<"buildTimeout", "build-timeout", "double", /*default=*/"60",
           "Wall-time limit of one build (s)">,
    Option<"runTimeout", "run-timeout", "double", /*default=*/"30",
           "Wall-time limit of one measurement (s)">,
    Option<"memLimitMB", "mem-limit-mb", "uint64_t", /*default=*/"4096",
           "Address-space limit of build and run workers (MiB)">,
    Option<"minTimeMs", "min-time-ms", "double", /*default=*/"50",
           "Minimum measured time per candidate (ms)">,
    Option<"worker", "worker", "std::string", /*default=*/"\"\"",
           "Path of the dltune executable (default: next to this one)">,
    Option<"workDir", "work-dir", "std::string", /*default=*/"\"\"",
           "Where kernels and references go (default: <db>.work)">,
    Option<"quiet", "quiet", "bool", /*default=*/"false", "No progress output">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "GPU tasks: the chip to build for (sm_XY; default: the detected GPU, "
           "else sm_90)">,
  ];
  let dependentDialects = ["::mlir::dltune::DLTuneDialect"];
}

#endif // DLTUNE_TRANSFORMS_AUTOTUNEPASSES_TD
