// dltune-pipeline: annotate, autotune against the database, apply the best
// configurations and lower to the LLVM dialect, in one pass pipeline.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-pipeline="db=%t/p.db trials=2 threads=1" 2>%t/log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t/log
// RUN: dltune db summary --db %t/p.db | FileCheck %s --check-prefix=DB
// Apply-best on a task the database does not know attaches the default
// configuration (an op without one would not be scheduled at all), or
// keeps the configuration the op already has.
// RUN: dltune-opt %dltune_src/test/Inputs/small-matmul.mlir --dltune-annotate \
// RUN:   --dltune-apply-best=db=%t/p.db 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: dltune-opt %dltune_src/test/Inputs/small-matmul.mlir --dltune-annotate=default-config=true \
// RUN:   --dltune-apply-best=db=%t/p.db 2>&1 | FileCheck %s --check-prefix=KEEP
// RUN: not dltune-opt %s --dltune-annotate --dltune-apply-best=db=%t/none.db 2>&1 | FileCheck %s --check-prefix=NODB

// CHECK: llvm.func @mm
// CHECK-NOT: linalg.
// LOG: [1/1] linalg.matmul 16x32,32x16,16x16: trial 2/2
// LOG: task {{.*}} untuned ms
// LOG-NEXT: linalg.matmul 16x32,32x16,16x16 1
// DB: 2 records
// UNKNOWN: remark: dltune-apply-best: no successful measurement of this task in '{{.*}}p.db'; the default configuration attached
// UNKNOWN: linalg.matmul {{.*}}dltune.config = #dltune.config<
// KEEP: remark: dltune-apply-best: no successful measurement of this task in '{{.*}}p.db'; keeps its configuration
// KEEP: linalg.matmul {{.*}}dltune.config = #dltune.config<
// NODB: error: dltune-apply-best: database '{{.*}}none.db' does not exist

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
