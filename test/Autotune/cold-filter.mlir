// Trimmer's cold-candidate filter (docs/trimmer.md) in live tuning and in
// replay: after 16 measurements a latency network is trained on the task's
// records and proposals whose nearest measured neighbours were all cold or
// failed are dropped before they are built; the task's note counts them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune tune %s --trials 24 --threads 1 --strategy sa --plan-size 8 --cold-filter trend --confirm-top 0 --db %t/t.db 2> %t/log.txt
// RUN: FileCheck %s < %t/log.txt
// CHECK: cold filter: dropped {{[0-9]+}} of {{[0-9]+}} proposals before building them (1 trainings, filter probability now 1.00)
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-grid.json --strategy sa --cost-model xgb --trials 60 --cold-filter nn --cold-factor 1.5 | FileCheck %s --check-prefix=REPLAY
// REPLAY: seed 0: 60 measurements {{.*}}, cold filter dropped {{[0-9]+}} of {{[0-9]+}} proposals (2 trainings)
// With history (the same kernel recorded on another device, its knobs in
// another order and one more): the network is pretrained before the first
// proposal, so there is one training more and proposals are dropped from
// the start.
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-grid.json --history %dltune_src/test/Inputs/kt-grid-device2.json --strategy sa --cost-model xgb --trials 60 --cold-filter nn --cold-factor 1.5 | FileCheck %s --check-prefix=PRIOR
// PRIOR: note: '{{.*}}kt-grid-device2.json': knob 'unroll' is not in the target space; dropped
// PRIOR: cold filter: history of 216 recorded configurations of 1 device(s)
// PRIOR: seed 0: {{[0-9]+}} measurements {{.*}}, cold filter dropped {{[1-9][0-9]*}} of {{[0-9]+}} proposals ({{[23]}} trainings)
// RUN: not dltune replay --dataset %dltune_src/test/Inputs/kt-grid.json --history %dltune_src/test/Inputs/kt-grid-device2.json 2>&1 | FileCheck %s --check-prefix=NOUSE
// NOUSE: --history is used only with --transfer or --cold-filter
// Live, the history option (default db) feeds it too: a second matmul
// tuned into the same database learns from the first one's records.
// RUN: FileCheck %s --check-prefix=FIRST < %t/log.txt
// FIRST: cold filter: no history for this task; it learns from its own measurements only
// RUN: dltune tune %dltune_src/test/Study/Inputs/one-matmul.mlir --trials 12 --threads 1 --strategy sa --plan-size 8 --cold-filter nn --confirm-top 0 --db %t/t.db 2> %t/second.txt
// RUN: FileCheck %s --check-prefix=SECOND < %t/second.txt
// SECOND: cold filter: history of 24 records of 1 source(s)
// (Fewer than the 16 measurements of a first training of its own: the one
// training is the pretraining.)
// SECOND: cold filter: dropped {{[0-9]+}} of {{[0-9]+}} proposals before building them (1 trainings
// With a task scheduler the history is read at the task's first slot, and
// again once the database's rows have grown (history-refresh, default 2x):
// the first task, which had none at its first slot, reads the second's 11
// rows (its default and its first slot) at its second slot.
// RUN: dltune tune %dltune_src/test/Autotune/transfer.mlir --scheduler round-robin --slot-trials 10 --trials 24 --threads 1 --strategy sa --plan-size 8 --cold-filter nn --confirm-top 0 --db %t/s.db 2> %t/sched.txt
// RUN: FileCheck %s --check-prefix=SCHED < %t/sched.txt
// SCHED: [1/2] linalg.matmul 64x64,64x64,64x64: cold filter: no history for this task
// SCHED: [2/2] linalg.matmul 64x128,128x64,64x64: cold filter: history of 11 records of 1 source(s)
// SCHED: [1/2] linalg.matmul 64x64,64x64,64x64: cold filter: the database's history grew from 0 to 11 rows since the last build; building it again
// SCHED-NEXT: [1/2] linalg.matmul 64x64,64x64,64x64: cold filter: history of 11 records of 1 source(s)
// RUN: dltune tune %dltune_src/test/Autotune/transfer.mlir --scheduler round-robin --slot-trials 10 --trials 24 --threads 1 --strategy sa --plan-size 8 --cold-filter nn --confirm-top 0 --history-refresh 0 --db %t/s0.db 2> %t/sched0.txt
// RUN: FileCheck %s --check-prefix=SCHED0 < %t/sched0.txt
// SCHED0: [1/2] linalg.matmul 64x64,64x64,64x64: cold filter: no history for this task
// SCHED0-NOT: building it again
// RUN: dltune replay --dataset %dltune_src/test/Inputs/kt-grid.json --strategy sa --cost-model xgb --trials 60 | FileCheck %s --check-prefix=OFF
// OFF-NOT: cold filter
// In replay-model every task's strategy is filtered; the counts are the
// model's.
// RUN: dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json:2 --task %dltune_src/test/Inputs/kt-grid-device2.json --scheduler round-robin --strategy random --trials 120 --slot 20 --cold-filter trend | FileCheck %s --check-prefix=MODEL
// MODEL: seed 0: 120 measurements
// MODEL-NEXT: cold filter dropped {{[1-9][0-9]*}} of {{[0-9]+}} proposals
// RUN: not dltune replay-model --task %dltune_src/test/Inputs/kt-grid.json --cold-filter x 2>&1 | FileCheck %s --check-prefix=MODELBAD
// MODELBAD: --cold-filter must be off, nn or trend, got 'x'
// RUN: not dltune tune %s --cold-filter on --db %t/x.db 2>&1 | FileCheck %s --check-prefix=BADNAME
// BADNAME: cold-filter must be off, nn or trend, got 'on'
// RUN: not dltune tune %s --cold-filter nn --cold-factor 0.5 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=BADFACTOR
// BADFACTOR: cold-factor must be a number above 1, got 0.5
// RUN: not dltune replay --dataset %dltune_src/test/Inputs/kt-grid.json --cold-filter yes 2>&1 | FileCheck %s --check-prefix=REPLAYBAD
// REPLAYBAD: --cold-filter must be off, nn or trend, got 'yes'
// RUN: not dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/x.db cold-filter=maybe" 2>&1 | FileCheck %s --check-prefix=PASSBAD
// PASSBAD: cold-filter must be off, nn or trend, got 'maybe'

func.func @mm(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
