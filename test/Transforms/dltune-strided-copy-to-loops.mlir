// RUN: dltune-opt %s --split-input-file --dltune-strided-copy-to-loops | FileCheck %s

// A copy out of a strided view becomes loops over the outer dimensions that
// move each whole row (4 to 64 elements) with one vector load and store.
// CHECK-LABEL: func.func @panel
// CHECK-SAME: (%{{.*}}: memref<3x64x512xf32>, %[[DST:.*]]: memref<3x64x8xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[C3]] step %[[C1]]
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for %[[J:.*]] = %[[C0]] to %[[C64]] step %[[C1]]
// CHECK: %[[ROW:.*]] = vector.load %[[SRC:.*]][%[[I]], %[[J]], %[[C0]]] : memref<3x64x8xf32, strided<[32768, 512, 1], offset: 16>>, vector<8xf32>
// CHECK: vector.store %[[ROW]], %[[DST]][%[[I]], %[[J]], %[[C0]]] : memref<3x64x8xf32>, vector<8xf32>
// CHECK-NOT: memref.copy
func.func @panel(%src: memref<3x64x512xf32>, %dst: memref<3x64x8xf32>) {
  %s = memref.subview %src[0, 0, 16] [3, 64, 8] [1, 1, 1]
      : memref<3x64x512xf32> to memref<3x64x8xf32, strided<[32768, 512, 1], offset: 16>>
  memref.copy %s, %dst : memref<3x64x8xf32, strided<[32768, 512, 1], offset: 16>> to memref<3x64x8xf32>
  return
}

// -----

// A row longer than 64 elements moves in chunks of 64 (else 32, 16 or 8)
// that divide it; into a strided target as well.
// CHECK-LABEL: func.func @long_rows
// CHECK-SAME: (%[[SRC:.*]]: memref<4x256xf32>, %{{.*}}: memref<4x512xf32>)
// CHECK: scf.for %[[I:.*]] = {{.*}} {
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[C256]] step %[[C64]]
// CHECK: %[[ROW:.*]] = vector.load %[[SRC]][%[[I]], %[[J]]] : memref<4x256xf32>, vector<64xf32>
// CHECK: vector.store %[[ROW]], %{{.*}}[%[[I]], %[[J]]] : memref<4x256xf32, strided<[512, 1], offset: 128>>, vector<64xf32>
func.func @long_rows(%src: memref<4x256xf32>, %dst: memref<4x512xf32>) {
  %d = memref.subview %dst[0, 128] [4, 256] [1, 1] : memref<4x512xf32> to memref<4x256xf32, strided<[512, 1], offset: 128>>
  memref.copy %src, %d : memref<4x256xf32> to memref<4x256xf32, strided<[512, 1], offset: 128>>
  return
}

// -----

// A dimension of one iteration gets no loop.
// CHECK-LABEL: func.func @one_row
// CHECK-NOT: scf.for
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NOT: scf.for
// CHECK: %[[ROW:.*]] = vector.load %{{.*}}[%[[C0]], %[[C0]]] : {{.*}}, vector<16xf32>
// CHECK: vector.store %[[ROW]], %{{.*}}[%[[C0]], %[[C0]]] : memref<1x16xf32>, vector<16xf32>
func.func @one_row(%src: memref<1x64xf32>, %dst: memref<1x16xf32>) {
  %s = memref.subview %src[0, 8] [1, 16] [1, 1] : memref<1x64xf32> to memref<1x16xf32, strided<[64, 1], offset: 8>>
  memref.copy %s, %dst : memref<1x16xf32, strided<[64, 1], offset: 8>> to memref<1x16xf32>
  return
}

// -----

// What cannot move in vector rows becomes a linalg.copy (loops later): a
// row no chunk divides, a non-unit innermost stride, sub-byte elements
// (stored one per byte, loaded as packed bits) and dynamic shapes.
// CHECK-LABEL: func.func @scalar_copies
// CHECK-SAME: (%[[A:.*]]: memref<4x200xf32>, %[[B:.*]]: memref<4x100xf32>, %[[C:.*]]: memref<8x8xf32>, %[[D:.*]]: memref<8x4xf32>, %[[E:.*]]: memref<4x64xi1>, %[[F:.*]]: memref<4x32xi1>, %[[G:.*]]: memref<?x64xf32>, %[[H:.*]]: memref<?x16xf32>, %[[N:.*]]: index)
// CHECK: %[[SA:.*]] = memref.subview %[[A]]
// CHECK: linalg.copy ins(%[[SA]] : memref<4x100xf32, strided<[200, 1]>>) outs(%[[B]] : memref<4x100xf32>)
// CHECK: %[[SC:.*]] = memref.subview %[[C]]
// CHECK: linalg.copy ins(%[[SC]] : memref<8x4xf32, strided<[8, 2]>>) outs(%[[D]] : memref<8x4xf32>)
// CHECK: %[[SE:.*]] = memref.subview %[[E]]
// CHECK: linalg.copy ins(%[[SE]] : memref<4x32xi1, strided<[64, 1]>>) outs(%[[F]] : memref<4x32xi1>)
// CHECK: %[[SG:.*]] = memref.subview %[[G]]
// CHECK: linalg.copy ins(%[[SG]] : memref<?x16xf32, strided<[64, 1]>>) outs(%[[H]] : memref<?x16xf32>)
// CHECK-NOT: memref.copy
// CHECK-NOT: vector.load
func.func @scalar_copies(%a: memref<4x200xf32>, %b: memref<4x100xf32>, %c: memref<8x8xf32>,
                         %d: memref<8x4xf32>, %e: memref<4x64xi1>, %f: memref<4x32xi1>,
                         %g: memref<?x64xf32>, %h: memref<?x16xf32>, %n: index) {
  %sa = memref.subview %a[0, 0] [4, 100] [1, 1] : memref<4x200xf32> to memref<4x100xf32, strided<[200, 1]>>
  memref.copy %sa, %b : memref<4x100xf32, strided<[200, 1]>> to memref<4x100xf32>
  %sc = memref.subview %c[0, 0] [8, 4] [1, 2] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 2]>>
  memref.copy %sc, %d : memref<8x4xf32, strided<[8, 2]>> to memref<8x4xf32>
  %se = memref.subview %e[0, 0] [4, 32] [1, 1] : memref<4x64xi1> to memref<4x32xi1, strided<[64, 1]>>
  memref.copy %se, %f : memref<4x32xi1, strided<[64, 1]>> to memref<4x32xi1>
  %sg = memref.subview %g[0, 0] [%n, 16] [1, 1] : memref<?x64xf32> to memref<?x16xf32, strided<[64, 1]>>
  memref.copy %sg, %h : memref<?x16xf32, strided<[64, 1]>> to memref<?x16xf32>
  return
}

// -----

// Copies between contiguous memrefs stay (they become a memcpy).
// CHECK-LABEL: func.func @contiguous
// CHECK-SAME: (%[[SRC:.*]]: memref<4x8xf32>, %[[DST:.*]]: memref<4x8xf32>)
// CHECK-NEXT: memref.copy %[[SRC]], %[[DST]] : memref<4x8xf32> to memref<4x8xf32>
// CHECK-NEXT: return
func.func @contiguous(%src: memref<4x8xf32>, %dst: memref<4x8xf32>) {
  memref.copy %src, %dst : memref<4x8xf32> to memref<4x8xf32>
  return
}
