//===- GpuWindowKernelTest.cpp - Tiles and structure of window kernels ----===//
//
// What runs without a GPU: the tiles' round trip through the op's
// attribute, the reasons a kernel is refused, and the structure of the
// built launch (grid and block from the tiles, the fill absorbed, vector
// loads along the channels, the epilogue fused, an op left alone where its
// output may share memory with its input). What the kernels compute is
// checked by the CPU emulation (test/Integration/gpu-window-emulated.mlir).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/GpuWindowKernel.h"

#include "dltune/Dialect/DLTuneDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {
class GpuWindowKernelTest : public ::testing::Test {
protected:
  GpuWindowKernelTest() {
    ctx.loadDialect<DLTuneDialect, affine::AffineDialect, arith::ArithDialect,
                    func::FuncDialect, gpu::GPUDialect, linalg::LinalgDialect,
                    memref::MemRefDialect, scf::SCFDialect, vector::VectorDialect>();
  }
  /// The first linalg op of `source` that is not a fill.
  linalg::LinalgOp parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    linalg::LinalgOp found;
    if (module)
      module->walk([&](linalg::LinalgOp op) {
        if (!found && !isa<linalg::FillOp>(op))
          found = op;
      });
    return found;
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

struct Counts {
  int launches = 0, linalgOps = 0, fills = 0, inputVectorLoads = 0, inputScalarLoads = 0,
      outputLoads = 0, fromElements = 0;
};

/// What the module holds after buildGpuWindowKernels: launches, linalg ops
/// left, and the kernel's loads of the function's first argument (the
/// input) and of `output`.
Counts count(ModuleOp module, Value output = Value()) {
  Counts n;
  Value input = (*module.getOps<func::FuncOp>().begin()).getArgument(0);
  module.walk([&](Operation *op) {
    bool inKernel = op->getParentOfType<gpu::LaunchOp>() != nullptr;
    n.launches += isa<gpu::LaunchOp>(op);
    n.linalgOps += isa<linalg::LinalgOp>(op);
    n.fills += isa<linalg::FillOp>(op);
    n.fromElements += isa<vector::FromElementsOp>(op) && inKernel;
    if (auto load = dyn_cast<vector::LoadOp>(op)) {
      n.inputVectorLoads += load.getBase() == input;
      n.outputLoads += output && load.getBase() == output;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op); load && inKernel) {
      n.inputScalarLoads += load.getMemRef() == input;
      n.outputLoads += output && load.getMemRef() == output;
    }
  });
  return n;
}

/// A 3x3 depthwise convolution of 16 channels into a fresh buffer filled
/// with zeros, copied to the argument %y; with `epilogue`, a bias add
/// reads the convolution's output and writes %r (copied to %y) instead.
/// The buffers written are allocations: an argument might share memory
/// with the input, and the kernel would then not fuse the epilogue.
std::string depthwiseSource(const std::string &tiles, bool epilogue) {
  std::string s = R"MLIR(
  func.func @f(%x: memref<1x10x10x16xf32>, %w: memref<3x3x16xf32>, %bias: memref<16xf32>,
               %y: memref<1x8x8x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %out = memref.alloc() : memref<1x8x8x16xf32>
    %r = memref.alloc() : memref<1x8x8x16xf32>
    linalg.fill ins(%zero : f32) outs(%out : memref<1x8x8x16xf32>)
    linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>,
                                       strides = dense<1> : tensor<2xi64>,
                                       dltune.gpu_kernel = )MLIR" +
                  tiles + R"MLIR(}
      ins(%x, %w : memref<1x10x10x16xf32>, memref<3x3x16xf32>) outs(%out : memref<1x8x8x16xf32>)
)MLIR";
  if (epilogue)
    s += R"MLIR(
    linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>,
                                     affine_map<(n, h, w, c) -> (c)>,
                                     affine_map<(n, h, w, c) -> (n, h, w, c)>],
                    iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%out, %bias : memref<1x8x8x16xf32>, memref<16xf32>) outs(%r : memref<1x8x8x16xf32>) {
    ^bb0(%v: f32, %b: f32, %o: f32):
      %s = arith.addf %v, %b : f32
      linalg.yield %s : f32
    }
    memref.copy %r, %y : memref<1x8x8x16xf32> to memref<1x8x8x16xf32>
    return
  })MLIR";
  else
    s += R"MLIR(
    memref.copy %out, %y : memref<1x8x8x16xf32> to memref<1x8x8x16xf32>
    return
  })MLIR";
  return s;
}
} // namespace

TEST_F(GpuWindowKernelTest, TilesRoundTripThroughTheAttribute) {
  GpuWindowTiles t = GpuWindowTiles::fromValues(
      {{"vector", 4}, {"outputs", 2}, {"block_threads", 128}, {"unrelated", 7}});
  std::optional<GpuWindowTiles> back = GpuWindowTiles::fromAttr(t.toAttr(&ctx));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->vector, 4);
  EXPECT_EQ(back->outputs, 2);
  EXPECT_EQ(back->blockThreads, 128);
  Builder b(&ctx);
  // A matmul's tile or a size below one is not a window kernel's.
  EXPECT_FALSE(GpuWindowTiles::fromAttr(
      b.getDictionaryAttr({b.getNamedAttr("block_m", b.getI64IntegerAttr(64))})));
  EXPECT_FALSE(GpuWindowTiles::fromAttr(
      b.getDictionaryAttr({b.getNamedAttr("vector", b.getI64IntegerAttr(0))})));
}

TEST_F(GpuWindowKernelTest, RefusesTilesTheOpCannotTake) {
  linalg::LinalgOp op = parse(depthwiseSource("{vector = 4}", false));
  ASSERT_TRUE(op);
  EXPECT_EQ(whyNotGpuWindowOp(op), "");
  auto why = [&](int64_t vector, int64_t outputs, int64_t threads) {
    return whyNotGpuWindowKernel(
        op, GpuWindowTiles::fromValues(
                {{"vector", vector}, {"outputs", outputs}, {"block_threads", threads}}));
  };
  EXPECT_EQ(why(4, 2, 64), "");
  EXPECT_NE(why(3, 1, 64), "");  // not a power of two
  EXPECT_NE(why(32, 1, 64), ""); // does not divide 16 channels
  EXPECT_NE(why(4, 32, 64), ""); // more than 16 outputs
  EXPECT_NE(why(4, 1, 48), "");  // not whole warps
  EXPECT_NE(why(16, 8, 64), ""); // a tile of 128 elements
}

TEST_F(GpuWindowKernelTest, RefusesOpsThatAreNotWindows) {
  // All parallel: nothing to keep in registers.
  linalg::LinalgOp elementwise = parse(R"MLIR(
    func.func @f(%x: memref<8x16xf32>, %y: memref<8x16xf32>) {
      linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                      iterator_types = ["parallel", "parallel"]}
          ins(%x : memref<8x16xf32>) outs(%y : memref<8x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      }
      return
    })MLIR");
  ASSERT_TRUE(elementwise);
  EXPECT_EQ(whyNotGpuWindowOp(elementwise), "it has no reduction loop");
  // The output transposed: its indices are not the parallel loops in order.
  linalg::LinalgOp transposed = parse(R"MLIR(
    func.func @f(%x: memref<8x4x16xf32>, %y: memref<16x8xf32>) {
      linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k, j)>, affine_map<(i, j, k) -> (j, i)>],
                      iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%x : memref<8x4x16xf32>) outs(%y : memref<16x8xf32>) {
      ^bb0(%a: f32, %o: f32):
        %s = arith.addf %o, %a : f32
        linalg.yield %s : f32
      }
      return
    })MLIR");
  ASSERT_TRUE(transposed);
  EXPECT_EQ(whyNotGpuWindowOp(transposed),
            "its output is not indexed by its parallel loops in order");
}

TEST_F(GpuWindowKernelTest, BuildsOneLaunchWithVectorLoadsAndAbsorbsTheFill) {
  linalg::LinalgOp op =
      parse(depthwiseSource("{vector = 4, outputs = 2, block_threads = 64}", false));
  ASSERT_TRUE(op);
  Value out = op.getDpsInits()[0];
  ASSERT_TRUE(succeeded(buildGpuWindowKernels(*module, /*fuseEpilogues=*/true)));
  Counts n = count(*module, out);
  EXPECT_EQ(n.launches, 1);
  EXPECT_EQ(n.linalgOps, 0); // the fill and the convolution
  EXPECT_GT(n.inputVectorLoads, 0);
  EXPECT_EQ(n.inputScalarLoads, 0);
  EXPECT_EQ(n.fromElements, 0);
  EXPECT_EQ(n.outputLoads, 0); // the accumulators start from the fill's zero
  gpu::LaunchOp launch;
  module->walk([&](gpu::LaunchOp l) { launch = l; });
  auto constant = [](Value v) { return getConstantIntValue(v).value_or(-1); };
  // 8 x 4 groups of 2 columns x 4 groups of 4 channels = 128 items: two
  // blocks of 64 threads.
  EXPECT_EQ(constant(launch.getGridSizeX()), 2);
  EXPECT_EQ(constant(launch.getBlockSizeX()), 64);
  EXPECT_EQ(constant(launch.getBlockSizeY()), 1);
}

TEST_F(GpuWindowKernelTest, ComputesTheEpilogueAsItStores) {
  linalg::LinalgOp op = parse(depthwiseSource("{vector = 4}", true));
  ASSERT_TRUE(op);
  Value product = op.getDpsInits()[0];
  ASSERT_TRUE(succeeded(buildGpuWindowKernels(*module, /*fuseEpilogues=*/true)));
  Counts n = count(*module);
  EXPECT_EQ(n.launches, 1);
  EXPECT_EQ(n.linalgOps, 0);
  // The kernel stores the epilogue's result (%r), never the product.
  int stores = 0, productStores = 0;
  module->walk([&](vector::StoreOp store) {
    ++stores;
    productStores += store.getBase() == product;
  });
  EXPECT_EQ(stores, 1);
  EXPECT_EQ(productStores, 0);
}

TEST_F(GpuWindowKernelTest, LeavesTheEpilogueWhenAskedTo) {
  linalg::LinalgOp op = parse(depthwiseSource("{vector = 4}", true));
  ASSERT_TRUE(op);
  ASSERT_TRUE(succeeded(buildGpuWindowKernels(*module, /*fuseEpilogues=*/false)));
  Counts n = count(*module);
  EXPECT_EQ(n.launches, 1);
  EXPECT_EQ(n.linalgOps, 1); // the bias add
}

TEST_F(GpuWindowKernelTest, RunsTheBodyOnceAChannelWhereTheLaneRulesStop) {
  // The body converts the channel's index to a float: not a lane rule.
  linalg::LinalgOp op = parse(R"MLIR(
    func.func @f(%x: memref<5x6x8xf32>, %y: memref<5x8xf32>) {
      %out = memref.alloc() : memref<5x8xf32>
      linalg.generic {indexing_maps = [affine_map<(n, c, k) -> (n, k, c)>,
                                       affine_map<(n, c, k) -> (n, c)>],
                      iterator_types = ["parallel", "parallel", "reduction"],
                      dltune.gpu_kernel = {vector = 4, outputs = 1, block_threads = 32}}
          ins(%x : memref<5x6x8xf32>) outs(%out : memref<5x8xf32>) {
      ^bb0(%v: f32, %o: f32):
        %c = linalg.index 1 : index
        %ci = arith.index_cast %c : index to i32
        %cf = arith.sitofp %ci : i32 to f32
        %m = arith.mulf %v, %cf : f32
        %s = arith.addf %o, %m : f32
        linalg.yield %s : f32
      }
      memref.copy %out, %y : memref<5x8xf32> to memref<5x8xf32>
      return
    })MLIR");
  ASSERT_TRUE(op);
  Value out = op.getDpsInits()[0];
  ASSERT_TRUE(succeeded(buildGpuWindowKernels(*module, /*fuseEpilogues=*/true)));
  Counts n = count(*module, out);
  EXPECT_EQ(n.launches, 1);
  EXPECT_EQ(n.inputVectorLoads, 0);
  EXPECT_GT(n.inputScalarLoads, 0);
  EXPECT_GT(n.fromElements, 0);
  // No fill: the accumulators start from the output.
  EXPECT_GT(n.outputLoads, 0);
}

TEST_F(GpuWindowKernelTest, TakesArgumentsThatOnlyMayShareMemoryAsDistinct) {
  // A tuning task's op reads and writes arguments, as the caller's
  // distinct buffers.
  linalg::LinalgOp op = parse(R"MLIR(
    func.func @f(%x: memref<1x10x10x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x8x8x16xf32>) {
      linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>,
                                         strides = dense<1> : tensor<2xi64>,
                                         dltune.gpu_kernel = {vector = 4}}
        ins(%x, %w : memref<1x10x10x16xf32>, memref<3x3x16xf32>) outs(%y : memref<1x8x8x16xf32>)
      return
    })MLIR");
  ASSERT_TRUE(op);
  ASSERT_TRUE(succeeded(buildGpuWindowKernels(*module, /*fuseEpilogues=*/true)));
  Counts n = count(*module);
  EXPECT_EQ(n.launches, 1);
  EXPECT_EQ(n.linalgOps, 0);
}

TEST_F(GpuWindowKernelTest, LeavesAnOpWhoseOutputIsABufferItReads) {
  // Reads its own output through an input: a block's stores would change
  // what other blocks still read.
  linalg::LinalgOp op = parse(R"MLIR(
    func.func @f(%y: memref<5x8xf32>) {
      linalg.generic {indexing_maps = [affine_map<(n, c, k) -> (k, c)>,
                                       affine_map<(n, c, k) -> (n, c)>],
                      iterator_types = ["parallel", "parallel", "reduction"],
                      dltune.gpu_kernel = {vector = 4}}
          ins(%y : memref<5x8xf32>) outs(%y : memref<5x8xf32>) {
      ^bb0(%v: f32, %o: f32):
        %s = arith.addf %o, %v : f32
        linalg.yield %s : f32
      }
      return
    })MLIR");
  ASSERT_TRUE(op);
  ASSERT_TRUE(succeeded(buildGpuWindowKernels(*module, /*fuseEpilogues=*/true)));
  Counts n = count(*module);
  EXPECT_EQ(n.launches, 0);
  EXPECT_EQ(n.linalgOps, 1);
  EXPECT_FALSE(op->hasAttr(DLTuneDialect::kGpuKernelAttrName));
}

TEST_F(GpuWindowKernelTest, InvalidTilesAreAnError) {
  linalg::LinalgOp op = parse(depthwiseSource("{vector = 3}", false));
  ASSERT_TRUE(op);
  EXPECT_TRUE(failed(buildGpuWindowKernels(*module, /*fuseEpilogues=*/true)));
}

TEST_F(GpuWindowKernelTest, LeavesAnOutputNotContiguousAlongTheChannels) {
  // The output is every other channel of a buffer: no vector stores.
  linalg::LinalgOp op = parse(R"MLIR(
    func.func @f(%x: memref<1x10x10x16xf32>, %w: memref<3x3x16xf32>, %y: memref<1x8x8x32xf32>) {
      %out = memref.subview %y[0, 0, 0, 0] [1, 8, 8, 16] [1, 1, 1, 2]
          : memref<1x8x8x32xf32> to memref<1x8x8x16xf32, strided<[2048, 256, 32, 2]>>
      linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>,
                                         strides = dense<1> : tensor<2xi64>,
                                         dltune.gpu_kernel = {vector = 4}}
        ins(%x, %w : memref<1x10x10x16xf32>, memref<3x3x16xf32>)
        outs(%out : memref<1x8x8x16xf32, strided<[2048, 256, 32, 2]>>)
      return
    })MLIR");
  ASSERT_TRUE(op);
  ASSERT_TRUE(succeeded(buildGpuWindowKernels(*module, /*fuseEpilogues=*/true)));
  Counts n = count(*module);
  EXPECT_EQ(n.launches, 0);
  EXPECT_EQ(n.linalgOps, 1);
}
