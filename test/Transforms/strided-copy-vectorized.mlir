// RUN: dltune-opt %s --dltune-lower-cpu=openmp=false | FileCheck %s
// RUN: dltune run %s --entry pack --repeat 1 | FileCheck %s --check-prefix=JIT

// Copies between strided views (a packed panel, a pad's interior) move each
// row with vector loads and stores: as scalar loops LLVM does not vectorize
// them, and a conv's filter panel copy cost more than the conv itself.
// CHECK-LABEL: llvm.func @pack
// CHECK-NOT: memrefCopy
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
// JIT: pack (cpu): median
func.func @pack(%src: memref<3x64x512xf32>, %dst: memref<3x64x8xf32>) {
  %s = memref.subview %src[0, 0, 16] [3, 64, 8] [1, 1, 1]
      : memref<3x64x512xf32> to memref<3x64x8xf32, strided<[32768, 512, 1], offset: 16>>
  memref.copy %s, %dst : memref<3x64x8xf32, strided<[32768, 512, 1], offset: 16>> to memref<3x64x8xf32>
  return
}

// A long row moves in chunks of 64 elements.
// CHECK-LABEL: llvm.func @long_rows
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<64xf32>
func.func @long_rows(%src: memref<4x1024xf32>, %dst: memref<4x256xf32>) {
  %s = memref.subview %src[0, 512] [4, 256] [1, 1]
      : memref<4x1024xf32> to memref<4x256xf32, strided<[1024, 1], offset: 512>>
  memref.copy %s, %dst : memref<4x256xf32, strided<[1024, 1], offset: 512>> to memref<4x256xf32>
  return
}

// Rows that no chunk divides, and column copies (stride != 1), stay scalar
// loops; neither calls the runtime's memrefCopy.
// CHECK-LABEL: llvm.func @odd_rows
// CHECK-NOT: vector<
// CHECK-NOT: memrefCopy
// CHECK: llvm.return
func.func @odd_rows(%src: memref<4x1024xf32>, %dst: memref<4x100xf32>, %col: memref<64x4xf32>, %cdst: memref<64x1xf32>) {
  %s = memref.subview %src[0, 3] [4, 100] [1, 1]
      : memref<4x1024xf32> to memref<4x100xf32, strided<[1024, 1], offset: 3>>
  memref.copy %s, %dst : memref<4x100xf32, strided<[1024, 1], offset: 3>> to memref<4x100xf32>
  %c = memref.subview %col[0, 2] [64, 1] [1, 1]
      : memref<64x4xf32> to memref<64x1xf32, strided<[4, 1], offset: 2>>
  memref.copy %c, %cdst : memref<64x1xf32, strided<[4, 1], offset: 2>> to memref<64x1xf32>
  return
}

// i1 elements are stored one per byte but load as packed vector bits: they
// stay scalar.
// CHECK-LABEL: llvm.func @bools
// CHECK-NOT: vector<
// CHECK: llvm.return
func.func @bools(%src: memref<4x64xi1>, %dst: memref<4x16xi1>) {
  %s = memref.subview %src[0, 16] [4, 16] [1, 1]
      : memref<4x64xi1> to memref<4x16xi1, strided<[64, 1], offset: 16>>
  memref.copy %s, %dst : memref<4x16xi1, strided<[64, 1], offset: 16>> to memref<4x16xi1>
  return
}
