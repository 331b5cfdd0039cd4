// An export carries what decides the best configuration: a database rebuilt
// from it picks the same best (the confirmed one, not the fastest record),
// keeps the records' generator and the untuned times, and importing it twice
// adds nothing. Before 2026-11-27 confirmations were not exported and a
// rebuilt database ranked unconfirmed times.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/a.db trials=6 min-time-ms=1 confirm-top=2 confirm-repeats=3 quiet=true" -o /dev/null
// The confirmed best's own record is made the slowest: only the
// confirmation can make it the best.
// RUN: python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); best = c.execute('select config from confirmations order by median_ms limit 1').fetchone()[0]; c.execute('update records set time_ms = 1000 where config = ?', (best,)); c.commit()" %t/a.db
// RUN: dltune db best --db %t/a.db > %t/a-best.txt
// RUN: dltune db export --db %t/a.db -o %t/a.jsonl 2>&1 | FileCheck %s --check-prefix=EXPORT
// RUN: dltune db import %t/a.jsonl --db %t/b.db | FileCheck %s --check-prefix=IMPORT
// RUN: dltune db best --db %t/b.db | diff %t/a-best.txt -
// RUN: dltune db import %t/a.jsonl --db %t/b.db | FileCheck %s --check-prefix=AGAIN
// RUN: dltune db best --db %t/b.db | diff %t/a-best.txt -
// RUN: dltune db export --db %t/b.db -o %t/b.jsonl 2>&1 | FileCheck %s --check-prefix=EXPORT
// The records keep their generator: apply-best does not warn of an unknown one.
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-apply-best=db=%t/a.db -o %t/a-applied.mlir
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-apply-best=db=%t/b.db -o %t/b-applied.mlir 2> %t/b-warnings.txt
// RUN: diff %t/a-applied.mlir %t/b-applied.mlir
// RUN: count 0 < %t/b-warnings.txt

// EXPORT: exported 6 records, 2 confirmations, 1 baselines
// IMPORT: imported 6 records (0 already present) in 1 tasks, 2 confirmations, 1 baselines
// AGAIN: imported 0 records (6 already present) in 1 tasks, 0 confirmations, 0 baselines

func.func @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
