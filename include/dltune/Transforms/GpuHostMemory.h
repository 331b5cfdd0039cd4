//===- GpuHostMemory.h - Where a GPU module's host code keeps data -*- C++ -*-===//
//
// The host side of a module lowered by --dltune-lower-gpu only launches
// kernels: every buffer a kernel touches lives in GPU memory. A whole model
// brings what a single op does not - intermediate buffers, copies into
// padded buffers, constant weights and results the entry allocates - and
// these steps put each of them on the device:
//   1. host memref.copy becomes linalg.copy (then a kernel, like any leftover
//      linalg op);
//   2. host memref.alloc becomes gpu.alloc, freed at the end of its block
//      where only launches and views in that block use it (an entry's
//      results are freed by its runner; other escaping buffers leak);
//   3. host constants (memref.global) are read through
//      kDeviceConstantFunction, which uploads each one once and returns its
//      device copy.
// Host code left reading, writing or freeing a buffer, or passing one to an
// external function, is an error, not a crash on the device.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_GPUHOSTMEMORY_H
#define DLTUNE_TRANSFORMS_GPUHOSTMEMORY_H

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::dltune {

/// `void *dltuneDeviceConstant(void *host, int64_t bytes)`: the device copy
/// of the host constant at `host`, uploaded at the first call (the runtime
/// is in lib/Execution/GpuKernel.cpp).
inline constexpr llvm::StringLiteral kDeviceConstantFunction = "dltuneDeviceConstant";

/// Step 1, on a bufferized module before its leftover linalg ops are mapped:
/// memref.copy outside kernels becomes linalg.copy.
void turnHostCopiesIntoLinalg(ModuleOp module);

/// The names of the constant globals host code reads (memref.get_global),
/// to be redirected by redirectHostConstantsToDevice after lowering. Fails
/// on a mutable global: the host cannot keep a device copy of it current.
FailureOr<llvm::StringSet<>> collectHostConstants(ModuleOp module);

/// Step 2, after the kernels are outlined: host allocations become GPU
/// allocations; fails where host code would still read, write or free a
/// buffer, or pass one to an external function.
LogicalResult allocateHostBuffersOnDevice(ModuleOp module);

/// After step 2, before the launches of a block are made asynchronous: each
/// call of the runtime's tensor-map encoder (a warpgroup kernel's maps, as
/// nvgpu-to-nvvm lowers them) moves, with the host ops computing its
/// arguments, up to just after the last op defining what they read. The
/// encoder reads only a buffer's address and strides, but as an external
/// call it has effects, and a host op with effects between two launches
/// makes gpu-async-region wait for the stream there: a sync per warpgroup
/// kernel. Producers with effects (the buffer's gpu.alloc) stay where they
/// are, and the call goes after the last of them.
void hoistTensorMapEncodes(ModuleOp module);

/// Step 3, on the module lowered to the LLVM dialect: every address of a
/// global in `constants` taken by host code goes through
/// kDeviceConstantFunction.
LogicalResult redirectHostConstantsToDevice(ModuleOp module,
                                            const llvm::StringSet<> &constants);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_GPUHOSTMEMORY_H
