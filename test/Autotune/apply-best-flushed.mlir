// apply-best takes this machine's records timed with the caches flushed
// (tuner option flush-caches, a device of their own) before another
// machine's: here the other machine's records of the same task are all
// faster and name another configuration, and this machine has no records
// timed hot. Before 2026-11-30 apply-best looked for this machine's hot
// device only and then took the best of any device: the other machine's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune tune %s --trials 3 --threads 1 --flush-caches --confirm-top 0 --db %t/c.db --work-dir %t/w --quiet
// What apply-best gives this machine from its own records alone:
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-apply-best="db=%t/c.db" 2>&1 | grep -o 'dltune.config = #dltune.config<[^>]*>' > %t/best
// RUN: dltune db export --db %t/c.db -o %t/c.jsonl
// The other machine: every record gets one of this machine's other
// configurations and a time of 1 us.
// RUN: python3 %S/../Inputs/elsewhere_records.py %t/c.jsonl %t/else.jsonl %t/best
// RUN: dltune db import %t/else.jsonl --db %t/c.db
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-apply-best="db=%t/c.db" 2>&1 | FileCheck %s -DBEST="$(cat %t/best)"
// CHECK: linalg.matmul {[[BEST]]

func.func @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
