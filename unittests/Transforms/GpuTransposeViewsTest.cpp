//===- GpuTransposeViewsTest.cpp - Which transposes become views ----------===//
//
// The two rewrites of foldTransposesIntoViews on buffer IR, and the cases
// each must leave alone (an input written while the view is read, an
// innermost dimension moved, a use that is not a linalg op, an output in
// use while the writers would write it). What the rewritten kernels compute
// is checked by the CPU emulation (test/Integration/gpu-transpose-views-
// emulated.mlir).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/GpuTransposeViews.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {
struct Counts {
  int64_t folded = 0;
  int copies = 0, views = 0, allocs = 0;
};

class GpuTransposeViewsTest : public ::testing::Test {
protected:
  GpuTransposeViewsTest() {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                    linalg::LinalgDialect, memref::MemRefDialect>();
  }
  /// Parses `source` (SLOT replaced by `slot`), folds and counts.
  Counts fold(std::string source, StringRef slot = "") {
    if (size_t at = source.find("SLOT"); at != std::string::npos)
      source.replace(at, 4, slot.str());
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    Counts counts;
    if (!module)
      return counts;
    counts.folded = foldTransposesIntoViews(*module);
    EXPECT_TRUE(succeeded(verify(*module)));
    module->walk([&](Operation *op) {
      counts.copies += isa<linalg::TransposeOp>(op);
      counts.views += isa<memref::TransposeOp>(op);
      counts.allocs += isa<memref::AllocOp>(op);
    });
    return counts;
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

// Q out of a QKV product for a batch matmul: [64, 2, 32] -> [2, 64, 32].
constexpr const char *kReaders = R"mlir(
func.func @f(%qkv: memref<64x64xf32>, %k: memref<2x32x64xf32>) -> memref<2x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x64x64xf32>
  %e = memref.expand_shape %qkv [[0], [1, 2]] output_shape [64, 2, 32] : memref<64x64xf32> into memref<64x2x32xf32>
  %t = memref.alloc() : memref<2x64x32xf32>
  linalg.transpose ins(%e : memref<64x2x32xf32>) outs(%t : memref<2x64x32xf32>) permutation = [PERM]
  SLOT
  linalg.batch_matmul ins(%t, %k : memref<2x64x32xf32>, memref<2x32x64xf32>) outs(%c : memref<2x64x64xf32>)
  return %c : memref<2x64x64xf32>
}
)mlir";

std::string readers(StringRef permutation) {
  std::string source = kReaders;
  source.replace(source.find("PERM"), 4, permutation.str());
  return source;
}

TEST_F(GpuTransposeViewsTest, ReadersReadAViewOfTheInput) {
  Counts counts = fold(readers("1, 0, 2"));
  EXPECT_EQ(counts.folded, 1);
  EXPECT_EQ(counts.copies, 0);
  EXPECT_EQ(counts.views, 1);
  EXPECT_EQ(counts.allocs, 1); // the batch matmul's output
}

TEST_F(GpuTransposeViewsTest, LeavesACopyWhileTheInputIsWrittenBeforeTheReader) {
  Counts counts =
      fold(readers("1, 0, 2"), "linalg.fill ins(%zero : f32) outs(%qkv : memref<64x64xf32>)");
  EXPECT_EQ(counts.folded, 0);
  EXPECT_EQ(counts.copies, 1);
  // Through a buffer that may share the input's memory (another argument).
  counts = fold(readers("1, 0, 2"),
                "linalg.fill ins(%zero : f32) outs(%k : memref<2x32x64xf32>)");
  EXPECT_EQ(counts.folded, 0);
  // Not through a fresh buffer.
  counts = fold(readers("1, 0, 2"), "%other = memref.alloc() : memref<64x64xf32>\n"
                                    "linalg.fill ins(%zero : f32) outs(%other : memref<64x64xf32>)");
  EXPECT_EQ(counts.folded, 1);
  counts = fold(readers("1, 0, 2"),
                "linalg.fill ins(%zero : f32) outs(%k : memref<2x32x64xf32>)");
  EXPECT_EQ(counts.folded, 0);
}

TEST_F(GpuTransposeViewsTest, LeavesACopyThatAnOpThenUpdatesInPlace) {
  // The scaling reads and writes the copy: it does not begin a new life of
  // it, and the second reader needs the copy's values scaled.
  Counts counts = fold(readers("1, 0, 2"), R"mlir(
  linalg.batch_matmul ins(%t, %k : memref<2x64x32xf32>, memref<2x32x64xf32>) outs(%c : memref<2x64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t : memref<2x64x32xf32>) outs(%t : memref<2x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %in : f32
    linalg.yield %v : f32
  })mlir");
  EXPECT_EQ(counts.folded, 0);
  EXPECT_EQ(counts.copies, 1);
}

TEST_F(GpuTransposeViewsTest, RebuildsAReshapeTwoReadersShareOnce) {
  Counts counts = fold(R"mlir(
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @f(%x: memref<64x2x32xf32>) -> (memref<2x64x4x8xf32>, memref<2x64x4x8xf32>) {
  %t = memref.alloc() : memref<2x64x32xf32>
  linalg.transpose ins(%x : memref<64x2x32xf32>) outs(%t : memref<2x64x32xf32>) permutation = [1, 0, 2]
  %r = memref.expand_shape %t [[0], [1], [2, 3]] output_shape [2, 64, 4, 8] : memref<2x64x32xf32> into memref<2x64x4x8xf32>
  %c1 = memref.alloc() : memref<2x64x4x8xf32>
  %c2 = memref.alloc() : memref<2x64x4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : memref<2x64x4x8xf32>) outs(%c1 : memref<2x64x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : memref<2x64x4x8xf32>) outs(%c2 : memref<2x64x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return %c1, %c2 : memref<2x64x4x8xf32>, memref<2x64x4x8xf32>
}
)mlir");
  EXPECT_EQ(counts.folded, 1);
  EXPECT_EQ(counts.copies, 0);
  // One expand_shape of the view, which both readers read.
  int expands = 0;
  module->walk([&](memref::ExpandShapeOp expand) {
    ++expands;
    EXPECT_EQ(std::distance(expand->use_begin(), expand->use_end()), 2);
  });
  EXPECT_EQ(expands, 1);
}

// K transposed: [64, 2, 32] -> [2, 32, 64] moves the innermost dimension;
// the view is contiguous along the batch matmul's k instead.
constexpr const char *kTransposedB = R"mlir(
func.func @f(%x: memref<64x2x32xf32>, %q: memref<2x64x32xf32>) -> memref<2x64x64xf32> {
  %c = memref.alloc() : memref<2x64x64xf32>
  %t = memref.alloc() : memref<2x32x64xf32>
  linalg.transpose ins(%x : memref<64x2x32xf32>) outs(%t : memref<2x32x64xf32>) permutation = [1, 2, 0]
  linalg.batch_matmul SLOT ins(%q, %t : memref<2x64x32xf32>, memref<2x32x64xf32>) outs(%c : memref<2x64x64xf32>)
  return %c : memref<2x64x64xf32>
}
)mlir";

TEST_F(GpuTransposeViewsTest, LeavesACopyThatMovesTheInnermostDimension) {
  // Without tiles the matmul's kernel is unknown: the copy stays.
  Counts counts = fold(kTransposedB);
  EXPECT_EQ(counts.folded, 0);
  EXPECT_EQ(counts.copies, 1);
}

TEST_F(GpuTransposeViewsTest, ReadsKTransposedAsAViewForASimtBatchMatmul) {
  Counts counts = fold(kTransposedB,
                       "{dltune.gpu_kernel = {block_m = 32, block_n = 32, thread_m = 4, "
                       "thread_n = 4, tile_k = 8, vector = 4, pad = 4, stages = 2, "
                       "interleave = 0}}");
  EXPECT_EQ(counts.folded, 1);
  EXPECT_EQ(counts.copies, 0);
  EXPECT_EQ(counts.views, 1);
}

TEST_F(GpuTransposeViewsTest, LeavesKTransposedACopyForATensorCoreBatchMatmul) {
  // mma.sync stores B's tile as it is in memory (or copies it by cp.async).
  Counts counts = fold(kTransposedB,
                       "{dltune.gpu_kernel = {block_m = 64, block_n = 64, thread_m = 1, "
                       "thread_n = 1, tile_k = 16, vector = 4, pad = 0, stages = 2, "
                       "interleave = 0, mma = 1, warp_m = 32, warp_n = 32, async_copy = 1}}");
  EXPECT_EQ(counts.folded, 0);
  EXPECT_EQ(counts.copies, 1);
}

// The heads' results back into rows: [2, 64, 32] -> [64, 2, 32] -> [64, 64],
// the batch matmul's output after a zero fill a layer ahead of it.
constexpr const char *kWriters = R"mlir(
func.func @f(%p: memref<2x64x64xf32>, %v: memref<2x64x32xf32>, %w: memref<64x64xf32>,
             %y: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %heads = memref.alloc() : memref<2x64x32xf32>
  linalg.fill ins(%zero : f32) outs(%heads : memref<2x64x32xf32>)
  %rows = memref.alloc() : memref<64x2x32xf32>
  linalg.batch_matmul ins(%p, %v : memref<2x64x64xf32>, memref<2x64x32xf32>) outs(%heads : memref<2x64x32xf32>)
  SLOT
  linalg.transpose ins(%heads : memref<2x64x32xf32>) outs(%rows : memref<64x2x32xf32>) permutation = [1, 0, 2]
  %r = memref.collapse_shape %rows [[0], [1, 2]] : memref<64x2x32xf32> into memref<64x64xf32>
  linalg.matmul ins(%r, %w : memref<64x64xf32>, memref<64x64xf32>) outs(%y : memref<64x64xf32>)
  return
}
)mlir";

TEST_F(GpuTransposeViewsTest, WritersWriteAViewOfTheOutput) {
  Counts counts = fold(kWriters);
  EXPECT_EQ(counts.folded, 1);
  EXPECT_EQ(counts.copies, 0);
  EXPECT_EQ(counts.views, 1);
  EXPECT_EQ(counts.allocs, 1); // the output's
}

TEST_F(GpuTransposeViewsTest, LeavesACopyWhoseOutputIsInUseWhileTheWritersWrite) {
  // A use of the output between the writers and the transpose would see
  // the writers' values.
  Counts counts = fold(kWriters, "linalg.copy ins(%rows : memref<64x2x32xf32>) outs(%rows : "
                                 "memref<64x2x32xf32>)");
  EXPECT_EQ(counts.folded, 0);
  EXPECT_EQ(counts.copies, 1);
}

TEST_F(GpuTransposeViewsTest, ReusesAnOutputWhoseEarlierUseIsOver) {
  // The bufferization reuses buffers across layers: a use of the output
  // before the writers start (the zero fill sunk to the batch matmul) is
  // over by then.
  std::string source = kWriters;
  source.replace(source.find("%y: memref<64x64xf32>"), strlen("%y: memref<64x64xf32>"),
                 "%y: memref<64x64xf32>, %z: memref<64x2x32xf32>");
  source.replace(source.find("  linalg.batch_matmul"), 0,
                 "  linalg.copy ins(%rows : memref<64x2x32xf32>) outs(%z : memref<64x2x32xf32>)\n");
  Counts counts = fold(source);
  EXPECT_EQ(counts.folded, 1);
  EXPECT_EQ(counts.copies, 0);
}

TEST_F(GpuTransposeViewsTest, LeavesACopyReadByAnOpThatIsNotLinalg) {
  Counts counts = fold(R"mlir(
func.func @f(%x: memref<64x2x32xf32>) -> memref<2x64x32xf32> {
  %t = memref.alloc() : memref<2x64x32xf32>
  linalg.transpose ins(%x : memref<64x2x32xf32>) outs(%t : memref<2x64x32xf32>) permutation = [1, 0, 2]
  return %t : memref<2x64x32xf32>
}
)mlir");
  EXPECT_EQ(counts.folded, 0);
  EXPECT_EQ(counts.copies, 1);
}
} // namespace
