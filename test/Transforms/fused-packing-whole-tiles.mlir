// A fused matmul whose cache tiles are the whole loops (64 rows, tile_m = 64,
// tile_n = N, as the default gives for a Transformer's 64-token matmuls)
// still packs its operands: the first parallel loop the B panel does not
// depend on (m) is halved so that the root has an epilogue loop to be fused
// into. Before, it was fused at the register tile, unpacked (B rows 1 KB
// apart: 0.70 against 0.41 ms). The result matches the untuned lowering.
// RUN: dltune-opt %s --dltune-annotate="threads=1 default-config=true cpu-lanes=8 cpu-registers=16 l1-kb=32 l2-kb=512" --dltune-apply | FileCheck %s
// RUN: dltune run %s --entry k --default-config --threads 1 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// RUN: dltune run %s --entry k --default-config --threads 2 --check --repeat 1 | FileCheck %s --check-prefix=JIT
// JIT: check: ok
// B's panels (N/reg_n x tile_k x reg_n per k block), filled once, outside m:
// CHECK-LABEL: func.func @k
// CHECK: tensor.empty() : tensor<4x16x256x16xf32>
// The epilogue's loop over halves of m, with the root fused in; A's panels
// inside it:
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK: tensor.empty() : tensor<8x4x256xf32>
// CHECK: vector.fma
func.func @k(%a: tensor<64x1024xf32>, %b: tensor<1024x256xf32>, %bias: tensor<256xf32>, %res: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x256xf32>) outs(%i : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias, %res : tensor<64x256xf32>, tensor<256xf32>, tensor<64x256xf32>) outs(%e2 : tensor<64x256xf32>) {
  ^bb0(%x: f32, %y: f32, %w: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %w : f32
    linalg.yield %t : f32
  } -> tensor<64x256xf32>
  return %o : tensor<64x256xf32>
}