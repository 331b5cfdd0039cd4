// Bad command-line input gets a clear message and a non-zero exit.
// RUN: not dltune run %s.missing --entry f 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not dltune run %s --entry nope 2>&1 | FileCheck %s --check-prefix=NOENTRY
// RUN: not dltune run %s --entry f --target tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not dltune run %s --entry f --repeat 0 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not dltune run %s --entry dyn 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not dltune 2>&1 | FileCheck %s --check-prefix=NOSUB

// NOFILE: dltune: error: cannot open input file '{{.*}}cli-errors.mlir.missing'
// NOENTRY: dltune: error: no function 'nope' with a body in the module
// TARGET: dltune: error: --target must be cpu or gpu, got 'tpu'
// REPEAT: dltune: error: --repeat must be at least 1
// DYNAMIC: dltune: error: argument #0 of 'dyn': unsupported argument type (need a statically shaped tensor or memref)
// NOSUB: dltune: error: expected a subcommand (import, tune, run, compare, compile, replay, replay-model, model-eval, db, report)

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
