// The CPU emulation checks the alignment a GPU vector access claims (a GPU
// faults on a misaligned one, "misaligned address", where a CPU does not):
// before each vector load or store claiming more than its element's
// alignment, the access's offset from its buffer's start must be a
// multiple of it. A kernel whose claim is wrong aborts with the reason;
// every emulated test and model runs with the check.
// RUN: dltune run %s --entry aligned --target gpu --emulate-gpu --repeat 1 --warmup 0 --json | FileCheck %s --check-prefix=OK
// OK: "entry":"aligned"
// RUN: not --crash dltune run %s --entry misaligned --target gpu --emulate-gpu --repeat 1 --warmup 0 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: GPU emulation: a vector access claims 16-byte alignment but is misaligned (on a GPU: misaligned address)
// The check follows views: four elements into the buffer, a claim of 16
// bytes holds at index 0 of the view and fails at index 2 (24 bytes in).
// RUN: dltune run %s --entry view_aligned --target gpu --emulate-gpu --repeat 1 --warmup 0 --json | FileCheck %s --check-prefix=VIEW
// VIEW: "entry":"view_aligned"
// RUN: not --crash dltune run %s --entry view_misaligned --target gpu --emulate-gpu --repeat 1 --warmup 0 2>&1 | FileCheck %s --check-prefix=BAD

func.func @copy_from(%m: memref<64xf32>, %start: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = vector.load %m[%start] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
    vector.store %v, %m[%c32] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

func.func @aligned(%m: memref<64xf32>) {
  %c4 = arith.constant 4 : index
  call @copy_from(%m, %c4) : (memref<64xf32>, index) -> ()
  return
}

func.func @misaligned(%m: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  call @copy_from(%m, %c1) : (memref<64xf32>, index) -> ()
  return
}

func.func @load_view(%m: memref<64xf32>, %at: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %view = memref.subview %m[4] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 4>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = vector.load %view[%at] {alignment = 16 : i64} : memref<16xf32, strided<[1], offset: 4>>, vector<4xf32>
    vector.store %v, %m[%c32] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

func.func @view_aligned(%m: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  call @load_view(%m, %c0) : (memref<64xf32>, index) -> ()
  return
}

func.func @view_misaligned(%m: memref<64xf32>) {
  %c2 = arith.constant 2 : index
  call @load_view(%m, %c2) : (memref<64xf32>, index) -> ()
  return
}
