// A tuner killed with SIGKILL loses at most the candidate in flight; the
// rerun resumes from the database and never measures a config twice.
// RUN: rm -rf %t && mkdir -p %t
// RUN: timeout -s KILL 3 dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/k.db trials=200 min-time-ms=20 quiet=true" -o /dev/null || true
// RUN: dltune db records --db %t/k.db > %t/before.txt
// RUN: dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/k.db trials=30 min-time-ms=5 quiet=true" -o /dev/null
// RUN: dltune db records --db %t/k.db > %t/after.txt
// Everything recorded before the kill is still there, unchanged and first.
// RUN: head -n $(wc -l < %t/before.txt) %t/after.txt | diff - %t/before.txt
// RUN: cut -d' ' -f2 %t/after.txt | sort | uniq -d | count 0
// RUN: dltune db summary --db %t/k.db | FileCheck %s
// CHECK: {{^}}30 records

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
