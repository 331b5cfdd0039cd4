// Every tuner option is a pass option (the new ones included, with their
// defaults), and the pass options behave as MLIR's do: an unknown option or
// a malformed value stops dltune-opt with a non-zero exit.
// RUN: dltune-opt %s --dump-pass-pipeline -o /dev/null \
// RUN:   --dltune-autotune="confirm-top=3 confirm-repeats=2 rtol=0.001 atol=0.0001 remeasure=true plan-size=8 work-dir=/w quiet=true" 2>&1 | FileCheck %s
// RUN: dltune-opt %s --dump-pass-pipeline -o /dev/null --dltune-autotune 2>&1 | FileCheck %s --check-prefix=DEFAULTS
// RUN: dltune-opt %s --dump-pass-pipeline -o /dev/null --dltune-pipeline="plan-size=8 threads=1" 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not dltune-opt %s --dltune-autotune="bogus=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dltune-opt %s --dltune-autotune="trials=abc" 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not dltune-opt %s --dltune-pipeline="bogus=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK: dltune-autotune{anchor-tolerance=1.000000e-01 atol=1.000000e-04 build-timeout=6.000000e+01 chip= cold-factor=2.000000e+00 cold-filter=off confirm-repeats=2 confirm-top=3 cost-model= curve-reward=false db=dltune.db early-stop=200 entry= flush-caches=false gpu-reference=scheduled history=db history-refresh=2.000000e+00 jobs=1 latency-goal-ms=0.000000e+00 mem-limit-mb=4096 min-time-ms=5.000000e+01 plan-size=8 probe-share=5.000000e-01 quiet=true remeasure=true rtol=1.000000e-03 run-timeout=3.000000e+01 scheduler= seed=0 share-cap=false slot-trials=16 strategy=sa survey-phi=-2.500000e-01 survey-printed-rule=false target=cpu task-early-stop=0 time-budget=0.000000e+00 transfer=none trials=64 trials-per-task=0 tuning-set-explore=0.000000e+00 tuning-set-rerank=0 ucb-c=2.000000e+00 work-dir=/w worker=}
// DEFAULTS: dltune-autotune{anchor-tolerance=1.000000e-01 atol=-1.000000e+00 build-timeout=6.000000e+01 chip= cold-factor=2.000000e+00 cold-filter=off confirm-repeats=5 confirm-top=5 cost-model= curve-reward=false db=dltune.db early-stop=200 entry= flush-caches=false gpu-reference=scheduled history=db history-refresh=2.000000e+00 jobs=1 latency-goal-ms=0.000000e+00 mem-limit-mb=4096 min-time-ms=5.000000e+01 plan-size=64 probe-share=5.000000e-01 quiet=false remeasure=false rtol=-1.000000e+00 run-timeout=3.000000e+01 scheduler= seed=0 share-cap=false slot-trials=16 strategy=sa survey-phi=-2.500000e-01 survey-printed-rule=false target=cpu task-early-stop=0 time-budget=0.000000e+00 transfer=none trials=64 trials-per-task=0 tuning-set-explore=0.000000e+00 tuning-set-rerank=0 ucb-c=2.000000e+00 work-dir= worker=}
// PIPELINE: dltune-annotate{{[{].*}}default-config=false {{.*}}target=cpu threads=1}
// PIPELINE: dltune-autotune{{.*}} plan-size=8 probe-share=5.000000e-01 quiet
// PIPELINE: dltune-lower-cpu
// UNKNOWN: no such option bogus
// VALUE: for the --trials option: 'abc' value invalid for long argument!

func.func @f() {
  return
}
