// REQUIRES: ptxas
// A row kernel's frame is a space of its own (GpuRowReduction.h,
// GpuRowTiles): the first reduction of softmax carries the lanes a row,
// the rows a block and the widest vector a lane takes, and the whole
// softmax (one launch) takes them. Checked against the untuned CPU
// lowering by the CPU emulation of the kernels with the frame the input
// names (8 lanes, 16 rows, 2-wide vectors), another (32 lanes, 32 rows:
// 1024 threads, scalar) and the space's default (--default-config).
// RUN: dltune run %s --entry softmax --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: sed 's/lanes = 8, rows = 16, vector = 2/lanes = 32, rows = 32, vector = 1/' %s > %t.wide.mlir
// RUN: dltune run %t.wide.mlir --entry softmax --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: sed 's/dltune.gpu_kernel = {lanes = 8, rows = 16, vector = 2},//' %s > %t.plain.mlir
// RUN: dltune run %t.plain.mlir --entry softmax --target gpu --default-config --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// A reduction whose input's producer (x * x) the element-wise fusion folds
// into it keeps its frame (upstream's fusion builds a new op without the
// reduction's attributes; --dltune-lower-gpu moves them over).
// RUN: dltune run %s --entry sum_of_squares --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s

// The PTX has the frame: blocks of 8 x 16 threads, 3 butterfly shuffles a
// reduction (clusters of 8 lanes), 2-wide loads and no 4-wide ones; the
// other frame 32 x 32 threads, 5 shuffles a reduction, scalar loads; the
// default (no tiles) 32 x 8 threads and 4-wide loads; the sum of squares 4
// x 8 threads.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX-LABEL: gpu.binary @softmax_kernel
// PTX-SAME: .maxntid 8, 16, 1
// PTX-COUNT-6: shfl.sync.bfly.b32
// PTX-NOT: shfl.sync
// PTX-SAME: "
// PTX-LABEL: gpu.binary @sum_of_squares_kernel
// PTX-SAME: .maxntid 4, 8, 1
// RUN: grep 'gpu.binary @softmax_kernel' %t.ptx | grep -q ld.global.v2.b32
// RUN: grep 'gpu.binary @softmax_kernel' %t.ptx | not grep -q ld.global.v4
// RUN: dltune-opt %t.wide.mlir --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null > %t.wide.ptx
// RUN: FileCheck %s --check-prefix=WIDE < %t.wide.ptx
// WIDE-LABEL: gpu.binary @softmax_kernel
// WIDE-SAME: .maxntid 32, 32, 1
// WIDE-COUNT-10: shfl.sync.bfly.b32
// WIDE-NOT: shfl.sync
// WIDE-SAME: "
// RUN: grep 'gpu.binary @softmax_kernel' %t.wide.ptx | not grep -q ld.global.v
// RUN: dltune-opt %t.plain.mlir --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=PLAIN
// PLAIN-LABEL: gpu.binary @softmax_kernel
// PLAIN-SAME: .maxntid 32, 8, 1
// PLAIN-SAME: ld.global.v4.b32

#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @softmax(%x: tensor<48x96xf32>) -> tensor<48x96xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  %max = linalg.generic {dltune.gpu_kernel = {lanes = 8, rows = 16, vector = 2},
                        indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
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

func.func @sum_of_squares(%x: tensor<48x96xf32>) -> tensor<48xf32> {
  %zero = arith.constant 0.0 : f32
  %ee = tensor.empty() : tensor<48x96xf32>
  %sq = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<48x96xf32>) outs(%ee : tensor<48x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<48x96xf32>
  %e = tensor.empty() : tensor<48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  %sum = linalg.generic {dltune.gpu_kernel = {lanes = 4, rows = 8, vector = 2},
                         indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<48x96xf32>) outs(%z : tensor<48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<48xf32>
  return %sum : tensor<48xf32>
}
