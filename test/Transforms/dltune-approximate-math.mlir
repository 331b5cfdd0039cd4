// RUN: dltune-opt %s --split-input-file --dltune-approximate-math | FileCheck %s
// It runs on any op, e.g. one function at a time:
// RUN: dltune-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dltune-approximate-math))' | FileCheck %s

// A vector exponential becomes a polynomial in fma ops and an exponent
// bit-cast, with no math.exp (a libm call per lane) left.
// CHECK-LABEL: func.func @exp_vector
// CHECK-SAME: (%[[X:.*]]: vector<8xf32>)
// CHECK-NOT: math.exp
// CHECK: arith.cmpf uge, %[[X]]
// CHECK: math.floor
// CHECK: math.fma
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK: %[[E:.*]] = arith.mulf %{{.*}}, %[[BITS]] : vector<8xf32>
// CHECK-NOT: math.exp
// CHECK: return %[[E]] : vector<8xf32>
func.func @exp_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.exp %x : vector<8xf32>
  return %e : vector<8xf32>
}

// -----

// erf (no LLVM intrinsic) becomes a rational approximation on |x|, with
// the sign put back.
// CHECK-LABEL: func.func @erf_scalar
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NOT: math.erf
// CHECK: arith.cmpf olt, %[[X]]
// CHECK: arith.negf %[[X]] : f32
// CHECK: math.fma
// CHECK: arith.divf
// CHECK-NOT: math.erf
// CHECK: return
func.func @erf_scalar(%x: f32) -> f32 {
  %e = math.erf %x : f32
  return %e : f32
}

// -----

// Inside loops too, on vectors loaded from memory.
// CHECK-LABEL: func.func @erf_in_loop
// CHECK: scf.for
// CHECK: vector.load
// CHECK-NOT: math.erf
// CHECK: math.fma
// CHECK: vector.store
func.func @erf_in_loop(%m: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c8 {
    %v = vector.load %m[%i] : memref<16xf32>, vector<8xf32>
    %e = math.erf %v : vector<8xf32>
    vector.store %e, %m[%i] : memref<16xf32>, vector<8xf32>
  }
  return
}

// -----

// Other math ops and other element types are left alone (the lowering
// makes them intrinsics or libm calls).
// CHECK-LABEL: func.func @left_alone
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f64, %[[H:.*]]: vector<4xf16>)
// CHECK-NEXT: %[[L:.*]] = math.log %[[X]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[Y]] : f64
// CHECK-NEXT: %[[EH:.*]] = math.exp %[[H]] : vector<4xf16>
// CHECK-NEXT: return %[[L]], %[[E]], %[[EH]]
func.func @left_alone(%x: f32, %y: f64, %h: vector<4xf16>) -> (f32, f64, vector<4xf16>) {
  %l = math.log %x : f32
  %e = math.exp %y : f64
  %eh = math.exp %h : vector<4xf16>
  return %l, %e, %eh : f32, f64, vector<4xf16>
}
