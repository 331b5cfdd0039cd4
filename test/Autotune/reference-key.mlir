// A reference output is trusted only with the key of the kernel it was made
// from: a foreign one (here another task's, copied over) is rebuilt, and no
// candidate is ever compared with it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/r.db trials=1 min-time-ms=1 confirm-top=0 quiet=true" -o /dev/null
// RUN: cd %t/r.db.work && set -- $(ls) && cp $1/reference.bin $2/reference.bin && cp $1/reference.bin.key $2/reference.bin.key
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/r.db trials=3 min-time-ms=1 confirm-top=0" -o /dev/null 2> %t/log.txt
// RUN: FileCheck %s --check-prefix=LOG < %t/log.txt
// RUN: dltune db summary --db %t/r.db | FileCheck %s
// LOG-COUNT-1: running the untuned reference
// CHECK: 6 records
// CHECK-NOT: wrong_result
// CHECK-NOT: runtime_crash

// A measure worker refuses a reference whose key is not the kernel's.
// RUN: not dltune worker measure --kernel $(ls %t/r.db.work/*/kernel-*.mlir | head -1) --so /nonexistent.so --reference $(ls -d %t/r.db.work/*/ | head -1)reference.bin --reference-key bogus --config x=1 2>&1 | FileCheck %s --check-prefix=WORKER
// WORKER: was made from another kernel

func.func @mm(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

func.func @add(%x: tensor<16x16xf32>, %y: tensor<16x16xf32>, %o: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<16x16xf32>, tensor<16x16xf32>) outs(%o : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
