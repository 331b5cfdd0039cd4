// The ops over the rows of a row reduction join its kernel
// (--dltune-lower-gpu, with fuse-epilogues and row-reductions, both on by
// default): softmax and a layer norm are one launch each, with a barrier
// between the steps that read what an earlier one wrote. Checked against
// the untuned CPU lowering by the CPU emulation of the kernels (no GPU
// needed): a scaled softmax over 64 rows of 100 (8 blocks; the scale is an
// element-wise step before the first reduction), a layer norm in the
// encoder's form (in place: the centring overwrites the input, the
// variance reads it back; gamma and beta arguments read along the row), a
// row-wise op that reads OTHER rows' sums (it must not join: the sums of
// later blocks are not computed yet when an earlier block runs), and
// reductions over different rows (two kernels), and rows read at an odd
// offset (a slice from column 1: no vector loads there, 2-wide ones where
// the rows of 50 are 8-byte aligned).
// RUN: dltune run %s --entry scaled_softmax --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry layer_norm_in_place --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry reads_other_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry different_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry offset_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// Launches: one for the softmax and one for the layer norm; two where a
// step reads other rows, or the rows differ. With fuse-epilogues=false,
// each reduction is a kernel of its own and the element-wise ops loops
// (softmax: 5 launches).
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=LAUNCHES
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa fuse-epilogues=false})" 2>/dev/null | FileCheck %s --check-prefix=APART
// LAUNCHES-LABEL: llvm.func @scaled_softmax(
// LAUNCHES-COUNT-1: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// LAUNCHES-LABEL: llvm.func @layer_norm_in_place(
// LAUNCHES-COUNT-1: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// LAUNCHES-LABEL: llvm.func @reads_other_rows(
// LAUNCHES-COUNT-2: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// LAUNCHES-LABEL: llvm.func @different_rows(
// LAUNCHES-COUNT-2: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// LAUNCHES-LABEL: llvm.func @offset_rows(
// LAUNCHES-COUNT-1: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// APART-LABEL: llvm.func @scaled_softmax(
// APART-COUNT-5: gpu.launch_func
// APART-NOT: gpu.launch_func
// APART-LABEL: llvm.func @layer_norm_in_place(

// The softmax kernel: blocks of 32 x 8 threads, the two reductions' shuffles
// (5 each), and the barriers: after the scale (the max reads it), after the
// max (the exponentials read it), after them (the sum), after the sum (the
// division); the scale writes in place, so the exponentials may not run
// before the max has read it all.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=PTX
// Each step's lane takes 4 consecutive elements of its row at once: 16-byte
// loads and stores (the scale's, the max's, the exponentials', the sum's,
// the division's).
// PTX-LABEL: gpu.binary @scaled_softmax_kernel
// PTX-SAME: .maxntid 32, 8, 1
// PTX-COUNT-4: bar.sync
// PTX-NOT: bar.sync
// PTX-SAME: "
// PTX-LABEL: gpu.binary @layer_norm_in_place_kernel
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null > %t
// RUN: FileCheck %s --check-prefix=VEC < %t
// RUN: FileCheck %s --check-prefix=STORES < %t
// STORES-LABEL: gpu.binary @scaled_softmax_kernel
// STORES-COUNT-3: st.global.v4.b32
// STORES-NOT: st.global.v4
// STORES-SAME: "
// VEC-LABEL: gpu.binary @scaled_softmax_kernel
// VEC-COUNT-5: ld.global.v4.b32
// VEC-NOT: ld.global.v4
// VEC-SAME: "
// VEC-LABEL: gpu.binary @offset_rows_kernel
// VEC-NOT: ld.global.v4
// VEC: ld.global.v2.b32
// VEC-NOT: ld.global.v4
// VEC-SAME: "

#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#rows3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row3c = affine_map<(d0, d1, d2) -> (d0, d1)>
#chan3 = affine_map<(d0, d1, d2) -> (d2)>

func.func @scaled_softmax(%x: tensor<64x100xf32>) -> tensor<64x100xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %ee = tensor.empty() : tensor<64x100xf32>
  %scaled = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x100xf32>) outs(%ee : tensor<64x100xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %scale : f32
    linalg.yield %v : f32
  } -> tensor<64x100xf32>
  %e = tensor.empty() : tensor<64xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%scaled : tensor<64x100xf32>) outs(%mi : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %exp = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%scaled, %max : tensor<64x100xf32>, tensor<64xf32>) outs(%ee : tensor<64x100xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<64x100xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x100xf32>) outs(%si : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x100xf32>, tensor<64xf32>) outs(%ee : tensor<64x100xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.divf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x100xf32>
  return %y : tensor<64x100xf32>
}

// As the encoder's import has it: keep-dims sums into [2, 24, 1], the
// centring written over a copy of the input that the variance reads back.
func.func @layer_norm_in_place(%x: tensor<2x24x48xf32>, %gamma: tensor<48xf32>,
                               %beta: tensor<48xf32>) -> tensor<2x24x48xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 48.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<2x24x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x24x1xf32>) -> tensor<2x24x1xf32>
  %sum = linalg.generic {indexing_maps = [#rows3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x24x48xf32>) outs(%z : tensor<2x24x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x24x1xf32>
  %sumc = tensor.collapse_shape %sum [[0], [1, 2]] : tensor<2x24x1xf32> into tensor<2x24xf32>
  %ee = tensor.empty() : tensor<2x24x48xf32>
  %centred = linalg.generic {indexing_maps = [#rows3, #row3c, #rows3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sumc : tensor<2x24x48xf32>, tensor<2x24xf32>) outs(%ee : tensor<2x24x48xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %in, %mean : f32
    linalg.yield %d : f32
  } -> tensor<2x24x48xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<2x24x1xf32>) -> tensor<2x24x1xf32>
  %sq = linalg.generic {indexing_maps = [#rows3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%centred : tensor<2x24x48xf32>) outs(%z2 : tensor<2x24x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d2 = arith.mulf %in, %in : f32
    %acc = arith.addf %d2, %out : f32
    linalg.yield %acc : f32
  } -> tensor<2x24x1xf32>
  %sqc = tensor.collapse_shape %sq [[0], [1, 2]] : tensor<2x24x1xf32> into tensor<2x24xf32>
  %y = linalg.generic {indexing_maps = [#rows3, #row3c, #chan3, #chan3, #rows3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%centred, %sqc, %gamma, %beta : tensor<2x24x48xf32>, tensor<2x24xf32>, tensor<48xf32>, tensor<48xf32>)
      outs(%ee : tensor<2x24x48xf32>) {
  ^bb0(%d: f32, %q: f32, %g: f32, %b: f32, %out: f32):
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %v = arith.mulf %d, %r : f32
    %vg = arith.mulf %v, %g : f32
    %vb = arith.addf %vg, %b : f32
    linalg.yield %vb : f32
  } -> tensor<2x24x48xf32>
  return %y : tensor<2x24x48xf32>
}

// Each row's sums, then every element scaled by the sum of the row its
// COLUMN names: row r reads the sums of rows 0..63, which other blocks
// compute.
func.func @reads_other_rows(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %ee = tensor.empty() : tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [#rows, #col, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%ee : tensor<64x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.mulf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// A sum over 12 rows of 40, then one over the 40 x 12 transpose's rows:
// the rows differ, so two kernels.
func.func @different_rows(%x: tensor<12x40xf32>, %t: tensor<40x12xf32>) -> (tensor<12xf32>, tensor<40xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %a = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<12x40xf32>) outs(%z : tensor<12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<12xf32>
  %e2 = tensor.empty() : tensor<40xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<40xf32>) -> tensor<40xf32>
  %b = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<40x12xf32>) outs(%z2 : tensor<40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<40xf32>
  return %a, %b : tensor<12xf32>, tensor<40xf32>
}

// Softmax over the rows of a slice from column 1 (4-byte aligned): the max
// and the exponentials read it one element at a time; the sum and the
// division read and write a fresh 10 x 50 buffer two at a time.
func.func @offset_rows(%x: tensor<10x51xf32>) -> tensor<10x50xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %x[0, 1] [10, 50] [1, 1] : tensor<10x51xf32> to tensor<10x50xf32>
  %e = tensor.empty() : tensor<10xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<10x50xf32>) outs(%mi : tensor<10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<10xf32>
  %ee = tensor.empty() : tensor<10x50xf32>
  %exp = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%s, %max : tensor<10x50xf32>, tensor<10xf32>) outs(%ee : tensor<10x50xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<10x50xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<10x50xf32>) outs(%si : tensor<10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<10xf32>
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<10x50xf32>, tensor<10xf32>) outs(%ee : tensor<10x50xf32>) {
  ^bb0(%in: f32, %v: f32, %out: f32):
    %q = arith.divf %in, %v : f32
    linalg.yield %q : f32
  } -> tensor<10x50xf32>
  return %y : tensor<10x50xf32>
}
