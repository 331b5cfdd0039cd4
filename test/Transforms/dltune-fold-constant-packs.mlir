// RUN: dltune-opt %s --split-input-file --verify-diagnostics --dltune-fold-constant-packs | FileCheck %s

// A packing loop (as hoist_pad builds them) over a constant, inside the n
// loop it depends on (which is not itself a pack: it updates an argument): evaluated for both n blocks into one constant
// [2 n blocks x 2 panels x 4 k x 2 columns], panel[n][p][k][j] =
// w[k][4n + 2p + j]; the loop becomes a slice of it at n's iteration number.
// CHECK-LABEL: func.func @pack_in_loop
// CHECK: %[[P:.*]] = arith.constant dense_resource<[[R:dltune_packed[_0-9]*]]> : tensor<2x2x4x2xi32>
// CHECK: scf.for %[[N:.*]] = %c0 to %c8 step %c4
// CHECK-NOT: tensor.empty
// CHECK: %[[I:.*]] = affine.apply #{{.*}}(%[[N]])
// CHECK: tensor.extract_slice %[[P]][%[[I]], 0, 0, 0] [1, 2, 4, 2] [1, 1, 1, 1] : tensor<2x2x4x2xi32> to tensor<2x4x2xi32>
// CHECK-NOT: scf.for
// CHECK: return
// Alignment 16, then the panels' i32 values little-endian:
// 0 1 8 9 16 17 24 25 | 2 3 10 11 18 19 26 27 | 4 5 12 13 20 21 28 29 | 6 7 ...
// CHECK: [[R]]: "0x10000000000000000100000008000000090000001000000011000000180000001900000002000000030000000A0000000B00000012000000130000001A0000001B00000004000000050000000C0000000D00000014000000150000001C0000001D00000006000000070000000E0000000F00000016000000170000001E0000001F000000"
func.func @pack_in_loop(%init: tensor<2x2x4x2xi32>) -> tensor<2x2x4x2xi32> {
  %w = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15],
                             [16, 17, 18, 19, 20, 21, 22, 23], [24, 25, 26, 27, 28, 29, 30, 31]]> : tensor<4x8xi32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %n = %c0 to %c8 step %c4 iter_args(%acc = %init) -> (tensor<2x2x4x2xi32>) {
    %e = tensor.empty() : tensor<2x4x2xi32>
    %packed = scf.for %i = %c0 to %c4 step %c2 iter_args(%b = %e) -> (tensor<2x4x2xi32>) {
      %p = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i)
      %col = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%i, %n]
      %s = tensor.extract_slice %w[0, %col] [4, 2] [1, 1] : tensor<4x8xi32> to tensor<4x2xi32>
      %ins = tensor.insert_slice %s into %b[%p, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x2xi32> into tensor<2x4x2xi32>
      scf.yield %ins : tensor<2x4x2xi32>
    }
    %nb = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%n)
    %o = tensor.insert_slice %packed into %acc[%nb, 0, 0, 0] [1, 2, 4, 2] [1, 1, 1, 1] : tensor<2x4x2xi32> into tensor<2x2x4x2xi32>
    scf.yield %o : tensor<2x2x4x2xi32>
  }
  return %r : tensor<2x2x4x2xi32>
}

// -----

// A hoisted pad without a packing loop: the slice of the constant it pads
// is taken outside it. Rows of w, each padded with -1 (0xFFFFFFFF).
// CHECK-LABEL: func.func @pad_rows
// CHECK: arith.constant dense_resource<[[R:dltune_packed[_0-9]*]]> : tensor<3x1x4xi32>
// CHECK-NOT: tensor.pad
// CHECK: [[R]]: "0x10000000010000000200000003000000FFFFFFFF040000000500000006000000FFFFFFFF070000000800000009000000FFFFFFFF"
func.func @pad_rows(%out: tensor<3x1x4xi32>) -> tensor<3x1x4xi32> {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m1 = arith.constant -1 : i32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %out) -> (tensor<3x1x4xi32>) {
    %s = tensor.extract_slice %w[%i, 0] [1, 3] [1, 1] : tensor<3x3xi32> to tensor<1x3xi32>
    %p = tensor.pad %s nofold low[0, 0] high[0, 1] {
    ^bb0(%a: index, %b: index):
      tensor.yield %m1 : i32
    } : tensor<1x3xi32> to tensor<1x4xi32>
    %o = tensor.insert_slice %p into %acc[%i, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x4xi32> into tensor<3x1x4xi32>
    scf.yield %o : tensor<3x1x4xi32>
  }
  return %r : tensor<3x1x4xi32>
}

// -----

// Packing an argument (an activation) stays a loop: its data is only known
// at run time.
// CHECK-LABEL: func.func @pack_argument
// CHECK-NOT: dltune_packed
// CHECK: scf.for
// CHECK: tensor.insert_slice
func.func @pack_argument(%w: tensor<4x8xf32>) -> tensor<4x4x2xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<4x4x2xf32>
  %packed = scf.for %i = %c0 to %c8 step %c2 iter_args(%b = %e) -> (tensor<4x4x2xf32>) {
    %p = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i)
    %s = tensor.extract_slice %w[0, %i] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
    %ins = tensor.insert_slice %s into %b[%p, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x2xf32> into tensor<4x4x2xf32>
    scf.yield %ins : tensor<4x4x2xf32>
  }
  return %packed : tensor<4x4x2xf32>
}

// -----

// A loop bound only known at run time: left alone.
// CHECK-LABEL: func.func @dynamic_bound
// CHECK-NOT: dltune_packed
// CHECK: scf.for
func.func @dynamic_bound(%ub: index) -> tensor<4x4x2xi32> {
  %w = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15],
                             [16, 17, 18, 19, 20, 21, 22, 23], [24, 25, 26, 27, 28, 29, 30, 31]]> : tensor<4x8xi32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<4x4x2xi32>
  %packed = scf.for %i = %c0 to %ub step %c2 iter_args(%b = %e) -> (tensor<4x4x2xi32>) {
    %p = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i)
    %s = tensor.extract_slice %w[0, %i] [4, 2] [1, 1] : tensor<4x8xi32> to tensor<4x2xi32>
    %ins = tensor.insert_slice %s into %b[%p, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x2xi32> into tensor<4x4x2xi32>
    scf.yield %ins : tensor<4x4x2xi32>
  }
  return %packed : tensor<4x4x2xi32>
}

// -----

// A pack repeated for every iteration of a loop whose variable it reads
// without moving through the data would store the constant three times:
// refused, with a remark.
// CHECK-LABEL: func.func @repeated
// CHECK-NOT: dltune_packed
func.func @repeated(%out: tensor<3x2x2xi32>) -> tensor<3x2x2xi32> {
  %w = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %m = %c0 to %c3 step %c1 iter_args(%acc = %out) -> (tensor<3x2x2xi32>) {
    %e = tensor.empty() : tensor<2x2xi32>
    // expected-remark @below {{dltune-fold-constant-packs: not folded: 48 bytes of panels from 16 bytes of constants}}
    %packed = scf.for %i = %c0 to %c1 step %c1 iter_args(%b = %e) -> (tensor<2x2xi32>) {
      %z = arith.muli %m, %c0 : index
      %s = tensor.extract_slice %w[%z, 0] [2, 2] [1, 1] : tensor<2x2xi32> to tensor<2x2xi32>
      %ins = tensor.insert_slice %s into %b[0, 0] [2, 2] [1, 1] : tensor<2x2xi32> into tensor<2x2xi32>
      scf.yield %ins : tensor<2x2xi32>
    }
    %o = tensor.insert_slice %packed into %acc[%m, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2xi32> into tensor<3x2x2xi32>
    scf.yield %o : tensor<3x2x2xi32>
  }
  return %r : tensor<3x2x2xi32>
}

// -----

// A buffer read on every iteration (%d, defined outside the loop that
// updates it) is copied before an insert, not updated in place: at run time
// the result is [[3, 2], [1, 4]].
// CHECK-LABEL: func.func @no_aliasing
// CHECK: arith.constant dense_resource<[[R:dltune_packed[_0-9]*]]> : tensor<2x2xi32>
// CHECK: [[R]]: "0x1000000003000000020000000100000004000000"
func.func @no_aliasing() -> tensor<2x2xi32> {
  %w = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<2x2xi32>
  %d = tensor.extract_slice %w[0, 0] [1, 2] [1, 1] : tensor<2x2xi32> to tensor<1x2xi32>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %e) -> (tensor<2x2xi32>) {
    %v = tensor.extract_slice %w[1, %i] [1, 1] [1, 1] : tensor<2x2xi32> to tensor<1x1xi32>
    %u = tensor.insert_slice %v into %d[0, %i] [1, 1] [1, 1] : tensor<1x1xi32> into tensor<1x2xi32>
    %o = tensor.insert_slice %u into %a[%i, 0] [1, 2] [1, 1] : tensor<1x2xi32> into tensor<2x2xi32>
    scf.yield %o : tensor<2x2xi32>
  }
  return %r : tensor<2x2xi32>
}

// -----

// Element types the evaluator cannot copy bytewise (index) are left alone.
// CHECK-LABEL: func.func @index_elements
// CHECK-NOT: dltune_packed
// CHECK: tensor.pad
func.func @index_elements() -> tensor<4xindex> {
  %w = arith.constant dense<[1, 2, 3]> : tensor<3xindex>
  %c0 = arith.constant 0 : index
  %p = tensor.pad %w nofold low[0] high[1] {
  ^bb0(%i: index):
    tensor.yield %c0 : index
  } : tensor<3xindex> to tensor<4xindex>
  return %p : tensor<4xindex>
}
