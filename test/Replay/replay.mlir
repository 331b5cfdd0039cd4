// Replay on a small recorded space: the recorded failure comes back as a
// crash, the simulated clock advances by compile + benchmark + framework
// time, and exhaustive search finds the recorded optimum.
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --strategy grid --trials 10 --report %t.csv | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --strategy random --trials 3 --seeds 4 --stochastic | FileCheck %s --check-prefix=SEEDS
// RUN: not dltune replay --dataset %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dltune replay --dataset %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --strategy magic 2>&1 | FileCheck %s --check-prefix=STRATEGY

// CHECK: test_kernel on Test GPU: 5 recorded configurations, optimum 1.5 ms
// CHECK: seed 0: 5 measurements (1 failed), best 1.5 ms = 1.000x optimum, simulated 2.9 s
// CSV: seed,trial,config,time_ms,best_time_ms,optimum_ms,sim_clock_s,status
// CSV-NEXT: 0,1,"block_x=32,tile=1",4,4,1.5,0.601,ok
// CSV-NEXT: 0,2,"block_x=32,tile=2",3,3,1.5,1.202,ok
// CSV-NEXT: 0,3,"block_x=64,tile=1",2.5,2.5,1.5,1.803,ok
// CSV-NEXT: 0,4,"block_x=64,tile=2",1.5,1.5,1.5,2.404,ok
// CSV-NEXT: 0,5,"block_x=128,tile=1",,1.5,1.5,2.905,runtime_crash
// SEEDS-COUNT-4: seed {{[0-3]}}: 3 measurements
// BAD: dltune: error: '{{.*}}replay.mlir' is not a Kernel Tuner cache (invalid JSON)
// MISSING: dltune: error: cannot open '{{.*}}.missing'
// STRATEGY: dltune: error: unknown search strategy 'magic' (known: random, grid, sa, evolutionary, bo)

// Model-based strategies run on the same loop (on 5 configurations they
// never get past the random start, but they must propose valid ones).
// Which model a strategy can use is checked when it is created.
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --strategy sa --trials 5 | FileCheck %s --check-prefix=SA
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --strategy bo --cost-model rf --trials 5 | FileCheck %s --check-prefix=SA
// RUN: not dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --strategy sa --cost-model nonesuch 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: not dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --strategy random --cost-model xgb 2>&1 | FileCheck %s --check-prefix=NOMODEL
// RUN: not dltune replay --dataset %dltune_src/test/Inputs/kt-small.json --strategy bo --cost-model xgb-reg 2>&1 | FileCheck %s --check-prefix=VARIANCE
// SA: seed 0: 5 measurements (1 failed), best 1.5 ms = 1.000x optimum
// MODEL: dltune: error: unknown cost model 'nonesuch' (known: xgb, xgb-reg, rf, dgp, gp)
// NOMODEL: dltune: error: strategy 'random' uses no cost model (cost model 'xgb' given); use sa, evolutionary or bo
// VARIANCE: dltune: error: strategy 'bo' needs a cost model with variance (rf, dgp, gp); 'xgb-reg' has none

// On a 216-point space the model-based strategies get past the random
// start: each run must fit its model (the count is printed) and propose
// from the model's plans. A strategy that never fits, or fits and ignores
// the model, prints no counts or 0 proposals and fails these checks.
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-grid.json --strategy sa --plan-size 16 --trials 48 | FileCheck %s --check-prefix=FIT
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-grid.json --strategy evolutionary --plan-size 16 --trials 48 | FileCheck %s --check-prefix=FIT
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-grid.json --strategy bo --plan-size 16 --trials 48 | FileCheck %s --check-prefix=FIT
// FIT: seed 0: 48 measurements ({{[0-9]+}} failed), best {{.*}}, 2 model fits, {{[1-9][0-9]*}} proposals from the model
