// `dltune db cost`: what tuning a task cost in build and measurement
// seconds and in modelled energy, its cold and failed candidates' shares,
// and the cost per millisecond saved against the untuned lowering.
// RUN: rm -rf %t && mkdir -p %t
// No meter (the made-up powercap tree is empty, whatever this machine has):
// modelled.
// RUN: mkdir -p %t/nopowercap
// RUN: env DLTUNE_POWERCAP_ROOT=%t/nopowercap dltune tune %s --trials 6 --threads 1 --db %t/t.db --confirm-top 0 2> /dev/null
// RUN: dltune db cost --db %t/t.db | FileCheck %s
// CHECK: energy modelled where no meter was read: 10 W per busy core (build: 1 core, measurement: the config's threads); cold: slower than 2x the best before it
// CHECK-NEXT: task device cands failed  cold   build s     run s   energy J  cold%  fail% untuned ms    best ms      s/ms      J/ms
// CHECK-NEXT: {{^[0-9a-f]{16} .* +6 +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ }}
// CHECK-NEXT: {{^total +6 }}
// CHECK-NEXT: s/ms, J/ms: seconds and modelled joules per millisecond
// The power model's watts scale the energy.
// RUN: dltune db cost --db %t/t.db --watts-per-core 20 --cold-factor 1.5 | FileCheck %s --check-prefix=WATTS
// WATTS: energy modelled where no meter was read: 20 W per busy core {{.*}}; cold: slower than 1.5x the best before it
// Against a baseline database of the same tasks: the reductions and the
// deep-GP paper's hypervolume (none when nothing is reduced: a database
// against itself).
// RUN: dltune db cost --db %t/t.db --baseline %t/t.db | FileCheck %s --check-prefix=SELF
// SELF: against the baseline {{.*}}t.db (1 task(s) tuned in both):
// SELF-NEXT: seconds energy J latency ms
// SELF-NEXT: this {{[0-9]+\.[0-9] +[0-9]+ +[0-9]+\.[0-9]{4}$}}
// SELF-NEXT: baseline {{[0-9]+\.[0-9] +[0-9]+ +[0-9]+\.[0-9]{4}$}}
// SELF-NEXT: reduction 0.0% 0.0% 0.00%
// SELF-NEXT: hypervolume (time): -, (energy): -
// Where a meter is readable each candidate's energy is metered (here a
// made-up RAPL tree whose counter does not move: 0 J each), and a metered
// database is compared with a modelled one by the power model.
// RUN: mkdir -p %t/powercap/intel-rapl:0 && echo 5000000 > %t/powercap/intel-rapl:0/energy_uj
// RUN: env DLTUNE_POWERCAP_ROOT=%t/powercap dltune tune %s --trials 4 --threads 1 --db %t/m.db --confirm-top 0 2> /dev/null
// RUN: dltune db cost --db %t/m.db | FileCheck %s --check-prefix=METERED
// METERED: {{^total +4 +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +0 }}
// METERED-NEXT: energy metered (RAPL/NVML: each candidate's share of its batch's builds, by build seconds, and its measurement) for 4 of 4 candidates; modelled for the rest ({{[0-9]+}} J of all candidates by the power model)
// METERED-NEXT: s/ms, J/ms: seconds and metered joules per millisecond
// RUN: dltune db cost --db %t/m.db --baseline %t/m.db | FileCheck %s --check-prefix=BOTHMETERED
// BOTHMETERED: seconds metered J latency ms
// RUN: dltune db cost --db %t/m.db --baseline %t/t.db | FileCheck %s --check-prefix=MIXED
// MIXED: seconds energy J latency ms
// MIXED-NEXT: this {{[0-9]+\.[0-9] +[1-9][0-9]* +}}
// RUN: dltune tune %S/../Study/Inputs/one-matmul.mlir --trials 2 --threads 1 --db %t/other.db --confirm-top 0 2> /dev/null > /dev/null
// RUN: not dltune db cost --db %t/t.db --baseline %t/other.db 2>&1 | FileCheck %s --check-prefix=DISJOINT
// DISJOINT: error: the baseline '{{.*}}other.db' has no task tuned in this database: nothing to compare
// RUN: not dltune db summary --db %t/t.db --baseline %t/t.db 2>&1 | FileCheck %s --check-prefix=BASEONLY
// BASEONLY: error: --baseline is an option of db cost only
// RUN: not dltune db cost --db %t/t.db --baseline %t/missing.db 2>&1 | FileCheck %s --check-prefix=NOBASE
// NOBASE: error: --baseline: {{.*}}missing.db
// RUN: not dltune db cost --db %t/t.db --task 0000000000000000 2>&1 | FileCheck %s --check-prefix=NOTASK
// NOTASK: no task '0000000000000000'
// RUN: not dltune db cost --db %t/t.db --cold-factor 1 2>&1 | FileCheck %s --check-prefix=FACTOR
// FACTOR: --cold-factor must be a number above 1, got 1
// RUN: not dltune db cost --db %t/t.db --watts-per-core nan 2>&1 | FileCheck %s --check-prefix=WATTSBAD
// WATTSBAD: --watts-per-core must be a positive number of watts, got nan
// RUN: not dltune db cost --db %t/none.db 2>&1 | FileCheck %s --check-prefix=NODB
// NODB: none.db
// RUN: not dltune db cost extra --db %t/t.db 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: db cost takes no file argument, got 'extra'

func.func @mm(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
