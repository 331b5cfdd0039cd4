// One model budget over the module's tasks: a task scheduler hands out slots
// (here round-robin, one measurement per slot, so each of the three tasks
// gets the same share), the table is followed by the model latency before
// (unscheduled, and with dltune's default configurations) and after and each
// task's share; a second run with a larger budget resumes from the database
// and measures only the difference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune tune %s --scheduler round-robin --trials 6 --slot-trials 1 --threads 1 --db %t/m.db --confirm-top 1 --confirm-repeats 3 2> %t/log.txt | FileCheck %s
// CHECK: task {{.*}} untuned ms default ms    best ms {{.*}} speed-up vs default  trials
// CHECK-DAG: {{^linalg.conv_2d_nhwc_hwcf .* +1 +[0-9.]+ +[0-9.]+ +[0-9.]+ .* [0-9.]+x +[0-9.]+x +2 +0 +[0-9.]+$}}
// CHECK-DAG: {{^elementwise maximumf .* [0-9.]+x +2 +0 +[0-9.]+$}}
// CHECK-DAG: {{^linalg.matmul .* [0-9.]+x +2 +0 +[0-9.]+$}}
// CHECK: model latency (tuned ops x task latency): untuned {{[0-9.]+}} ms, dltune's defaults {{[0-9.]+}} ms, now {{[0-9.]+}} ms ({{[0-9.]+}}x; {{[0-9.]+}}x over the defaults)
// CHECK: share of this run's 6 measurements: {{.*}} 33%; {{.*}} 33%; {{.*}} 33%;
// RUN: FileCheck %s --check-prefix=LOG < %t/log.txt
// LOG: model trial 1/6: [1/3] linalg.conv_2d_nhwc_hwcf
// LOG: model trial 2/6: [2/3] elementwise maximumf
// LOG: model trial 3/6: [3/3] linalg.matmul
// LOG: model trial 6/6:

// RUN: dltune tune %s --scheduler round-robin --trials 9 --slot-trials 1 --threads 1 --db %t/m.db --confirm-top 1 --confirm-repeats 3 2> %t/log2.txt | FileCheck %s --check-prefix=RESUMED
// RESUMED: share of this run's 3 measurements
// RUN: FileCheck %s --check-prefix=LOG2 < %t/log2.txt
// LOG2-NOT: model trial {{[1-6]}}/9
// LOG2: model trial 7/9

// Every task's default configuration is measured before the scheduler
// decides anything (here sequential, which would give the first task its
// whole share first), so the model starts from what it compiles to untuned.
// RUN: dltune tune %s --scheduler sequential --trials 5 --slot-trials 2 --threads 1 --db %t/s.db --confirm-top 0 2> %t/log3.txt
// RUN: FileCheck %s --check-prefix=DEFAULTS < %t/log3.txt
// DEFAULTS: model trial 1/5: [1/3] linalg.conv_2d_nhwc_hwcf
// DEFAULTS: model trial 2/5: [2/3] elementwise maximumf
// DEFAULTS: model trial 3/5: [3/3] linalg.matmul
// DEFAULTS: model trial 4/5: [1/3] linalg.conv_2d_nhwc_hwcf

// dynatune probes an untried task with half a slot (probe-share 0.5): after
// the three defaults, slots of 4 give each task 2 measurements, so 9
// measurements split evenly; with full first slots the costliest task (the
// conv) takes 4 more and one of the others gets only its default.
// RUN: dltune tune %s --scheduler dynatune --trials 9 --slot-trials 4 --threads 1 --db %t/d.db --confirm-top 0 | FileCheck %s --check-prefix=PROBE
// PROBE: share of this run's 9 measurements: {{.*}} 33%; {{.*}} 33%; {{.*}} 33%;
// RUN: dltune tune %s --scheduler dynatune --probe-share 1 --trials 9 --slot-trials 4 --threads 1 --db %t/f.db --confirm-top 0 | FileCheck %s --check-prefix=FULL
// FULL: share of this run's 9 measurements: linalg.conv_2d_nhwc_hwcf {{[^;]*}} 56%;

// The pass takes the same options; a per-task cap ends the run early.
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/p.db scheduler=dynatune trials=100 trials-per-task=2 slot-trials=2 confirm-top=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: share of this run's 6 measurements

// DynaTune's finish rule: a task that goes one measurement without
// improving is finished, so the run ends ("every task finished") long
// before its 30 measurements. A run with the paper's learning-curve reward
// and another UCB constant completes (that they reach the scheduler:
// unittests/Execution/TunerOptionsTest.cpp).
// RUN: dltune tune %s --scheduler round-robin --task-early-stop 1 --trials 30 --slot-trials 1 --threads 1 --db %t/e.db --confirm-top 0 | FileCheck %s --check-prefix=FINISH
// FINISH: share of this run's {{([0-9]|[12][0-9])}} measurements
// RUN: dltune tune %s --scheduler dynatune --curve-reward --ucb-c 0.5 --trials 9 --slot-trials 4 --threads 1 --db %t/c.db --confirm-top 0 | FileCheck %s --check-prefix=CURVE
// CURVE: share of this run's 9 measurements
// RUN: not dltune tune %s --scheduler gradient --curve-reward --db %t/x.db 2>&1 | FileCheck %s --check-prefix=CURVEOTHER
// CURVEOTHER: dltune: error: ucb-c and curve-reward apply to scheduler dynatune only
// RUN: not dltune tune %s --task-early-stop 5 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=FINISHNOSCHED
// FINISHNOSCHED: dltune: error: task-early-stop needs a scheduler
// RUN: not dltune tune %s --scheduler dynatune --ucb-c -1 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=UCB
// UCB: dltune: error: ucb-c must not be negative

// RUN: not dltune tune %s --scheduler nonesuch --db %t/x.db 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: dltune: error: unknown task scheduler 'nonesuch'
// RUN: not dltune tune %s --scheduler sequential --slot-trials 0 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=SLOT
// SLOT: slot-trials must be at least 1
// RUN: not dltune tune %s --scheduler gradient --share-cap --db %t/x.db 2>&1 | FileCheck %s --check-prefix=CAP
// CAP: dltune: error: share-cap applies to scheduler dynatune only
// RUN: not dltune tune %s --scheduler gradient --probe-share 0.25 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=PROBEOTHER
// PROBEOTHER: dltune: error: probe-share applies to scheduler dynatune only
// RUN: not dltune tune %s --scheduler dynatune --probe-share 0 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=PROBERANGE
// PROBERANGE: dltune: error: probe-share must be in (0, 1]

func.func @conv(%i: tensor<1x10x10x16xf32>, %f: tensor<3x3x16x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : tensor<1x10x10x16xf32>, tensor<3x3x16x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

func.func @relu(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x8x16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  return %relu : tensor<1x8x8x16xf32>
}

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
