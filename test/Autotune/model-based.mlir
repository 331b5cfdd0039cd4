// The autotune pass with a model-based strategy: past the first plan (set
// small here) the cost model, fed with schedule features, picks candidates.
// The progress output proves it: fits at 4 and 8 measurements, and
// candidates taken from the model's plans (a strategy that never fitted
// prints no such line; one that ignored its model would count 0).
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate=threads=2 --dltune-autotune="db=%t/m.db trials=10 plan-size=4 strategy=sa cost-model=xgb min-time-ms=5" \
// RUN:   2>%t/progress | FileCheck %s
// RUN: FileCheck %s --check-prefix=MODEL < %t/progress
// RUN: dltune db summary --db %t/m.db | FileCheck %s --check-prefix=DB
// RUN: not dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/x.db strategy=annealing" 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: linalg.matmul {dltune.config = #dltune.config<
// MODEL: cost model: 2 fits, {{[1-9][0-9]*}} candidates proposed from its plans
// DB: 10 records
// BAD: error: dltune-autotune: unknown search strategy 'annealing'

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
