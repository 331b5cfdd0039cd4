//===- GpuMatmulKernel.h - Register-tiled SIMT matmul kernels ---*- C++ -*-===//
//
// A matmul or batch matmul on buffers becomes one gpu.launch built op by op:
// each block stages a tile_k slice of its A and B tiles in shared memory
// (vector loads from global memory, A stored k-major), each thread keeps a
// thread_m x thread_n tile of C in registers and accumulates outer products
// of shared-memory fragments into it, and a linalg.fill of the output just
// before the op becomes the accumulators' start value (no kernel of its own).
// The tiling upstream's scf.forall mapping produces keeps C in global memory
// across the k loop; this is why the kernel is built by hand.
//
// With `mma`, warps multiply on tensor cores instead (nvgpu.mma.sync, PTX
// mma.sync): each warp keeps a warp_m x warp_n tile of C as m16n8
// accumulator fragments, A and B stay row-major in shared memory with rows
// padded so that the fragment loads of a warp hit 32 distinct banks, and
// f32 inputs are multiplied as TF32 (m16n8k8; an opt-in, see
// DLTuneDialect::kAllowTf32AttrName), f16 ones as m16n8k16, all
// accumulated in f32 (bf16 stays SIMT: MLIR 22 cannot lower its mma.sync).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_GPUMATMULKERNEL_H
#define DLTUNE_TRANSFORMS_GPUMATMULKERNEL_H

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Tuning/Device/GpuResources.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace mlir::dltune {

/// The tile sizes of one kernel. The GPU schedule of a matmul leaves them on
/// the op as a dictionary (DLTuneDialect::kGpuKernelAttrName), read by
/// --dltune-lower-gpu after bufferization.
struct GpuMatmulTiles {
  int64_t blockM = 64, blockN = 64; // C tile of a block
  int64_t threadM = 4, threadN = 4; // C tile of a thread (registers)
  int64_t tileK = 16;               // k slice staged in shared memory
  int64_t vector = 4;               // elements per global load
  int64_t pad = 0;                  // extra elements per shared-memory row
  // Shared buffers of k slices. 2: the next slice is loaded ahead; 3 and 4
  // (tensor cores with cp.async only): stages - 1 slices in flight.
  int64_t stages = 1;
  // 1: a thread's tile is split into chunks of (up to) 4 rows and 4 columns
  // spread over the block (chunk j at j * block / chunks), so that a warp's
  // 16-byte fragment loads from shared memory hit distinct banks and its
  // stores of C are contiguous; 0: one contiguous thread_m x thread_n tile.
  int64_t interleave = 0;
  // 1: tensor cores (thread_m, thread_n, pad and interleave unused, and
  // must keep their defaults' role: see whyNotGpuMatmulKernel).
  int64_t mma = 0;
  int64_t warpM = 32, warpN = 32; // C tile of a warp with mma
  // 1 (with mma): global-to-shared copies by cp.async, no register staging;
  // the next slice's copies are in flight while the current one multiplies.
  int64_t asyncCopy = 0;
  // 1 (with mma, compute capability 9.0): Hopper's warpgroup MMA instead of
  // mma.sync: warpgroups of 128 threads own warp_m rows (64 or 128) of the
  // block's C tile and all its block_n columns (warp_n == block_n); the
  // Tensor Memory Accelerator copies the k slices (tile_k: 128 bytes of a
  // row) into `stages` buffers; vector, async_copy unused.
  int64_t wgmma = 0;
  // Slices of K computed by separate blocks (a batch matmul over the
  // slices, GpuSplitK.h) and summed by a second kernel: more blocks for
  // skinny shapes (few C tiles, long K). 1: no split. Unbatched, not with
  // wgmma.
  int64_t splitK = 1;

  /// Whether the kernel reads B k-major (B transposed): warpgroup MMA of
  /// f32 inputs, as TF32, which wgmma reads only k-major.
  bool readsBKMajor(Type inputType) const { return wgmma == 1 && inputType.isF32(); }
  int64_t warps() const { return (blockM / warpM) * (blockN / warpN); }
  int64_t threads() const {
    if (wgmma)
      return 128 * (blockM / warpM);
    return mma ? 32 * warps() : (blockM / threadM) * (blockN / threadN);
  }
  /// Dynamic shared memory of the warpgroup kernel: the larger of the k
  /// slices' buffers and the accumulators' staging, plus alignment slack.
  int64_t getWarpgroupSharedBytes(int64_t elemBytes) const;
  int64_t rowChunk() const { return interleave ? std::min<int64_t>(4, threadM) : threadM; }
  int64_t colChunk() const { return interleave ? std::min<int64_t>(4, threadN) : threadN; }
  int64_t rowChunks() const { return threadM / rowChunk(); }
  int64_t colChunks() const { return threadN / colChunk(); }

  /// The shared-memory tile shapes of A and B ({stages, rows, row length}):
  /// SIMT stores A k-major and pads rows by `pad`; mma keeps both row-major
  /// with the paddings of getMmaPadA and kMmaPadB.
  std::pair<SmallVector<int64_t, 3>, SmallVector<int64_t, 3>>
  getSharedTileShapes(int64_t elemBytes) const;

  /// From knob values (names as in the GPU space; missing ones keep their
  /// defaults above). In an attribute, mma, warp_m, warp_n, async_copy and
  /// wgmma may be absent (SIMT, register-staged copies, mma.sync).
  static GpuMatmulTiles fromValues(const std::map<std::string, int64_t> &values);
  DictionaryAttr toAttr(MLIRContext *ctx) const;
  static std::optional<GpuMatmulTiles> fromAttr(DictionaryAttr attr);
};

/// Why the kernel cannot compute `op` whatever its tiles (its kind, operand
/// order, element types), on tensors or buffers; empty when it can. The GPU
/// space is offered only where this is empty.
std::string whyNotGpuMatmulOp(linalg::LinalgOp op);

/// Why `op` (which passes whyNotGpuMatmulOp) cannot use tensor cores: C not
/// f32, or f32 inputs without the TF32 opt-in on the op or an ancestor;
/// empty when it can.
std::string whyNotGpuMatmulMma(linalg::LinalgOp op);

/// Whether the Tensor Memory Accelerator will surely be able to read A and
/// B of `op` (on tensors) once bufferized, as the warpgroup kernel needs: each
/// is, through reshapes, a function's argument (identity layout at the
/// boundary), a constant or a fresh result of a linalg op other than a
/// transpose, and no transpose reads it (GpuTransposeViews turns such
/// tensors into strided views). Slices, pads and the like may become views
/// TMA cannot take; the warpgroup kernel is then offered but not the
/// default. With f32 inputs (TF32) only A counts: that kernel reads B
/// transposed, as a view, a constant transposed at compile time or a copy.
bool areGpuMatmulOperandsSurelyTensorMapReadable(linalg::LinalgOp op);

/// Whether `op` or an ancestor carries DLTuneDialect::kAllowTf32AttrName.
bool isTf32Allowed(Operation *op);
/// Whether `root` or any op inside it carries it: results of such a module
/// are checked with the tolerance of TF32 (kTf32RelativeTolerance).
bool isTf32AllowedAnywhere(Operation *root);
/// TF32 keeps 10 mantissa bits, as f16 does: f16's default tolerance.
inline constexpr double kTf32RelativeTolerance = 1e-2;

/// Shared-memory row padding with mma, in elements. A rows (tile_k long)
/// get 16 bytes: the fragment loads of a warp (rows g and g + 8, k columns
/// t and t + 4 for g < 8, t < 4) then fall in 32 distinct banks for the
/// tile_k the space offers. B rows (block_n long) get kMmaPadB elements:
/// lanes read rows t, columns g, and with block_n % 32 == 0 the banks are
/// 8t + g (pairs of f16 lanes share a word).
inline int64_t getMmaPadA(int64_t elemBytes) { return 16 / elemBytes; }
inline constexpr int64_t kMmaPadB = 8;

/// Shared memory a kernel may declare statically (48 KiB); above it the
/// tiles live in dynamic shared memory, which the launch must opt into
/// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).
inline constexpr int64_t kStaticSharedBytes = GpuLimits().maxStaticSharedBytesPerBlock;
/// The most shared memory a block may opt into on compute capability 9.0
/// (H100, H200: 227 KiB); the kernel builder refuses more.
inline constexpr int64_t kMaxSharedBytesOptIn = GpuLimits().maxSharedBytesPerBlockOptIn;

/// The warpgroup kernel's k slice is one 128-byte row (the span of the
/// 128-byte swizzle); its accumulator staging rows are padded by 8 floats;
/// its tiles start on a 1024-byte swizzle atom.
inline constexpr int64_t kWarpgroupSliceBytes = 128;
inline constexpr int64_t kWarpgroupStagingPad = 8;
inline constexpr int64_t kWarpgroupSwizzleAtomBytes = 1024;

/// The k extent of one mma.sync for inputs of `inputType` (8 for f32 as
/// TF32, 16 for f16).
int64_t getMmaK(Type inputType);

/// Why `op` (linalg.matmul or linalg.batch_matmul on static memrefs) cannot
/// become a kernel with `tiles`; empty when it can.
std::string whyNotGpuMatmulKernel(linalg::LinalgOp op, const GpuMatmulTiles &tiles);

/// Which neighbouring ops a matmul kernel computes itself.
struct GpuMatmulFusions {
  /// An element-wise linalg.generic that is the only reader of an unbatched
  /// matmul's product (through a crop and a reshape of its rows: a
  /// convolution's bias and activation), computed as the accumulators are
  /// stored; the product is not stored.
  bool epilogues = true;
  /// A linalg.generic writing an unbatched matmul's A element by element
  /// (a convolution's patch gather), evaluated in the kernel's loads of A
  /// (an implicit GEMM); A is not stored. Not with warpgroup MMA (TMA
  /// copies A as it is).
  bool gathers = true;
  /// Split-K as its tiles ask (a batch matmul over slices of K summed by a
  /// window kernel, GpuSplitK.h); false: the matmul stays whole, as with
  /// window kernels off the sum would be a launch per slice.
  bool splits = true;
};

/// Replaces `op` by its kernel (and erases the fill it absorbs, and the ops
/// `fusions` allows it to absorb).
LogicalResult buildGpuMatmulKernel(RewriterBase &rewriter, linalg::LinalgOp op,
                                   const GpuMatmulTiles &tiles,
                                   GpuMatmulFusions fusions = {});

/// Builds the kernel of every op in `module` that carries
/// DLTuneDialect::kGpuKernelAttrName.
LogicalResult buildGpuMatmulKernels(ModuleOp module, GpuMatmulFusions fusions = {});

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_GPUMATMULKERNEL_H
