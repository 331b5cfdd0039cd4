// RUN: dltune-opt %s --verify-diagnostics --dltune-lower-gpu="format=elf"

// The serialization format is checked before anything is lowered.
// expected-error @+1 {{dltune-lower-gpu: format must be isa, bin or fatbin, got 'elf'}}
module {
  func.func @f(%a: memref<4xf32>) {
    return
  }
}
