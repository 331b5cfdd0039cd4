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
    measuring anything. A task without a usable record keeps the
    configuration its ops carry or gets the generated default, with a
    remark (a warning when its recorded configuration does not fit its
    space).
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

    `target=gpu` tunes GPU-annotated ops through the CUDA driver (loaded at
    run time) and fails up front where there is none. It has run on lent
    H200 and H100 GPUs (`test/Integration/gpu-autotune-device.mlir`, and the
    tuned columns of [gpu.md](gpu.md)).

    Options: the tuner options, declared once (`forEachTunerOption` in
    include/dltune/Execution/TunerOptions.h) and shared with `dltune tune`,
    which takes each as `--name value`. `dltune-opt --help` lists them with
    their help and defaults; docs/tuner-options.md has the table. An unknown option or
    a malformed value is an error.

    With progress output (not `quiet`), model-based strategies end with a
    line that counts the cost model's fits and the candidates proposed
    from its plans; a failed fit or prediction is a warning on the module.
  }];
  let dependentDialects = ["::mlir::dltune::DLTuneDialect"];
}

#endif // DLTUNE_TRANSFORMS_AUTOTUNEPASSES_TD
