//===- LowerGpu.h - What --dltune-lower-gpu leaves for its callers -*- C++ -*-===//
//
// With format=bin, --dltune-lower-gpu assembles every kernel with `ptxas -v`
// itself and puts what ptxas reports (registers, shared memory, stack,
// spills, barriers) and the launch's threads per block on each gpu.binary as
// `dltune.kernel_resources`: builders record it and check it against the
// device's limits.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_LOWERGPU_H
#define DLTUNE_TRANSFORMS_LOWERGPU_H

#include "dltune/Tuning/Device/GpuResources.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::dltune {

inline constexpr llvm::StringLiteral kKernelResourcesAttrName = "dltune.kernel_resources";

/// The resources of every kernel of a module lowered with format=bin, in
/// the order of the gpu.binary ops; empty for PTX (format=isa).
llvm::Expected<std::vector<GpuKernelResources>> getGpuKernelResources(ModuleOp lowered);

/// ptxas from PATH, $CUDA_HOME/bin or /usr/local/cuda/bin; empty if none.
std::string findPtxas();

/// Makes the CUDA toolkit that ptxas (findPtxas) belongs to, or
/// /usr/local/cuda, known to upstream's NVVM serializer where none of
/// CUDA_ROOT, CUDA_HOME and CUDA_PATH is set (it then sets CUDA_HOME, once
/// a process): the serializer links libdevice, which defines the __nv_*
/// functions math ops lower to (expf, rsqrtf, erff), only from a toolkit
/// those variables name (Debian's MLIR has none built in); without it a
/// kernel with a softmax assembled to "Unresolved extern function
/// '__nv_expf'". Returns the toolkit the serializer will use: the first
/// of those variables that is set, else the one set here, else empty (no
/// toolkit with nvvm/libdevice/libdevice.10.bc). The first call decides;
/// the tools make it before any thread starts, --dltune-lower-gpu before
/// its NVVM pipeline.
std::string exportCudaToolkitForLibdevice();

/// The shared-memory step of --dltune-lower-gpu on a bufferized function
/// (before its loops are mapped to the GPU): copies into workgroup memory
/// become loops over the block's threads (thread-mapped scf.forall; the
/// mapping puts barriers after them), and workgroup buffers whose uses do not
/// overlap share storage. Exposed so that tests can run the result on the
/// host, where running the thread loops one after the other gives the
/// barriers' ordering.
LogicalResult prepareWorkgroupMemory(func::FuncOp func);

/// The chip GPU code is built for when nobody says: sm_90 (H100/H200).
inline constexpr llvm::StringLiteral kDefaultGpuChip = "sm_90";

/// PTX features `chip` needs: the PTX ISA version that introduced it
/// (+ptx80 up to sm_90, which needs it; +ptx86 for sm_100/101, +ptx87 for
/// sm_120, +ptx88 beyond).
std::string getPtxFeaturesForChip(llvm::StringRef chip);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_LOWERGPU_H
