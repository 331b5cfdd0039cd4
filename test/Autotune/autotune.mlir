// Two identical matmuls form one task (weight 2); a small budget; results
// in the database; the best config attached to both ops.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %dltune_src/test/Inputs/small-matmul.mlir --dltune-annotate=threads=2 \
// RUN:   --dltune-autotune="db=%t/a.db trials=4 seed=3 min-time-ms=5 quiet=true" 2>%t/log | FileCheck %s
// RUN: dltune db summary --db %t/a.db | FileCheck %s --check-prefix=SUMMARY
// Same seed, fresh database: the same candidates are proposed.
// RUN: dltune-opt %dltune_src/test/Inputs/small-matmul.mlir --dltune-annotate=threads=2 \
// RUN:   --dltune-autotune="db=%t/b.db trials=4 seed=3 min-time-ms=5 quiet=true" -o /dev/null
// RUN: dltune db records --db %t/a.db > %t/a.txt
// RUN: dltune db records --db %t/b.db > %t/b.txt
// RUN: diff %t/a.txt %t/b.txt
// Resuming with a larger budget adds only the missing trials.
// RUN: dltune-opt %dltune_src/test/Inputs/small-matmul.mlir --dltune-annotate=threads=2 \
// RUN:   --dltune-autotune="db=%t/a.db trials=6 seed=3 min-time-ms=5 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/a.db | FileCheck %s --check-prefix=RESUMED
// RUN: dltune db records --db %t/a.db | head -4 | diff - %t/a.txt
// The best configuration is applied from the database without measuring.
// RUN: dltune-opt %dltune_src/test/Inputs/small-matmul.mlir --dltune-annotate=threads=2 \
// RUN:   --dltune-apply-best=db=%t/a.db | FileCheck %s --check-prefix=BEST

// CHECK-LABEL: func.func @mm
// CHECK: linalg.matmul {dltune.config = #dltune.config<
// CHECK: linalg.matmul {dltune.config = #dltune.config<
// SUMMARY: schema v8, 1 tasks, 1 devices
// SUMMARY: linalg.matmul {{.*}} 4 0 {{[0-9.]+}}
// SUMMARY: 4 records
// RESUMED: 6 records
// BEST: linalg.matmul {dltune.config = #dltune.config<
