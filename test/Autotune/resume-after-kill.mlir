// Every result is committed the moment it is measured: a tuner killed with
// SIGKILL loses at most the candidates in flight, and the rerun resumes
// from the database without measuring a configuration twice.
// RUN: rm -rf %t && mkdir -p %t
// With jobs=2 the first batch is {ok, hangs} (the default config first, then
// a hang injected with seed 25): the kill
// comes while the second candidate hangs, and the first one's record must
// already be in the database (a commit per batch would have none).
// Which configs hang depends on their text: the space is pinned to an AVX2
// target so the random candidates are the same on every host, and seed 25
// lets both defaults the tuner measures first run (the host's: reg_m = 4 on
// AVX2, 8 on AVX-512; seed 2 hung the AVX-512 one, and no record came).
// RUN: env DLTUNE_INJECT_FAULT=hang:0.5 DLTUNE_INJECT_SEED=25 timeout -s KILL 15 dltune-opt %s --dltune-annotate="threads=1 cpu-lanes=8 cpu-registers=16" --dltune-autotune="db=%t/k.db trials=200 jobs=2 min-time-ms=5 run-timeout=100 quiet=true" -o /dev/null || true
// RUN: dltune db records --db %t/k.db > %t/first.txt
// RUN: wc -l < %t/first.txt | FileCheck %s --check-prefix=SOME
// SOME: {{^[1-9]}}
// A second kill, this time while builds of two candidates run.
// RUN: timeout -s KILL 4 dltune-opt %s --dltune-annotate="threads=1 cpu-lanes=8 cpu-registers=16" --dltune-autotune="db=%t/k.db trials=200 jobs=2 min-time-ms=20 quiet=true" -o /dev/null || true
// RUN: dltune db records --db %t/k.db > %t/before.txt
// RUN: head -n $(wc -l < %t/first.txt) %t/before.txt | diff - %t/first.txt
// RUN: dltune-opt %s --dltune-annotate="threads=1 cpu-lanes=8 cpu-registers=16" --dltune-autotune="db=%t/k.db trials=30 jobs=2 min-time-ms=5 confirm-top=0 quiet=true" -o /dev/null
// RUN: dltune db records --db %t/k.db > %t/after.txt
// Everything recorded before the kills is still there, unchanged and first.
// RUN: head -n $(wc -l < %t/before.txt) %t/after.txt | diff - %t/before.txt
// RUN: cut -d' ' -f2 %t/after.txt | sort | uniq -d | count 0
// RUN: dltune db summary --db %t/k.db | FileCheck %s
// CHECK: {{^}}30 records

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
