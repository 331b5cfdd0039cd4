// Transfer learning in a live run (docs/cost-models.md): the second matmul
// learns from the first one's records in the database (same op, other
// shape); the first has no history and starts cold. Bad combinations are
// refused before anything is measured.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune tune %s --trials 10 --threads 1 --strategy sa --transfer dm --cost-model xgb --plan-size 4 --confirm-top 0 --db %t/t.db 2> %t/log.txt
// RUN: FileCheck %s < %t/log.txt
// The table gets a column of transfer's own seconds (both tasks built a
// transfer; the first found no history), and the JSON a transfer_s.
// RUN: dltune tune %s --trials 10 --threads 1 --strategy sa --transfer dm --cost-model xgb --plan-size 4 --confirm-top 0 --db %t/t.db 2>/dev/null | FileCheck %s --check-prefix=TABLE
// TABLE: trials failed   time s  transfer s
// TABLE-NEXT: linalg.matmul 64x64,64x64,64x64 {{.*}} {{[0-9]+\.[0-9]}}{{ +}}{{[0-9]+\.[0-9]}}{{$}}
// TABLE-NEXT: linalg.matmul 64x128,128x64,64x64 {{.*}} {{[0-9]+\.[0-9]}}{{ +}}{{[0-9]+\.[0-9]}}{{$}}
// RUN: dltune tune %s --trials 10 --threads 1 --strategy sa --transfer dm --cost-model xgb --plan-size 4 --confirm-top 0 --db %t/t.db --json 2>/dev/null | FileCheck %s --check-prefix=JSON
// JSON: "transfer_s":{{[0-9.e-]+}}
// Without transfer, neither.
// RUN: dltune tune %s --trials 2 --threads 1 --confirm-top 0 --db %t/t.db 2>/dev/null | FileCheck %s --check-prefix=NOTRANSFER
// RUN: dltune tune %s --trials 2 --threads 1 --confirm-top 0 --db %t/t.db --json 2>/dev/null | FileCheck %s --check-prefix=NOTRANSFERJSON
// NOTRANSFER: trials failed   time s{{$}}
// NOTRANSFERJSON: "transfer_s":null
// CHECK: [1/2] linalg.matmul 64x64,64x64,64x64: transfer: no history for this task (no other linalg.matmul task, and not this task on another device, with 8 ok records); starting cold
// CHECK: [2/2] linalg.matmul 64x128,128x64,64x64: transfer: history of 1 other task(s) and of this task from 0 other device(s) or database(s)
// CHECK-NOT: featurised as
// CHECK: [2/2] linalg.matmul 64x128,128x64,64x64: transfer (dm): xgb pretrained on 10 configurations of 1 source(s)
// The pass takes the same options; now each task has the other's records
// (the first task measures 2 more before the second pretrains on its 12).
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/t.db trials=12 strategy=sa transfer=dm cost-model=xgb plan-size=4 confirm-top=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: [1/2] linalg.matmul 64x64,64x64,64x64: transfer (dm): xgb pretrained on 10 configurations of 1 source(s)
// PASS: [2/2] linalg.matmul 64x128,128x64,64x64: transfer (dm): xgb pretrained on 12 configurations of 1 source(s)

// With a task scheduler, a task's transfer is built at its first slot, so
// the second task learns from the first one's first slot in the same run
// (both were prepared, and their defaults measured, before the first slot:
// the first task has 1 + 10 records).
// RUN: dltune tune %s --scheduler round-robin --slot-trials 10 --trials 24 --threads 1 --strategy sa --transfer dm --cost-model xgb --plan-size 4 --confirm-top 0 --db %t/s.db 2> %t/sched.txt
// RUN: FileCheck %s --check-prefix=SCHED < %t/sched.txt
// SCHED: [1/2] linalg.matmul 64x64,64x64,64x64: transfer: no history for this task
// SCHED: [2/2] linalg.matmul 64x128,128x64,64x64: transfer (dm): xgb pretrained on 11 configurations of 1 source(s)
// The first task, cold at its first slot, builds its transfer at its second
// (history-refresh, default 2): the database's history went from none to
// the second task's 11 rows.
// SCHED: [1/2] linalg.matmul 64x64,64x64,64x64: transfer: the database's history grew from 0 to 11 rows since the last build; building it again
// SCHED-NEXT: [1/2] linalg.matmul 64x64,64x64,64x64: transfer: history of 1 other task(s)
// SCHED-NEXT: [1/2] linalg.matmul 64x64,64x64,64x64: transfer (dm): xgb pretrained on 11 configurations of 1 source(s)
// With history-refresh=0 it stays cold.
// RUN: dltune tune %s --scheduler round-robin --slot-trials 10 --trials 24 --threads 1 --strategy sa --transfer dm --cost-model xgb --plan-size 4 --confirm-top 0 --history-refresh 0 --db %t/s0.db 2> %t/sched0.txt
// RUN: FileCheck %s --check-prefix=NOREFRESH < %t/sched0.txt
// NOREFRESH: [1/2] linalg.matmul 64x64,64x64,64x64: transfer: no history for this task
// NOREFRESH-NOT: building it again
// NOREFRESH-NOT: [1/2] linalg.matmul 64x64,64x64,64x64: transfer (dm)

// The same task measured on another device is history too, with that
// device's features: t.db exported, its device renamed and given 64 cores,
// imported into a fresh database. Both tasks then learn from both tasks'
// records on the other device.
// RUN: dltune db export --db %t/t.db -o %t/t.jsonl
// RUN: sed -e 's/"fingerprint":"[^"]*"/"fingerprint":"cpu-elsewhere"/' -e 's/\\"cores\\":[0-9]*/\\"cores\\":64/' %t/t.jsonl > %t/elsewhere.jsonl
// RUN: dltune db import %t/elsewhere.jsonl --db %t/e.db
// RUN: dltune tune %s --trials 2 --threads 1 --strategy sa --transfer dm --cost-model xgb --plan-size 4 --confirm-top 0 --db %t/e.db 2> %t/elsewhere.txt
// RUN: FileCheck %s --check-prefix=DEVICE < %t/elsewhere.txt
// DEVICE: [1/2] linalg.matmul 64x64,64x64,64x64: transfer: history of 1 other task(s) and of this task from 1 other device(s) or database(s)
// DEVICE: [1/2] linalg.matmul 64x64,64x64,64x64: transfer (dm): xgb pretrained on 24 configurations of 2 source(s) in
// Each row is featurised with its own task and device, not the target's,
// so the second task's pretraining set is the first one's: the model is
// reused (with the target's loop sizes the sets would differ).
// DEVICE: [2/2] linalg.matmul 64x128,128x64,64x64: transfer (dm): xgb pretrained on 24 configurations of 2 source(s), reused
// A database given by path is history the same way (its device ids are its
// own: even this machine's records of the task are history there).
// RUN: dltune tune %s --trials 2 --threads 1 --strategy sa --transfer dm --cost-model xgb --plan-size 4 --confirm-top 0 --db %t/p.db --history %t/t.db 2> %t/path.txt
// RUN: FileCheck %s --check-prefix=PATH < %t/path.txt
// PATH: [1/2] linalg.matmul 64x64,64x64,64x64: transfer: history of 1 other task(s) and of this task from 1 other device(s) or database(s)
// PATH: [1/2] linalg.matmul 64x64,64x64,64x64: transfer (dm): xgb pretrained on 24 configurations of 2 source(s)
// A small history pretrains the deep GP for 300 Adam steps, not the 2000
// a recorded space of thousands of rows gets, and with at most 48 inducing
// points, not 100 (the cached model's name carries the sizes; here the 24
// rows are fewer, so 24 are used).
// RUN: dltune tune %s --trials 2 --threads 1 --strategy sa --transfer map --confirm-top 0 --db %t/m.db --history %t/t.db --work-dir %t/mw 2> %t/map.txt
// RUN: FileCheck %s --check-prefix=STEPS < %t/map.txt
// STEPS: [1/2] linalg.matmul 64x64,64x64,64x64: transfer (map): dgp pretrained on 24 configurations of 2 source(s) in {{[0-9.]+}} s (300 Adam steps, 24 inducing points)
// RUN: ls %t/mw/pretrained | FileCheck %s --check-prefix=SIZES
// SIZES: dgp-{{[0-9A-F]+}}-seed0-L2-M48-H0-it300.json
// RUN: not dltune tune %s --transfer dm --strategy sa --cost-model xgb --history %t/missing.db --trials 2 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=NODB
// NODB: history database '{{.*}}missing.db' does not exist

// RUN: not dltune tune %s --transfer map --strategy random --db %t/x.db 2>&1 | FileCheck %s --check-prefix=RANDOM
// RANDOM: transfer=map needs strategy sa or evolutionary
// RUN: not dltune tune %s --transfer mapp --strategy sa --db %t/x.db 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: transfer must be one of none, dm, map, lms, nlms, gs, got 'mapp'
// RUN: not dltune tune %s --transfer gs --strategy sa --cost-model xgb --db %t/x.db 2>&1 | FileCheck %s --check-prefix=GSMODEL
// GSMODEL: transfer=gs pretrains no model: leave cost-model out (its learner is xgb), got 'xgb'
// RUN: not dltune tune %s --transfer map --strategy sa --cost-model xgb --db %t/x.db 2>&1 | FileCheck %s --check-prefix=MAPXGB
// MAPXGB: transfer=map adapts a deep GP: cost-model must be dgp
// RUN: not dltune tune %s --transfer map --strategy sa --tuning-set-explore 2 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=EXPLORE
// EXPLORE: tuning-set-explore is a share between 0 and 1, got 2
// RUN: not dltune tune %s --transfer map --strategy sa --tuning-set-explore nan --db %t/x.db 2>&1 | FileCheck %s --check-prefix=EXPLORENAN
// EXPLORENAN: tuning-set-explore is a share between 0 and 1, got nan
// RUN: not dltune tune %s --transfer map --strategy sa --tuning-set-rerank -3 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=RERANK
// RERANK: tuning-set-rerank must be >= 0, got -3
// RUN: not dltune tune %s --transfer dm --strategy sa --cost-model xgb --tuning-set-explore 0.25 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=NOVARIANCE
// NOVARIANCE: tuning-set-explore needs transfer with a pretrained model that has a variance (cost-model dgp, the default, gp or rf), got transfer=dm cost-model='xgb'
// RUN: not dltune tune %s --transfer dm --strategy sa --tuning-set-rerank 8 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=RERANKDM
// RERANKDM: tuning-set-rerank needs transfer=map, got 'dm'
// RUN: not dltune tune %s --transfer dm --strategy sa --history %t/none.json --trials 2 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: cannot open '{{.*}}none.json'
// RUN: not dltune tune %s --transfer dm --strategy sa --history-refresh 1 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=REFRESH
// REFRESH: history-refresh must be 0 (off) or a factor above 1, got 1

func.func @mm1(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
func.func @mm2(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
