// The autotune pass with a model-based strategy: past the first plan (set
// small here) the cost model, fed with schedule features, picks candidates.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate=threads=2 --dltune-autotune="db=%t/m.db trials=10 plan-size=4 strategy=sa cost-model=xgb min-time-ms=5 quiet=true" | FileCheck %s
// RUN: dltune db summary --db %t/m.db | FileCheck %s --check-prefix=DB
// RUN: not dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/x.db strategy=annealing" 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: linalg.matmul {dltune.config = #dltune.config<
// DB: 10 records
// BAD: error: dltune-autotune: unknown search strategy 'annealing'

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
