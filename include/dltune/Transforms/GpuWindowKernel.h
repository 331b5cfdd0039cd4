//===- GpuWindowKernel.h - Window reductions with register tiles -*- C++ -*-===//
//
// A depthwise convolution or a pooling op (and, after pad folding, the
// linalg.generic it became) on buffers becomes one gpu.launch: each thread
// computes `vector` consecutive points of the innermost parallel loop (the
// channels of NHWC) for `outputs` consecutive points of the next one (the
// output columns), keeps them in registers across the reduction loops (the
// window) and stores them once. The body runs once for a vector of
// channels where GpuLaneVectorizer's rules allow it (then every load along
// the channels is one vector load), else once a channel. A fill of the
// output before the op becomes the registers' start value, and an
// element-wise op after it (bias, activation) is computed as they are
// stored (GpuMatmulEpilogue).
//
// Without it such an op was a loop nest with one thread an output element
// that read and wrote its output in global memory at every window step.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_GPUWINDOWKERNEL_H
#define DLTUNE_TRANSFORMS_GPUWINDOWKERNEL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <optional>
#include <string>

namespace mlir::dltune {

/// The tiles of one window kernel. The GPU schedule of a depthwise
/// convolution or a pooling op leaves them on the op as a dictionary
/// (DLTuneDialect::kGpuKernelAttrName, as for matmuls), read by
/// --dltune-lower-gpu after bufferization.
struct GpuWindowTiles {
  int64_t vector = 1;   // consecutive points of the innermost parallel loop a thread
  int64_t outputs = 1;  // consecutive points of the next parallel loop a thread
  int64_t blockThreads = 256; // threads of a block

  /// From knob values (names as in the GPU space: vector, outputs,
  /// block_threads; missing ones keep their defaults).
  static GpuWindowTiles fromValues(const std::map<std::string, int64_t> &values);
  DictionaryAttr toAttr(MLIRContext *ctx) const;
  /// nullopt where an entry is not one of the three, or not positive.
  static std::optional<GpuWindowTiles> fromAttr(DictionaryAttr attr);
};

/// Whether `op` gets a window kernel's space on the GPU:
/// linalg.depthwise_conv_2d_nhwc_hwc or linalg.pooling_nhwc_{sum,max,min}.
bool isGpuWindowOpKind(Operation *op);

/// Why no window kernel can compute `op` whatever its tiles, on tensors or
/// buffers: it needs one output that its parallel loops index in order
/// (each once, nothing else), at least one reduction loop, static sizes,
/// a body of scalar ops that writes no memory, and elements of 1, 2, 4, 8
/// or 16 bytes.
/// Empty when it can.
std::string whyNotGpuWindowOp(linalg::LinalgOp op);

/// Why the kernel cannot compute `op` (which passes whyNotGpuWindowOp) with
/// `tiles`: `vector` must be a power of two dividing the innermost parallel
/// loop, `outputs` at most 16 (and 1 without a second parallel loop),
/// `block_threads` a multiple of 32 up to 1024. Empty when it can.
std::string whyNotGpuWindowKernel(linalg::LinalgOp op, const GpuWindowTiles &tiles);

/// Replaces every linalg op outside GPU kernels that carries window tiles
/// (DLTuneDialect::kGpuKernelAttrName on an op that is not a matmul) by its
/// kernel; `fuseEpilogues`: an element-wise op right after it is computed
/// in the kernel. An op whose output is a buffer it reads, or not
/// contiguous along the lanes with vector > 1, is left to the element-wise
/// loops (its attribute removed).
/// Fails (with an error on the op) for invalid tiles.
LogicalResult buildGpuWindowKernels(ModuleOp module, bool fuseEpilogues);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_GPUWINDOWKERNEL_H
