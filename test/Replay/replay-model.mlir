// A model of two recorded tasks tuned under one budget. Round-robin with
// slots of 4: the first slot goes to grid_kernel, the next to test_kernel,
// whose 5 configurations run out in its second slot. Each row carries the
// model latency after it (2 x grid best + test best, the untuned median
// until a task beats it) and the simulated clock after its batch.
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler round-robin --strategy random --trials 12 --slot 4 --report %t.csv | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// CHECK: model: 2 tasks, untuned 10.15 ms, best reachable 3.6 ms
// CHECK: seed 0: 12 measurements, model latency 10.15 ms -> {{[0-9.]+}} ms ({{[0-9.]+}}x the best reachable), simulated {{[0-9.]+}} s, scheduler {{[0-9.]+}} s ({{[0-9.]+}}% of tuning time); trial budget spent
// CHECK: task weight untuned_ms best_ms optimum_ms budget%
// CHECK-NEXT: grid_kernel 2 3.7 {{[0-9.]+}} 1.05 66.7
// CHECK-NEXT: test_kernel 1 2.75 {{[0-9.]+}} 1.5 33.3
// CSV: seed,trial,task,config,time_ms,model_latency_ms,sim_clock_s
// CSV-NEXT: 0,1,grid_kernel,"a={{[0-9]+}},b={{[0-9]+}},c={{[0-9]+}}",{{[0-9.]*}},{{[0-9.]+}},{{[0-9.]+}}
// CSV-COUNT-3: 0,{{[2-4]}},grid_kernel,
// CSV-NEXT: 0,5,test_kernel,"block_x={{[0-9]+}},tile={{[12]}}",{{[0-9.]*}},{{[0-9.]+}},{{[0-9.]+}}
// CSV-COUNT-3: 0,{{[6-8]}},test_kernel,
// CSV-COUNT-4: 0,{{9|1[0-2]}},grid_kernel,
// CSV-NOT: test_kernel

// dynatune probes an untried task with half a slot (--probe-share 0.5):
// with slots of 8, grid_kernel (weight x untuned 7.4 ms, the costlier)
// gets 4 measurements, then test_kernel 4; with full first slots
// (--probe-share 1, the paper's) grid_kernel takes all 8.
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler dynatune --strategy random --trials 8 --slot 8 --report %t.probe.csv
// RUN: FileCheck %s --check-prefix=PROBE < %t.probe.csv
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler dynatune --probe-share 1 --strategy random --trials 8 --slot 8 --report %t.full.csv
// RUN: FileCheck %s --check-prefix=FULL < %t.full.csv
// PROBE: seed,trial,task
// PROBE-COUNT-4: {{^}}0,{{[1-4]}},grid_kernel,
// PROBE-COUNT-4: {{^}}0,{{[5-8]}},test_kernel,
// FULL: seed,trial,task
// FULL-COUNT-8: {{^}}0,{{[1-8]}},grid_kernel,
// FULL-NOT: test_kernel
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --probe-share 0 2>&1 | FileCheck %s --check-prefix=PROBESHARE
// PROBESHARE: dltune: error: dynatune needs C >= 0, an even number of walkers >= 4, at least 2 MCMC steps, 1 posterior sample and a probe share in (0, 1]

// Every scheduler runs the model to its budget; exhaustive search on both
// (grid) with a budget that covers both spaces reaches the best reachable
// model latency. Two seeds give two runs.
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler sequential --strategy grid --trials 221 --early-stop 0 | FileCheck %s --check-prefix=ALL
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler dynatune --strategy grid --trials 221 | FileCheck %s --check-prefix=ALL
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler dynatune --curve-reward --cost-aware --strategy grid --trials 221 | FileCheck %s --check-prefix=ALL
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler dynatune --share-cap --strategy grid --trials 221 | FileCheck %s --check-prefix=ALL
// ALL: 221 measurements, model latency 10.15 ms -> 3.6 ms (1.000x the best reachable)
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler gradient --strategy sa --plan-size 16 --first-fit 16 --trials 40 --seeds 2 | FileCheck %s --check-prefix=SEEDS
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --scheduler gradient-ms --trials 8 | FileCheck %s --check-prefix=ONE
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --scheduler flops --trials 8 | FileCheck %s --check-prefix=ONE
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --scheduler random --trials 8 | FileCheck %s --check-prefix=ONE

// A task without a GFLOP count takes it from its recording's GFLOP/s x time
// (median over the ok entries that have one); a given count wins.
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-gflops.json --task %dltune_src/test/Inputs/kt-small.json --scheduler flops --trials 8 | FileCheck %s --check-prefix=FLOPS
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-gflops.json:1:5 --scheduler flops --trials 4 | FileCheck %s --check-prefix=GIVEN
// FLOPS: note: task flop_kernel: 2.000 GFLOP per call from its recorded GFLOP/s x time
// FLOPS-NOT: note: task test_kernel
// GIVEN-NOT: GFLOP per call
// SEEDS-COUNT-2: seed {{[01]}}: 40 measurements
// ONE: seed 0: 8 measurements

// A latency goal stops the run early; a per-task cap finishes every task.
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler round-robin --strategy grid --trials 500 --latency-goal 9 | FileCheck %s --check-prefix=GOAL
// GOAL: ; latency goal reached
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler round-robin --trials 500 --trials-per-task 3 | FileCheck %s --check-prefix=CAP
// CAP: seed 0: 6 measurements, {{.*}}; every task finished

// Bad arguments.
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --scheduler dynatune --paper-dynatune --share-cap 2>&1 | FileCheck %s --check-prefix=PAPERCAP
// PAPERCAP: dltune: error: --share-cap needs rewards in percent of the model latency, which --paper-dynatune turns off
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --scheduler magic 2>&1 | FileCheck %s --check-prefix=SCHED
// SCHED: dltune: error: unknown task scheduler 'magic' (known: sequential, round-robin, random, flops, gradient, gradient-ms, dynatune, survey)
// RUN: not dltune replay-model --task %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: dltune: error: cannot open '{{.*}}.missing'
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:-2 2>&1 | FileCheck %s --check-prefix=WEIGHT
// WEIGHT: dltune: error: --task '{{.*}}kt-grid.json:-2': weight and GFLOP must be positive
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --trials 0 2>&1 | FileCheck %s --check-prefix=TRIALS
// TRIALS: dltune: error: --trials must be at least 1
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --slot 0 2>&1 | FileCheck %s --check-prefix=SLOT
// SLOT: dltune: error: --slot must be at least 1
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --strategy magic 2>&1 | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: dltune: error: unknown search strategy 'magic'
// RUN: not dltune replay-model 2>&1 | FileCheck %s --check-prefix=NOTASK
// NOTASK: dltune: error: give the model's tasks with --task (or several models with --model)

// survey (Trimmer): epochs of one slot per task; after the third epoch the
// model's rate of improvement per second has slowed by more than a quarter
// and the run stops before its budget. As printed, Eq. 2 never stops a
// model that keeps getting faster: the whole budget is spent.
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler survey --strategy random --trials 40 --slot 4 | FileCheck %s --check-prefix=SURVEY
// SURVEY: seed 0: 13 measurements, {{.*}}; scheduler stopped
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-small.json --scheduler survey --survey-printed-rule --strategy random --trials 40 --slot 4 | FileCheck %s --check-prefix=PRINTED
// PRINTED: seed 0: 40 measurements, {{.*}}; trial budget spent
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-small.json --scheduler survey --survey-phi nan 2>&1 | FileCheck %s --check-prefix=PHI
// PHI: survey phi must be a finite number
