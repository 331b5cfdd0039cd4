//===- LoweringPipeline.h - Steps the lowering passes share -----*- C++ -*-===//
//
// Private to lib/Transforms: the pieces --dltune-lower-cpu and
// --dltune-lower-gpu have in common, and the GPU lowering's helpers that
// live in files of their own (workgroup memory, ptxas).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_LOWERINGPIPELINE_H
#define DLTUNE_LIB_TRANSFORMS_LOWERINGPIPELINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <optional>

namespace mlir::dltune {

/// Canonicalize, bufferize (identity layouts at function boundaries) and
/// drop the buffer copies bufferization leaves; with `deallocate`, every
/// buffer is freed after its last use; with `fillPerUse`, a tensor fill
/// used several times (after CSE) is cloned for each use, so that each
/// output is filled in place rather than copied from one filled buffer.
/// Shared by both targets.
void addBufferization(OpPassManager &pm, bool deallocate, bool fillPerUse = false);

/// Whether `type` is a memref in GPU workgroup (shared) memory.
bool isWorkgroupMemory(Type type);

/// The block size (x, y, z) read off the thread-mapped scf.forall loops of
/// `func`; nullopt when it has none.
std::optional<SmallVector<int64_t, 3>> getBlockDims(func::FuncOp func);

/// Workgroup buffers inside a kernel become workgroup attributions of its
/// gpu.launch (static shared memory of the outlined kernel).
void allocsToWorkgroupAttributions(func::FuncOp func);

/// Replaces every gpu.launch of `module` by host code that runs the kernel
/// on the CPU (blocks in turn, each an OpenMP team of its threads), for
/// --dltune-lower-gpu{emulate=true}; fails on kernels it cannot run there
/// (asynchronous launches, warp-level or tensor-core ops).
LogicalResult emulateGpuLaunchesOnCpu(ModuleOp module);

/// The CPU lowering after bufferization: loops, OpenMP (scf.forall to teams
/// of their `threads` with `forallToOpenMP`, else to serial loops; omp ops
/// to LLVM with `lowerOpenMP`), then the LLVM dialect.
void addCpuLoweringToLLVM(OpPassManager &pm, bool forallToOpenMP, bool lowerOpenMP);

/// Turns the PTX objects of every gpu.binary of `module` into cubins with
/// `ptxas -v` and attaches what ptxas reports as dltune.kernel_resources.
LogicalResult assembleWithPtxas(ModuleOp module, int optLevel);

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_LOWERINGPIPELINE_H
