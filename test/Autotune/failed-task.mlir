// One bad task never aborts the others: the untuned reference of @div
// divides by the zeros among its deterministic inputs and dies on SIGFPE;
// that task is reported as not tuned, with the reason, and @mm is tuned
// and recorded. The pass fails (the exit status says the work was not
// all done); apply-best then gives @mm its tuned configuration.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/f.db trials=2 min-time-ms=1 confirm-top=1 confirm-repeats=3" 2> %t/log.txt
// RUN: FileCheck %s --check-prefix=LOG < %t/log.txt
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-apply-best="db=%t/f.db" 2> /dev/null | FileCheck %s
// CHECK-LABEL: func.func @mm
// CHECK: linalg.matmul {dltune.config =
// CHECK-LABEL: func.func @div
// CHECK: return
// LOG: not tuned: the untuned reference failed (runtime_crash)
// LOG: elementwise divsi {{.*}} not tuned: the untuned reference failed
// LOG: error: dltune-autotune: 1 of 2 tasks could not be tuned (elementwise divsi

func.func @mm(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

func.func @div(%x: tensor<64x64xi32>, %y: tensor<64x64xi32>, %o: tensor<64x64xi32>) -> tensor<64x64xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<64x64xi32>, tensor<64x64xi32>) outs(%o : tensor<64x64xi32>) {
  ^bb0(%a: i32, %b: i32, %out: i32):
    %q = arith.divsi %a, %b : i32
    linalg.yield %q : i32
  } -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}
