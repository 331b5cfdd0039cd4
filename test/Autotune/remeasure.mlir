// Transient failures are not forever, and old timings are not mixed in
// silently: `dltune db forget` and `remeasure` move records aside (kept in
// replaced_records) so that they are measured again; records of another
// generator are named on resume and by apply-best.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_INJECT_FAULT=crash dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/r.db trials=2 min-time-ms=1 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/r.db | FileCheck %s --check-prefix=CRASHED
// CRASHED: 2 2 - runtime_crash=2
// RUN: not dltune db forget --db %t/r.db 2>&1 | FileCheck %s --check-prefix=NOFILTER
// NOFILTER: db forget needs --task, --status or --older-than-days
// RUN: not dltune db forget --db %t/r.db --status exploded 2>&1 | FileCheck %s --check-prefix=BADSTATUS
// BADSTATUS: unknown status 'exploded'
// RUN: dltune db forget --db %t/r.db --status runtime_crash | FileCheck %s --check-prefix=FORGET
// FORGET: moved 2 records to replaced_records
// The same two configurations (same seed) are measured again, now without
// the fault.
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/r.db trials=2 min-time-ms=1 confirm-top=1 confirm-repeats=3 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/r.db | FileCheck %s --check-prefix=AGAIN
// AGAIN: 2 0 {{[0-9.]+}}
// Records of an older generator: named on resume and by apply-best.
// RUN: python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"update records set generator = 'dltune 0.1.0; LLVM 21.1.0; schedules 1'\"); c.commit()" %t/r.db
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/r.db trials=2 min-time-ms=1 confirm-top=0" -o /dev/null 2> %t/resume.txt
// RUN: FileCheck %s --check-prefix=OLDGEN < %t/resume.txt
// OLDGEN: warning: {{.*}}: 2 earlier records come from dltune 0.1.0; LLVM 21.1.0; schedules 1, not dltune {{.*}}; they are resumed as they are (use remeasure to measure them again)
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-apply-best=db=%t/r.db -o /dev/null 2>&1 | FileCheck %s --check-prefix=APPLY
// APPLY: warning: dltune-apply-best: the best configuration in '{{.*}}' was measured with dltune 0.1.0; LLVM 21.1.0; schedules 1
// remeasure moves them aside and measures again.
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/r.db trials=2 min-time-ms=1 confirm-top=1 confirm-repeats=3 remeasure=true" -o /dev/null 2> %t/remeasure.txt
// RUN: FileCheck %s --check-prefix=REMEASURE < %t/remeasure.txt
// REMEASURE: 2 earlier records moved to replaced_records, measuring again
// REMEASURE-NOT: come from
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-apply-best=db=%t/r.db 2>&1 | FileCheck %s --check-prefix=FRESH
// FRESH-NOT: was measured with
// FRESH: linalg.matmul {dltune.config = #dltune.config<
// A record from before a knob existed (no pack_a/pack_b) does not fit the
// space: apply-best says so and attaches the default configuration, not a
// guess at the record's missing knobs (without one the op would not be
// scheduled at all).
// RUN: cp %t/r.db %t/old.db
// RUN: python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); [c.execute(\"update \" + t + \" set config = replace(config, ?, '')\", (v,)) for t in ('records', 'confirmations') for v in (',pack_a=0', ',pack_a=1', ',pack_b=0', ',pack_b=1')]; c.commit()" %t/old.db
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-apply-best=db=%t/old.db 2>&1 | FileCheck %s --check-prefix=NOFIT
// NOFIT: warning: dltune-apply-best: the recorded configuration '{{[^']*}}' does not fit this task's space ({{.*}}pack_a{{.*}}); re-tune it; the default configuration attached
// NOFIT: linalg.matmul {dltune.config = #dltune.config<

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
