// RUN: dltune-opt %s --split-input-file --verify-diagnostics --dltune-lower-gpu="chip=sm_90 format=isa"

// Block and thread loops are mapped by a transform script the pass builds:
// two top-level block loops in one function are not one grid.
// expected-error @+3 {{could not find a unique topLevel scf.forall}}
// expected-note @+2 {{when applied to this payload op}}
// expected-error @+1 {{could not map scf.forall loops to the GPU}}
func.func @two_grids(%a: memref<64xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%b) in (2) {
    scf.forall (%t) in (32) {
      memref.store %cst, %a[%t] : memref<64xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  scf.forall (%b) in (2) {
    scf.forall (%t) in (32) {
      memref.store %cst, %a[%t] : memref<64xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// The block's threads share a copy into workgroup memory by element index,
// which needs the tile's static shape.
func.func @dynamic_tile(%a: memref<64x64xf32>, %n: index) {
  scf.forall (%bi) in (2) {
    %tile = memref.alloc(%n) : memref<?x64xf32, #gpu.address_space<workgroup>>
    %src = memref.subview %a[0, 0] [%n, 64] [1, 1] : memref<64x64xf32> to memref<?x64xf32, strided<[64, 1]>>
    // expected-error @+1 {{'memref.copy' op copies into workgroup memory need a static shape}}
    memref.copy %src, %tile : memref<?x64xf32, strided<[64, 1]>> to memref<?x64xf32, #gpu.address_space<workgroup>>
    scf.forall (%ti) in (32) {
      %c0 = arith.constant 0 : index
      %v = memref.load %tile[%c0, %ti] : memref<?x64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %a[%bi, %ti] : memref<64x64xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// The kernel a GPU matmul schedule asks for is checked against the op
// (block_m need not divide M: the last row of blocks is clamped; N and K
// must be divided).
func.func @tiles_do_not_divide(%a: memref<64x96xf32>, %b: memref<96x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{cannot become a GPU matmul kernel: block_n and tile_k must divide N and K}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 64 : i64, vector = 4 : i64, pad = 0 : i64, stages = 1 : i64, interleave = 0 : i64}}
    ins(%a, %b : memref<64x96xf32>, memref<96x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @missing_tile(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{dltune.gpu_kernel must be a dictionary of the GPU matmul tile sizes}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64}}
    ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Integer matmuls have no GPU kernel yet.
func.func @integers(%a: memref<64x64xi32>, %b: memref<64x64xi32>, %c: memref<64x64xi32>) {
  // expected-error @+1 {{cannot become a GPU matmul kernel: A and B must have one float type no wider than C's float type}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 16 : i64, vector = 4 : i64, pad = 0 : i64, stages = 1 : i64, interleave = 0 : i64}}
    ins(%a, %b : memref<64x64xi32>, memref<64x64xi32>) outs(%c : memref<64x64xi32>)
  return
}

// -----

// Tensor cores on f32 inputs compute in TF32: only with the opt-in.
func.func @tf32_without_opt_in(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{cannot become a GPU matmul kernel: f32 inputs use tensor cores only as TF32, which needs 'dltune.allow_tf32' on the op or an ancestor}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 16 : i64, vector = 4 : i64, pad = 0 : i64, stages = 1 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 32 : i64, warp_n = 32 : i64}}
    ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// MLIR 22 cannot lower a bf16 mma.sync: bf16 stays SIMT.
func.func @bf16_mma(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{cannot become a GPU matmul kernel: tensor cores here take f32 (as TF32) or f16 inputs}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 16 : i64, vector = 4 : i64, pad = 0 : i64, stages = 1 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 32 : i64, warp_n = 32 : i64}}
    ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// The fragment layout fixes the padding: pad must stay 0 with mma; warp
// tiles are whole m16 x n8 fragments.
func.func @mma_pad(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{with mma, pad and interleave must be 0}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 16 : i64, vector = 4 : i64, pad = 4 : i64, stages = 1 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 32 : i64, warp_n = 32 : i64}}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @mma_warp(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{with mma, warp_m must be a multiple of 16 and warp_n of 8}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 16 : i64, vector = 4 : i64, pad = 0 : i64, stages = 1 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 8 : i64, warp_n = 32 : i64}}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// cp.async copies rows as they are: only the tensor-core kernel's layout.
func.func @async_without_mma(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{async_copy needs mma (the SIMT kernel stores A transposed)}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 16 : i64, vector = 4 : i64, pad = 0 : i64, stages = 1 : i64, interleave = 0 : i64,
                                      async_copy = 1 : i64}}
    ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// cp.async copies 4, 8 or 16 bytes: 16 f16 elements (32 bytes) are no copy.
func.func @async_too_wide(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{async_copy copies 4, 8 or 16 bytes: vector x element bytes must be 4 to 16}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 64 : i64, block_n = 64 : i64, thread_m = 4 : i64, thread_n = 4 : i64,
                                      tile_k = 32 : i64, vector = 16 : i64, pad = 0 : i64, stages = 2 : i64, interleave = 0 : i64,
                                      mma = 1 : i64, warp_m = 32 : i64, warp_n = 32 : i64, async_copy = 1 : i64}}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Host code only launches kernels: a scalar read of a computed tensor would
// read GPU memory on the host.
func.func @host_read(%a: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %d = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{GPU lowering: host code would read, write or free GPU memory here}}
  %x = tensor.extract %d[%c0] : tensor<4xf32>
  return %x : f32
}

// -----

// Constants are uploaded once; a mutable global could change behind the
// device copy.
memref.global "private" @state : memref<4xf32> = dense<0.0>
func.func @mutable(%out: memref<4xf32>) {
  // expected-error @+1 {{GPU lowering: host code reads the mutable global @state}}
  %g = memref.get_global @state : memref<4xf32>
  linalg.copy ins(%g : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// -----

// An external host function given a buffer would read GPU memory.
func.func private @print_memref(memref<4xf32>)
func.func @external_call(%a: memref<4xf32>) {
  // expected-error @+1 {{GPU lowering: host code would read, write or free GPU memory here}}
  call @print_memref(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// Window kernel tiles (GpuWindowKernel.h): the vector must divide the
// channels.
func.func @window_vector_not_dividing(%x: memref<5x6x8xf32>, %out: memref<5x8xf32>) {
  // expected-error @+1 {{cannot be a GPU window kernel: vector = 3 must be a power of two dividing the innermost parallel loop (8)}}
  linalg.generic {indexing_maps = [affine_map<(n, c, k) -> (n, k, c)>, affine_map<(n, c, k) -> (n, c)>],
                  iterator_types = ["parallel", "parallel", "reduction"],
                  dltune.gpu_kernel = {vector = 3, outputs = 1, block_threads = 32}}
      ins(%x : memref<5x6x8xf32>) outs(%out : memref<5x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @window_block_threads(%x: memref<5x6x8xf32>, %out: memref<5x8xf32>) {
  // expected-error @+1 {{cannot be a GPU window kernel: block_threads = 48 must be a multiple of 32 up to 1024}}
  linalg.generic {indexing_maps = [affine_map<(n, c, k) -> (n, k, c)>, affine_map<(n, c, k) -> (n, c)>],
                  iterator_types = ["parallel", "parallel", "reduction"],
                  dltune.gpu_kernel = {vector = 4, outputs = 1, block_threads = 48}}
      ins(%x : memref<5x6x8xf32>) outs(%out : memref<5x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// No reduction loop: not a window.
func.func @window_no_reduction(%x: memref<5x8xf32>, %out: memref<5x8xf32>) {
  // expected-error @+1 {{cannot be a GPU window kernel: it has no reduction loop}}
  linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (n, c)>],
                  iterator_types = ["parallel", "parallel"],
                  dltune.gpu_kernel = {vector = 4, outputs = 1, block_threads = 32}}
      ins(%x : memref<5x8xf32>) outs(%out : memref<5x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

// An entry that is not one of the window kernel's.
func.func @window_unknown_tile(%x: memref<5x6x8xf32>, %out: memref<5x8xf32>) {
  // expected-error @+1 {{dltune.gpu_kernel must be a dictionary of the window kernel's vector, outputs and block_threads}}
  linalg.generic {indexing_maps = [affine_map<(n, c, k) -> (n, k, c)>, affine_map<(n, c, k) -> (n, c)>],
                  iterator_types = ["parallel", "parallel", "reduction"],
                  dltune.gpu_kernel = {vector = 4, block_m = 1}}
      ins(%x : memref<5x6x8xf32>) outs(%out : memref<5x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Split-K (GpuSplitK.h) needs slices of whole tile_k.
func.func @split_k_not_dividing(%a: memref<32x100xf32>, %b: memref<100x32xf32>, %c: memref<32x32xf32>) {
  // expected-error @+1 {{cannot become a GPU matmul kernel: split_k must be 1, or split an unbatched K into slices of whole tile_k, without wgmma}}
  linalg.matmul {dltune.gpu_kernel = {block_m = 32, block_n = 32, thread_m = 4, thread_n = 4, tile_k = 4,
                                      vector = 4, pad = 0, stages = 1, interleave = 0, split_k = 3}}
      ins(%a, %b : memref<32x100xf32>, memref<100x32xf32>) outs(%c : memref<32x32xf32>)
  return
}

// -----

// Row kernel frames (GpuRowReduction.h): lanes a power of two up to a warp.
func.func @row_lanes_not_pow2(%x: memref<6x64xf32>, %out: memref<6xf32>) {
  // expected-error @+1 {{cannot be a GPU row kernel: lanes must be a power of two from 2 to 32 (a cluster of a warp)}}
  linalg.generic {indexing_maps = [affine_map<(r, k) -> (r, k)>, affine_map<(r, k) -> (r)>],
                  iterator_types = ["parallel", "reduction"],
                  dltune.gpu_kernel = {lanes = 3, rows = 16, vector = 1}}
      ins(%x : memref<6x64xf32>) outs(%out : memref<6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A block of less than a warp: shuffles need whole warps.
func.func @row_block_under_a_warp(%x: memref<6x64xf32>, %out: memref<6xf32>) {
  // expected-error @+1 {{cannot be a GPU row kernel: lanes x rows must be 32 to 1024 threads}}
  linalg.generic {indexing_maps = [affine_map<(r, k) -> (r, k)>, affine_map<(r, k) -> (r)>],
                  iterator_types = ["parallel", "reduction"],
                  dltune.gpu_kernel = {lanes = 4, rows = 4, vector = 1}}
      ins(%x : memref<6x64xf32>) outs(%out : memref<6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An entry that is not one of the row kernel's.
func.func @row_unknown_tile(%x: memref<6x64xf32>, %out: memref<6xf32>) {
  // expected-error @+1 {{dltune.gpu_kernel must be a dictionary of the row kernel's lanes, rows and vector}}
  linalg.generic {indexing_maps = [affine_map<(r, k) -> (r, k)>, affine_map<(r, k) -> (r)>],
                  iterator_types = ["parallel", "reduction"],
                  dltune.gpu_kernel = {lanes = 32, block_threads = 32}}
      ins(%x : memref<6x64xf32>) outs(%out : memref<6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  }
  return
}
