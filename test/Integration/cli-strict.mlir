// Every dltune subcommand refuses an unknown option, a missing value and a
// stray argument with a non-zero exit, so a script with a typo never runs
// something else quietly.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not dltune tune %s --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dltune run %s --entry f --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dltune compare %s --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --bogus x 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dltune db summary --db %t/none.db --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dltune worker build --kernel %s --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dltune tune %s --trials 2>&1 | FileCheck %s --check-prefix=NOVALUE
// RUN: not dltune replay --dataset 2>&1 | FileCheck %s --check-prefix=NOVALUE-DATASET
// RUN: not dltune tune %s --trials abc 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not dltune db summary extra 2>&1 | FileCheck %s --check-prefix=STRAY
// RUN: not dltune db export out.jsonl 2>&1 | FileCheck %s --check-prefix=STRAY-EXPORT
// UNKNOWN: Unknown command line argument '--bogus'
// NOVALUE: for the --trials option: requires a value!
// NOVALUE-DATASET: for the --dataset option: requires a value!
// BADVALUE: for the --trials option: 'abc' value invalid for long argument!
// STRAY: dltune: error: db summary takes no file argument, got 'extra'
// STRAY-EXPORT: dltune: error: db export takes no file argument, got 'out.jsonl' (the output file is -o FILE)

// `dltune tune` takes every option of --dltune-autotune.
// RUN: dltune tune --help | FileCheck %s --check-prefix=HELP
// HELP-DAG: --atol=<number>
// HELP-DAG: --build-timeout=<number>
// HELP-DAG: --confirm-repeats=<uint>
// HELP-DAG: --confirm-top=<uint>
// HELP-DAG: --cost-model=<string>
// HELP-DAG: --db=<string>
// HELP-DAG: --jobs=<uint>
// HELP-DAG: --mem-limit-mb=<ulong>
// HELP-DAG: --min-time-ms=<number>
// HELP-DAG: --plan-size=<uint>
// HELP-DAG: --quiet
// HELP-DAG: --remeasure
// HELP-DAG: --rtol=<number>
// HELP-DAG: --run-timeout=<number>
// HELP-DAG: --seed=<ulong>
// HELP-DAG: --strategy=<string>
// HELP-DAG: --target=<string>
// HELP-DAG: --time-budget=<number>
// HELP-DAG: --trials=<long>
// HELP-DAG: --work-dir=<string>
// HELP-DAG: --worker=<string>

// Options are checked before anything is built: a model for a strategy
// that uses none, bo without variance, a zero budget.
// RUN: not dltune tune %s --db %t/a.db --strategy random --cost-model xgb 2>&1 | FileCheck %s --check-prefix=NOMODEL
// RUN: not dltune tune %s --db %t/a.db --strategy bo --cost-model xgb 2>&1 | FileCheck %s --check-prefix=VARIANCE
// RUN: not dltune tune %s --db %t/a.db --jobs 0 2>&1 | FileCheck %s --check-prefix=JOBS
// RUN: not dltune tune %s --db %t/a.db --anchor-tolerance -0.1 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not test -e %t/a.db
// NOMODEL: dltune: error: strategy 'random' uses no cost model (cost model 'xgb' given); use sa, evolutionary or bo
// VARIANCE: dltune: error: strategy 'bo' needs a cost model with variance (rf, dgp, gp); 'xgb' has none
// JOBS: dltune: error: plan-size and jobs must be at least 1
// ANCHOR: dltune: error: time-budget, min-time-ms and anchor-tolerance must not be negative

// -o with several inputs: a file is refused before tuning; a directory gets
// one tuned file per input, named after it.
// RUN: not dltune tune %s %dltune_src/test/Inputs/small-matmul.mlir --db %t/o.db -o %t/one.mlir 2>&1 | FileCheck %s --check-prefix=ONEFILE
// RUN: not test -e %t/o.db
// RUN: cp %dltune_src/test/Inputs/small-matmul.mlir %t/second.mlir
// RUN: dltune tune %dltune_src/test/Inputs/small-matmul.mlir %t/second.mlir --db %t/o.db --work-dir %t/work --trials 1 --min-time-ms 1 --quiet -o %t/out/ > %t/table
// RUN: FileCheck %s --check-prefix=TUNED < %t/out/small-matmul.mlir
// RUN: FileCheck %s --check-prefix=TUNED < %t/out/second.mlir
// RUN: ls %t/work | FileCheck %s --check-prefix=WORKDIR
// RUN: cp %dltune_src/test/Inputs/small-matmul.mlir %t/out/
// RUN: not dltune tune %dltune_src/test/Inputs/small-matmul.mlir %t/out/small-matmul.mlir --db %t/o.db -o %t/out 2>&1 | FileCheck %s --check-prefix=SAMENAME
// ONEFILE: dltune: error: -o '{{.*}}one.mlir' names one file for 2 inputs: give a directory (existing, or ending in '/') to get one tuned file per input
// TUNED: linalg.matmul {dltune.config = #dltune.config<
// WORKDIR: {{^[0-9a-f]+$}}
// SAMENAME: dltune: error: two inputs would both be written to '{{.*}}small-matmul.mlir'

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
