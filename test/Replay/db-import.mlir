// Imports of other tuners' logs, export/import round trip, and refusal of
// bad input without damage.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune db import-kt %dltune_src/test/Inputs/kt-small.json --db %t/a.db | FileCheck %s --check-prefix=KT
// RUN: dltune db import-tophub %dltune_src/test/Inputs/tophub-small.log --db %t/a.db | FileCheck %s --check-prefix=TOPHUB
// RUN: dltune db summary --db %t/a.db | FileCheck %s --check-prefix=SUMMARY
// RUN: dltune db export --db %t/a.db -o %t/a.jsonl 2>&1 | FileCheck %s --check-prefix=EXPORT
// RUN: dltune db import %t/a.jsonl --db %t/b.db | FileCheck %s --check-prefix=IMPORT
// RUN: dltune db import %t/a.jsonl --db %t/b.db | FileCheck %s --check-prefix=AGAIN
// RUN: dltune db records --db %t/a.db > %t/a.txt
// RUN: dltune db records --db %t/b.db | diff - %t/a.txt
// A malformed log imports nothing; a non-database file is refused untouched.
// RUN: not dltune db import-tophub %dltune_src/test/Inputs/tophub-bad.log --db %t/a.db 2>&1 | FileCheck %s --check-prefix=BADLOG
// RUN: dltune db summary --db %t/a.db | FileCheck %s --check-prefix=SUMMARY
// RUN: cp %s %t/notadb
// RUN: not dltune db summary --db %t/notadb 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: diff %s %t/notadb
// RUN: not dltune db summary --db %t/missing.db 2>&1 | FileCheck %s --check-prefix=MISSING

// KT: imported 5 records (0 already present) in 1 tasks
// TOPHUB: imported 3 records (0 already present) in 2 tasks
// SUMMARY: schema v8, 3 tasks, 3 devices
// SUMMARY-DAG: test_kernel {{.*}} 5 1 1.5000 runtime_crash=1
// SUMMARY-DAG: dense_nopack.x86 {{.*}} 2 1 0.2000 runtime_crash=1
// SUMMARY-DAG: conv2d_nchw.cuda {{.*}} 1 0 0.0500
// SUMMARY: 8 records
// EXPORT: exported 8 records, 0 confirmations, 0 baselines
// IMPORT: imported 8 records (0 already present) in 3 tasks, 0 confirmations, 0 baselines
// AGAIN: imported 0 records (8 already present) in 3 tasks
// BADLOG: dltune: error: {{.*}}tophub-bad.log:1: not an AutoTVM log record: config must be an object with an 'entity' list (nothing was imported)
// FOREIGN: dltune: error: '{{.*}}notadb' is not a dltune database
// MISSING: dltune: error: database '{{.*}}missing.db' does not exist
