// RUN: dltune-opt %s --dltune-pad-in-place | FileCheck %s
// Equal pads keep separate buffers through CSE (a shared one would make
// bufferization copy).
// RUN: dltune-opt %s --dltune-pad-in-place --cse | FileCheck %s --check-prefix=CSE
// Through the whole CPU lowering, outputs against NumPy's pad (0.5 borders:
// a border slab left unfilled would read 0 or garbage).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.linspace(-1, 1, 2*3*4*5, dtype=np.float32).reshape(2, 3, 4, 5))"
// RUN: dltune run %s --entry asymmetric --repeat 1 --warmup 0 --input %t/x.npy --save-output %t/out.npy
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); o = np.load('%t/out.npy'); r = np.pad(np.maximum(x, 0), ((0, 0), (1, 2), (2, 0), (0, 1)), constant_values=0.5); assert o.shape == r.shape and (o == r).all(), (o - r); print('pad ok')" | FileCheck %s --check-prefix=NUMPY
// RUN: dltune run %s --entry tiled --repeat 1 --warmup 0 --check | FileCheck %s --check-prefix=CHECKED
// NUMPY: pad ok
// CHECKED: check: ok

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// The producer (a ReLU) writes the interior of the padded buffer; the
// border is filled as slabs: dimension 1 below (1 row) and above (2 rows)
// over everything after it, dimension 2 below (2 columns) over the interior
// rows, dimension 3 above (1 channel) over the interior rows and columns.
// CHECK-LABEL: func.func @asymmetric
// CHECK-NOT: tensor.pad
// CHECK: %[[B:.*]] = bufferization.alloc_tensor() : tensor<2x6x6x6xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[B]][0, 0, 0, 0] [2, 1, 6, 6] [1, 1, 1, 1]
// CHECK: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S0]] : tensor<2x1x6x6xf32>)
// CHECK: %[[B0:.*]] = tensor.insert_slice %[[F0]] into %[[B]][0, 0, 0, 0] [2, 1, 6, 6] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[B0]][0, 4, 0, 0] [2, 2, 6, 6] [1, 1, 1, 1]
// CHECK: %[[B1:.*]] = tensor.insert_slice %{{.*}} into %[[B0]][0, 4, 0, 0] [2, 2, 6, 6] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[B1]][0, 1, 0, 0] [2, 3, 2, 6] [1, 1, 1, 1]
// CHECK: %[[B2:.*]] = tensor.insert_slice %{{.*}} into %[[B1]][0, 1, 0, 0] [2, 3, 2, 6] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[B2]][0, 1, 2, 5] [2, 3, 4, 1] [1, 1, 1, 1]
// CHECK: %[[B3:.*]] = tensor.insert_slice %{{.*}} into %[[B2]][0, 1, 2, 5] [2, 3, 4, 1] [1, 1, 1, 1]
// CHECK: %[[I:.*]] = tensor.extract_slice %[[B3]][0, 1, 2, 0] [2, 3, 4, 5] [1, 1, 1, 1]
// CHECK-NOT: tensor.empty
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} outs(%[[I]] : tensor<2x3x4x5xf32>)
// CHECK: %[[R:.*]] = tensor.insert_slice %[[Y]] into %[[B3]][0, 1, 2, 0] [2, 3, 4, 5] [1, 1, 1, 1]
// CHECK: return %[[R]]
func.func @asymmetric(%x: tensor<2x3x4x5xf32>) -> tensor<2x6x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4x5xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4x5xf32>) outs(%e : tensor<2x3x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x3x4x5xf32>
  %half = arith.constant 0.5 : f32
  %p = tensor.pad %y low[0, 1, 2, 0] high[0, 2, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %half : f32
  } : tensor<2x3x4x5xf32> to tensor<2x6x6x6xf32>
  return %p : tensor<2x6x6x6xf32>
}

// A scheduled producer: the destination is found through the tiled loop's
// shared output and the fill of its accumulator. `--check` compares with
// the reference lowering, which runs without the pass (it cannot see an
// unfilled slab: the candidate's buffer reuses the reference's freed one,
// borders included; the NumPy run of @asymmetric above can).
// CHECK-LABEL: func.func @tiled
// CHECK-NOT: tensor.pad
// CHECK: %[[B:.*]] = bufferization.alloc_tensor() : tensor<8x18xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[B]][0, 0] [1, 18] [1, 1]
// CHECK: tensor.insert_slice %{{.*}}[7, 0] [1, 18] [1, 1]
// CHECK: tensor.insert_slice %{{.*}}[1, 0] [6, 1] [1, 1]
// CHECK: tensor.insert_slice %{{.*}}[1, 17] [6, 1] [1, 1]
// CHECK: %[[I:.*]] = tensor.extract_slice %{{.*}}[1, 1] [6, 16] [1, 1]
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[I]] : tensor<6x16xf32>)
// CHECK: scf.forall {{.*}} shared_outs(%{{.*}} = %[[F]])
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, 1] [6, 16] [1, 1]
func.func @tiled(%a: tensor<6x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<6x16xf32>) -> tensor<6x16xf32>
  %r = scf.forall (%i) in (2) shared_outs(%o = %acc) -> (tensor<6x16xf32>) {
    %j = affine.apply affine_map<(d) -> (d * 3)>(%i)
    %as = tensor.extract_slice %a[%j, 0] [3, 4] [1, 1] : tensor<6x4xf32> to tensor<3x4xf32>
    %os = tensor.extract_slice %o[%j, 0] [3, 16] [1, 1] : tensor<6x16xf32> to tensor<3x16xf32>
    %m = linalg.matmul ins(%as, %b : tensor<3x4xf32>, tensor<4x16xf32>) outs(%os : tensor<3x16xf32>) -> tensor<3x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[%j, 0] [3, 16] [1, 1] : tensor<3x16xf32> into tensor<6x16xf32>
    }
  }
  %quarter = arith.constant 0.25 : f32
  %p = tensor.pad %r low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %quarter : f32
  } : tensor<6x16xf32> to tensor<8x18xf32>
  return %p : tensor<8x18xf32>
}

// Rank 1, padded on one side only: one slab.
// CHECK-LABEL: func.func @rank1
// CHECK: %[[B:.*]] = bufferization.alloc_tensor() : tensor<7xf32>
// CHECK: tensor.extract_slice %[[B]][5] [2] [1]
// CHECK: linalg.fill
// CHECK-NOT: linalg.fill
// CHECK: tensor.extract_slice %{{.*}}[0] [5] [1]
// CHECK: linalg.copy
// CHECK: tensor.insert_slice %{{.*}}[0] [5] [1]
func.func @rank1(%x: tensor<5xf32>) -> tensor<7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %y = linalg.copy ins(%x : tensor<5xf32>) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %p = tensor.pad %y low[0] high[2] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<5xf32> to tensor<7xf32>
  return %p : tensor<7xf32>
}

// CSE-LABEL: func.func @equal_pads
// CSE-COUNT-2: bufferization.alloc_tensor() : tensor<6x6xf32>
// CHECK-LABEL: func.func @equal_pads
// CHECK-NOT: tensor.pad
func.func @equal_pads(%x: tensor<4x4xf32>) -> (tensor<6x6xf32>, tensor<6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x4xf32>
  %y0 = linalg.copy ins(%x : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %y1 = linalg.copy ins(%x : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p0 = tensor.pad %y0 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %p1 = tensor.pad %y1 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %p0, %p1 : tensor<6x6xf32>, tensor<6x6xf32>
}

// Left alone: a pad of an argument (nothing writes it), a nofold pad, a
// pad value that is not a constant, a producer whose destination another
// op also uses and a pad inside a loop (a schedule's packing); negative
// padding in dltune-pad-in-place-crop.mlir (the lowering refuses it).
// CHECK-LABEL: func.func @refused
// CHECK-NOT: alloc_tensor
// CHECK-COUNT-5: tensor.pad
// CHECK-NOT: alloc_tensor
// CHECK: return
func.func @refused(%x: tensor<4x4xf32>, %v: f32) -> (tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>, tensor<4x4xf32>, tensor<6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %y1 = linalg.copy ins(%x : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p1 = tensor.pad %y1 nofold low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %y2 = linalg.copy ins(%x : tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p2 = tensor.pad %y2 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %e3 = tensor.empty() : tensor<4x4xf32>
  %y3 = linalg.copy ins(%x : tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %z3 = linalg.copy ins(%y3 : tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p3 = tensor.pad %y3 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e4 = tensor.empty() : tensor<6x6xf32>
  %p4 = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %e4) -> (tensor<6x6xf32>) {
    %e5 = tensor.empty() : tensor<4x4xf32>
    %y5 = linalg.copy ins(%x : tensor<4x4xf32>) outs(%e5 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %p5 = tensor.pad %y5 low[1, 1] high[1, 1] {
    ^bb0(%k: index, %l: index):
      tensor.yield %zero : f32
    } : tensor<4x4xf32> to tensor<6x6xf32>
    scf.yield %p5 : tensor<6x6xf32>
  }
  return %p0, %p1, %p2, %p3, %z3, %p4 : tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>, tensor<4x4xf32>, tensor<6x6xf32>
}
