// RUN: dltune-opt %s --dltune-strip | FileCheck %s

// The TF32 opt-in says what the program may compute, and the GPU lowering
// after the strip reads it: it stays (the GPU runs of `dltune run --tf32`
// failed when it was stripped).
// CHECK: module attributes {dltune.allow_tf32}
module attributes {dltune.allow_tf32} {
  func.func @f() {
    return
  }
}
