// Reductions along the innermost loop (softmax, layer norm) get a GPU
// kernel where the lanes of a warp share each row and gpu.subgroup_reduce
// combines them (--dltune-lower-gpu, row-reductions, on by default):
// checked against the untuned CPU lowering by the CPU emulation of the
// kernels (no GPU needed), on rows that are not a multiple of 32 long, row
// counts that are not a multiple of a block's rows, rows shorter than a
// warp (clusters of 16 lanes), an integer maximum, maxnumf, xor, f16 and i8
// elements (shuffled as 32-bit words), a body reading the loop
// index, an output that starts from a function argument, and reductions
// the kernel does not take (a short row, an outer reduction loop, a row
// along the input's outer dimension).
// RUN: dltune run %s --entry softmax_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry layer_norm --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry short_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry int_max --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry maxnum_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry xor_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry sum_f16 --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry max_i8 --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry index_weighted_sum --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry sum_from_fill --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry onto_bias --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry min_of_tiny_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry column_sum --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// RUN: dltune run %s --entry transposed_rows --target gpu --emulate-gpu --check --repeat 1 --warmup 0 --json | FileCheck %s
// CHECK: "check":"ok"

// The kernels in the PTX have butterfly shuffles (5 for a warp, 4 for
// clusters of 16 lanes), blocks of 32 x 8 threads (16 x 16 for the
// clusters); row-reductions=false leaves one thread a row, no shuffles.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=PTX
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa row-reductions=false})" 2>/dev/null | FileCheck %s --check-prefix=OFF
// PTX-LABEL: gpu.binary @softmax_rows_kernel
// PTX-SAME: .maxntid 32, 8, 1
// PTX-SAME: shfl.sync.bfly.b32
// PTX-LABEL: gpu.binary @short_rows_kernel
// PTX-SAME: .maxntid 16, 16, 1
// PTX-COUNT-4: shfl.sync.bfly.b32
// PTX-NOT: shfl.sync
// PTX-SAME: "
// OFF-NOT: shfl.sync

// The fills of the reductions' outputs are their kernels' start values,
// not kernels of their own, and the element-wise ops over the same rows
// join the reductions' kernel (gpu-row-chain-emulated.mlir): softmax and
// the layer norm are one launch each.
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-lower-gpu{format=isa})" 2>/dev/null | FileCheck %s --check-prefix=LAUNCHES
// LAUNCHES-LABEL: llvm.func @softmax_rows(
// LAUNCHES-COUNT-1: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// LAUNCHES-LABEL: llvm.func @layer_norm(
// LAUNCHES-COUNT-1: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// LAUNCHES-LABEL: llvm.func @short_rows(
// LAUNCHES-LABEL: llvm.func @sum_from_fill(
// LAUNCHES-COUNT-1: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// LAUNCHES-LABEL: llvm.func @onto_bias(

#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#rows3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>

func.func @softmax_rows(%x: tensor<6x100xf32>) -> tensor<6x100xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x100xf32>) outs(%mi : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  %ee = tensor.empty() : tensor<6x100xf32>
  %exp = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<6x100xf32>, tensor<6xf32>) outs(%ee : tensor<6x100xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<6x100xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<6x100xf32>) outs(%si : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<6x100xf32>, tensor<6xf32>) outs(%ee : tensor<6x100xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.divf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<6x100xf32>
  return %y : tensor<6x100xf32>
}

// Mean, then the variance's squares fused into its reduction (a body of
// three ops folding one element), then the normalization.
func.func @layer_norm(%x: tensor<3x5x48xf32>) -> tensor<3x5x48xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 48.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %sum = linalg.generic {indexing_maps = [#rows3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x5x48xf32>) outs(%z : tensor<3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %sq = linalg.generic {indexing_maps = [#rows3, #row3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %sum : tensor<3x5x48xf32>, tensor<3x5xf32>) outs(%z2 : tensor<3x5xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %in, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %acc = arith.addf %out, %d2 : f32
    linalg.yield %acc : f32
  } -> tensor<3x5xf32>
  %ee = tensor.empty() : tensor<3x5x48xf32>
  %y = linalg.generic {indexing_maps = [#rows3, #row3, #row3, #rows3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum, %sq : tensor<3x5x48xf32>, tensor<3x5xf32>, tensor<3x5xf32>) outs(%ee : tensor<3x5x48xf32>) {
  ^bb0(%in: f32, %s: f32, %q: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %in, %mean : f32
    %v = arith.mulf %d, %r : f32
    linalg.yield %v : f32
  } -> tensor<3x5x48xf32>
  return %y : tensor<3x5x48xf32>
}

func.func @short_rows(%x: tensor<37x12xf32>) -> tensor<37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x12xf32>) outs(%z : tensor<37xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<37xf32>
  return %sum : tensor<37xf32>
}

func.func @int_max(%x: tensor<9x40xi32>) -> tensor<9xi32> {
  %low = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<9xi32>
  %z = linalg.fill ins(%low : i32) outs(%e : tensor<9xi32>) -> tensor<9xi32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x40xi32>) outs(%z : tensor<9xi32>) {
  ^bb0(%in: i32, %out: i32):
    %m = arith.maxsi %out, %in : i32
    linalg.yield %m : i32
  } -> tensor<9xi32>
  return %max : tensor<9xi32>
}

func.func @maxnum_rows(%x: tensor<5x50xf32>) -> tensor<5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%ninf : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x50xf32>) outs(%z : tensor<5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maxnumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<5xf32>
  return %max : tensor<5xf32>
}

func.func @xor_rows(%x: tensor<3x64xi32>) -> tensor<3xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<3xi32>) -> tensor<3xi32>
  %r = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x64xi32>) outs(%z : tensor<3xi32>) {
  ^bb0(%in: i32, %out: i32):
    %m = arith.xori %in, %out : i32
    linalg.yield %m : i32
  } -> tensor<3xi32>
  return %r : tensor<3xi32>
}

func.func @index_weighted_sum(%x: tensor<4x70xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x70xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 0 : index
    %ij = arith.addi %i, %j : index
    %ii = arith.index_cast %ij : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %w = arith.mulf %in, %f : f32
    %s = arith.addf %w, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}

// The absorbed fill's value is not the sum's identity.
func.func @sum_from_fill(%x: tensor<10x33xf32>) -> tensor<10xf32> {
  %start = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<10xf32>
  %z = linalg.fill ins(%start : f32) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<10x33xf32>) outs(%z : tensor<10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  return %sum : tensor<10xf32>
}

// The sums start from a function argument, not a fill.
func.func @onto_bias(%x: tensor<10x64xf32>, %bias: tensor<10xf32>) -> tensor<10xf32> {
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<10x64xf32>) outs(%bias : tensor<10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  return %sum : tensor<10xf32>
}

// Rows of 5: shorter than kMinRowLength, one thread each as before.
func.func @min_of_tiny_rows(%x: tensor<300x5xf32>) -> tensor<300xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<300xf32>
  %z = linalg.fill ins(%inf : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %min = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<300x5xf32>) outs(%z : tensor<300xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.minimumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<300xf32>
  return %min : tensor<300xf32>
}

// The reduction is the outer loop: not a row reduction.
func.func @column_sum(%x: tensor<50x40xf32>) -> tensor<40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %sum = linalg.generic {indexing_maps = [#rows, affine_map<(d0, d1) -> (d1)>],
                         iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<50x40xf32>) outs(%z : tensor<40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<40xf32>
  return %sum : tensor<40xf32>
}

// The innermost loop reduces, but along the input's outer dimension: one
// thread a row (neighbouring threads read neighbouring elements) is the
// coalesced mapping, and stays.
func.func @transposed_rows(%x: tensor<50x40xf32>) -> tensor<40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<50x40xf32>) outs(%z : tensor<40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<40xf32>
  return %sum : tensor<40xf32>
}

// Elements narrower than the 32-bit shuffles.
func.func @sum_f16(%x: tensor<6x100xf16>) -> tensor<6xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<6xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<6xf16>) -> tensor<6xf16>
  %s = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x100xf16>) outs(%z : tensor<6xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.addf %in, %out : f16
    linalg.yield %m : f16
  } -> tensor<6xf16>
  return %s : tensor<6xf16>
}
func.func @max_i8(%x: tensor<6x100xi8>) -> tensor<6xi8> {
  %zero = arith.constant -128 : i8
  %e = tensor.empty() : tensor<6xi8>
  %z = linalg.fill ins(%zero : i8) outs(%e : tensor<6xi8>) -> tensor<6xi8>
  %s = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x100xi8>) outs(%z : tensor<6xi8>) {
  ^bb0(%in: i8, %out: i8):
    %m = arith.maxsi %in, %out : i8
    linalg.yield %m : i8
  } -> tensor<6xi8>
  return %s : tensor<6xi8>
}
