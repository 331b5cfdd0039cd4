// REQUIRES: ptxas
// A row kernel's GPU tuning task is the kernel the model runs: softmax's
// first reduction takes its fill and the ops after it over the same rows
// (the exponentials, the sum's fill and the sum, the division), all one
// launch with the frame the candidate names (GpuRowReduction.h). Host side
// only, against %fake_cuda (nothing computes: every candidate is a wrong
// result).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda dltune tune %s --target gpu --trials 1 --db %t/t.db --work-dir %t/w 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: reduction maximumf + subf+exp, fill, addf, divf 48x96,48
// RUN: cat %t/w/*/kernel-*.mlir | FileCheck %s
// CHECK: func.func @dltune_task(%{{.*}}: tensor<48x96xf32>) -> tensor<48x96xf32>
// CHECK: linalg.fill
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: linalg.fill
// CHECK: arith.addf
// CHECK: arith.divf
// The task's kernel, with a configuration set as the tuner sets it: one
// launch of 8 x 4 threads.
// RUN: sed 's/attrs =  {dltune.space/attrs = {dltune.config = #dltune.config<lanes = 8, rows = 4, vector = 4>, dltune.space/' %t/w/*/kernel-*.mlir > %t/kernel.mlir
// RUN: dltune-opt %t/kernel.mlir --pass-pipeline="builtin.module(dltune-apply,dltune-strip,dltune-lower-gpu{format=isa})" > %t/lowered.mlir
// RUN: grep -c gpu.launch_func %t/lowered.mlir | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// RUN: FileCheck %s --check-prefix=FRAME < %t/lowered.mlir
// FRAME: .maxntid 8, 4, 1

#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @softmax(%x: tensor<48x96xf32>) -> tensor<48x96xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<48x96xf32>) outs(%mi : tensor<48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<48xf32>
  %ee = tensor.empty() : tensor<48x96xf32>
  %exp = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<48x96xf32>, tensor<48xf32>) outs(%ee : tensor<48x96xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<48x96xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<48x96xf32>) outs(%si : tensor<48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<48xf32>
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<48x96xf32>, tensor<48xf32>) outs(%ee : tensor<48x96xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.divf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<48x96xf32>
  return %y : tensor<48x96xf32>
}
