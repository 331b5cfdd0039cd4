//===- GpuMatmulKernelTest.cpp - Tile sizes and checks of the GPU matmul ---===//
//
// What runs without a GPU: the tile sizes' round trip through the op's
// attribute, the reasons a kernel is refused, and the structure of the
// built launch (grid and block from the tiles, the fill absorbed, shared
// buffers of the staged slices). What the kernel computes is checked on a
// GPU (test/Integration/gpu-run-device.mlir, bench/gpu.py).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/GpuMatmulKernel.h"

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
class GpuMatmulKernelTest : public ::testing::Test {
protected:
  GpuMatmulKernelTest() {
    ctx.loadDialect<DLTuneDialect, arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                    linalg::LinalgDialect, memref::MemRefDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }
  /// The first linalg op of `source`.
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

bool isWorkgroupMemorySpace(Type type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(cast<MemRefType>(type).getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

constexpr llvm::StringLiteral kFilledMatmul = R"MLIR(
  func.func @f(%a: memref<128x64xf32>, %b: memref<64x256xf32>, %c: memref<128x256xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<128x256xf32>)
    linalg.matmul ins(%a, %b : memref<128x64xf32>, memref<64x256xf32>) outs(%c : memref<128x256xf32>)
    return
  })MLIR";
} // namespace

TEST_F(GpuMatmulKernelTest, TilesRoundTripThroughTheAttribute) {
  GpuMatmulTiles t = GpuMatmulTiles::fromValues(
      {{"block_m", 128}, {"block_n", 32}, {"thread_m", 8}, {"thread_n", 2},
       {"tile_k", 8}, {"vector", 2}, {"pad", 4}, {"stages", 2}, {"unrelated", 7}});
  EXPECT_EQ(t.threads(), 16 * 16);
  std::optional<GpuMatmulTiles> back = GpuMatmulTiles::fromAttr(t.toAttr(&ctx));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->blockM, 128);
  EXPECT_EQ(back->blockN, 32);
  EXPECT_EQ(back->threadM, 8);
  EXPECT_EQ(back->threadN, 2);
  EXPECT_EQ(back->tileK, 8);
  EXPECT_EQ(back->vector, 2);
  EXPECT_EQ(back->pad, 4);
  EXPECT_EQ(back->stages, 2);
  // A dictionary missing a size is not a kernel's tiles.
  Builder b(&ctx);
  EXPECT_FALSE(GpuMatmulTiles::fromAttr(
      b.getDictionaryAttr({b.getNamedAttr("block_m", b.getI64IntegerAttr(64))})));
}

TEST_F(GpuMatmulKernelTest, RefusesTilesTheOpCannotTake) {
  linalg::LinalgOp op = parse(kFilledMatmul);
  ASSERT_TRUE(op);
  GpuMatmulTiles ok; // 64x64 blocks of 16x16 threads, 4x4 each, k slices of 16
  EXPECT_EQ(whyNotGpuMatmulKernel(op, ok), "");
  GpuMatmulTiles t = ok;
  t.blockN = 96;
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t), "block_n and tile_k must divide N and K");
  // block_m need not divide M (128): the last row of blocks is clamped.
  t = ok;
  t.blockM = 256;
  t.threadM = 8;
  t.tileK = 32;
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t), "");
  t = ok;
  t.threadN = 3;
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t), "thread_m and thread_n must divide block_m and block_n");
  t = ok;
  t.threadM = t.threadN = 1; // 4096 threads
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t), "a block must have 1 to 1024 threads");
  t = ok;
  t.tileK = 4;
  t.vector = 8;
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t), "vector must divide tile_k and block_n");
  t = ok;
  t.tileK = 4; // 64x4 A slice = 256 floats for 256 threads: not whole vectors of 4
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t),
            "each thread must load whole vectors of the A and B tiles");
  t = ok;
  t.blockM = t.blockN = 128;
  t.threadM = t.threadN = 8;
  t.tileK = 64;
  t.stages = 2; // 2 x 64 x 256 floats = 128 KiB: dynamic shared memory
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t), "");
  t.pad = 128; // rows of 384 floats: 192 KiB + 64 KiB
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t),
            "the shared-memory tiles exceed the 227 KiB a block may have");
  t = ok;
  t.stages = 3;
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t),
            "more than 2 stages need mma and async_copy (cp.async keeps them in flight)");
  t.stages = 5;
  EXPECT_EQ(whyNotGpuMatmulKernel(op, t),
            "tile sizes must be positive, pad non-negative, stages 1 to 4, interleave 0 or 1");
}

TEST_F(GpuMatmulKernelTest, BuildsOneLaunchAndAbsorbsTheFill) {
  linalg::LinalgOp op = parse(kFilledMatmul);
  ASSERT_TRUE(op);
  GpuMatmulTiles t = GpuMatmulTiles::fromValues(
      {{"block_m", 64}, {"block_n", 128}, {"thread_m", 4}, {"thread_n", 8}, {"tile_k", 16},
       {"pad", 4}, {"stages", 2}});
  IRRewriter rewriter(&ctx);
  ASSERT_TRUE(succeeded(buildGpuMatmulKernel(rewriter, op, t)));
  int launches = 0, fills = 0, matmuls = 0;
  module->walk([&](Operation *o) {
    launches += isa<gpu::LaunchOp>(o);
    fills += isa<linalg::FillOp>(o);
    matmuls += isa<linalg::MatmulOp>(o);
  });
  EXPECT_EQ(launches, 1);
  EXPECT_EQ(fills, 0);
  EXPECT_EQ(matmuls, 0);
  func::FuncOp func = *module->getOps<func::FuncOp>().begin();
  gpu::LaunchOp launch = *func.getOps<gpu::LaunchOp>().begin();
  auto constant = [](Value v) { return getConstantIntValue(v).value_or(-1); };
  // Grid (N / block_n, M / block_m, batch), block (block_n / thread_n,
  // block_m / thread_m, 1).
  EXPECT_EQ(constant(launch.getGridSizeX()), 2);
  EXPECT_EQ(constant(launch.getGridSizeY()), 2);
  EXPECT_EQ(constant(launch.getGridSizeZ()), 1);
  EXPECT_EQ(constant(launch.getBlockSizeX()), 16);
  EXPECT_EQ(constant(launch.getBlockSizeY()), 16);
  EXPECT_EQ(constant(launch.getBlockSizeZ()), 1);
  // A k-major, B row-major: [stages, tile_k, block + pad].
  ASSERT_EQ(launch.getWorkgroupAttributions().size(), 2u);
  auto shape = [&](unsigned i) {
    return cast<MemRefType>(launch.getWorkgroupAttributions()[i].getType()).getShape().vec();
  };
  EXPECT_EQ(shape(0), (std::vector<int64_t>{2, 16, 68}));
  EXPECT_EQ(shape(1), (std::vector<int64_t>{2, 16, 132}));
  // Nothing reads C: the accumulators start from the fill's value.
  bool readsC = false;
  Value c = func.getArgument(2);
  launch.walk([&](Operation *o) {
    if (isa<vector::LoadOp, memref::LoadOp>(o) && o->getOperand(0) == c)
      readsC = true;
  });
  EXPECT_FALSE(readsC);
}

TEST_F(GpuMatmulKernelTest, KeepsAFillSomethingElseReadsFirst) {
  linalg::LinalgOp op = parse(R"MLIR(
    func.func @f(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>,
                 %d: memref<64x64xf32>) {
      %zero = arith.constant 0.0 : f32
      linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
      memref.copy %c, %d : memref<64x64xf32> to memref<64x64xf32>
      linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
      return
    })MLIR");
  ASSERT_TRUE(op);
  IRRewriter rewriter(&ctx);
  ASSERT_TRUE(succeeded(buildGpuMatmulKernel(rewriter, op, GpuMatmulTiles())));
  int fills = 0;
  module->walk([&](linalg::FillOp) { ++fills; });
  EXPECT_EQ(fills, 1);
}

TEST_F(GpuMatmulKernelTest, InterleavedTilesStoreChunksOfFour) {
  // 8 x 8 thread tiles: contiguous, one 8-wide store per row; interleaved,
  // two 4-wide chunks per row, block_n / 2 apart.
  for (int64_t interleave : {0, 1}) {
    linalg::LinalgOp op = parse(kFilledMatmul);
    ASSERT_TRUE(op);
    GpuMatmulTiles t = GpuMatmulTiles::fromValues(
        {{"block_m", 128}, {"block_n", 128}, {"thread_m", 8}, {"thread_n", 8}, {"tile_k", 8},
         {"interleave", interleave}});
    IRRewriter rewriter(&ctx);
    ASSERT_TRUE(succeeded(buildGpuMatmulKernel(rewriter, op, t)));
    std::vector<int64_t> widths;
    module->walk([&](vector::StoreOp store) {
      if (!isWorkgroupMemorySpace(store.getBase().getType()))
        widths.push_back(store.getVectorType().getNumElements());
    });
    EXPECT_EQ(widths, std::vector<int64_t>(interleave ? 16 : 8, interleave ? 4 : 8));
  }
}

TEST_F(GpuMatmulKernelTest, TensorCoreFieldsRoundTripAndStayOutOfSimtAttributes) {
  GpuMatmulTiles t = GpuMatmulTiles::fromValues({{"block_m", 128}, {"block_n", 64}, {"mma", 1},
                                                 {"warp_m", 64}, {"warp_n", 32}, {"async_copy", 1}});
  // Two rows of two warps.
  EXPECT_EQ(t.threads(), 4 * 32);
  std::optional<GpuMatmulTiles> back = GpuMatmulTiles::fromAttr(t.toAttr(&ctx));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->mma, 1);
  EXPECT_EQ(back->warpM, 64);
  EXPECT_EQ(back->warpN, 32);
  EXPECT_EQ(back->asyncCopy, 1);
  // A SIMT kernel's attribute has no tensor-core fields, and an attribute
  // without them reads as SIMT.
  DictionaryAttr simt = GpuMatmulTiles().toAttr(&ctx);
  for (StringRef name : {"mma", "warp_m", "warp_n", "async_copy"})
    EXPECT_FALSE(simt.contains(name)) << name.str();
  std::optional<GpuMatmulTiles> simtBack = GpuMatmulTiles::fromAttr(simt);
  ASSERT_TRUE(simtBack.has_value());
  EXPECT_EQ(simtBack->mma, 0);
  EXPECT_EQ(simtBack->asyncCopy, 0);
}

TEST_F(GpuMatmulKernelTest, TensorCoresNeedF16OrTheTf32OptIn) {
  auto source = [](StringRef in, StringRef moduleAttrs) {
    return ("module " + moduleAttrs + " {\n  func.func @f(%a: memref<64x64x" + in +
            ">, %b: memref<64x64x" + in + ">, %c: memref<64x64xf32>) {\n" +
            "    linalg.matmul ins(%a, %b : memref<64x64x" + in + ">, memref<64x64x" + in +
            ">) outs(%c : memref<64x64xf32>)\n    return\n  }\n}")
        .str();
  };
  linalg::LinalgOp op = parse(source("f16", ""));
  ASSERT_TRUE(op);
  EXPECT_EQ(whyNotGpuMatmulMma(op), "");
  op = parse(source("f32", ""));
  ASSERT_TRUE(op);
  EXPECT_NE(whyNotGpuMatmulMma(op).find("dltune.allow_tf32"), std::string::npos);
  EXPECT_FALSE(isTf32AllowedAnywhere(*module));
  GpuMatmulTiles mma = GpuMatmulTiles::fromValues({{"mma", 1}, {"pad", 0}, {"interleave", 0}});
  EXPECT_NE(whyNotGpuMatmulKernel(op, mma).find("TF32"), std::string::npos);
  op = parse(source("f32", "attributes {dltune.allow_tf32}"));
  ASSERT_TRUE(op);
  EXPECT_EQ(whyNotGpuMatmulMma(op), "");
  EXPECT_TRUE(isTf32Allowed(op));
  EXPECT_TRUE(isTf32AllowedAnywhere(*module));
  EXPECT_EQ(whyNotGpuMatmulKernel(op, mma), "");
  EXPECT_EQ(getMmaK(Float32Type::get(&ctx)), 8);
  EXPECT_EQ(getMmaK(Float16Type::get(&ctx)), 16);
  op = parse(source("bf16", ""));
  ASSERT_TRUE(op);
  EXPECT_NE(whyNotGpuMatmulMma(op), "");
}

//===----------------------------------------------------------------------===//
// Implicit GEMM: A gathered in the kernel's loads
//===----------------------------------------------------------------------===//

namespace {
/// The patch gather of a convolution with a `taps` x `taps` filter on a
/// `channels`-channel input (as --dltune-conv-to-matmul writes it,
/// bufferized: 8 x 8 output pixels, K = taps^2 x channels) and the matmul
/// reading it; C is a filled allocation, or the argument %c where
/// `cArgument` (accumulated into: no fill writes it between the gather and
/// the matmul, which would keep the gather for a reason of its own).
std::string gatherSource(int64_t taps, int64_t channels, bool cArgument) {
  std::string s = R"MLIR(
    func.func @f(%x: memref<1xINxINxCxf32>, %b: memref<Kx16xf32>, %c: memref<64x16xf32>) {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %cTaps = arith.constant TAPS : index
      %cChannels = arith.constant CHANNELS : index
      %cRow = arith.constant ROW : index
      %zero = arith.constant 0.0 : f32
      %a = memref.alloc() : memref<64xKxf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                      iterator_types = ["parallel", "parallel"]} outs(%a : memref<64xKxf32>) {
      ^bb0(%o: f32):
        %row = linalg.index 0 : index
        %col = linalg.index 1 : index
        %py = arith.divui %row, %c8 : index
        %px = arith.remui %row, %c8 : index
        %ty = arith.divui %col, %cRow : index
        %q = arith.divui %col, %cChannels : index
        %tx = arith.remui %q, %cTaps : index
        %ch = arith.remui %col, %cChannels : index
        %h = arith.addi %py, %ty : index
        %w = arith.addi %px, %tx : index
        %v = memref.load %x[%c0, %h, %w, %ch] : memref<1xINxINxCxf32>
        linalg.yield %v : f32
      }
      OUTPUT
      linalg.matmul ins(%a, %b : memref<64xKxf32>, memref<Kx16xf32>) outs(%out : memref<64x16xf32>)
      COPY
      return
    })MLIR";
  auto replace = [&](llvm::StringRef from, const std::string &to) {
    for (size_t at = s.find(from.str()); at != std::string::npos; at = s.find(from.str(), at))
      s.replace(at, from.size(), to), at += to.size();
  };
  replace("OUTPUT", cArgument ? ""
                              : "%out = memref.alloc() : memref<64x16xf32>\n"
                                "      linalg.fill ins(%zero : f32) outs(%out : memref<64x16xf32>)");
  replace("COPY",
          cArgument ? "" : "memref.copy %out, %c : memref<64x16xf32> to memref<64x16xf32>");
  if (cArgument)
    replace("%out", "%c");
  replace("xINxINxCx", "x" + std::to_string(8 + taps - 1) + "x" + std::to_string(8 + taps - 1) +
                           "x" + std::to_string(channels) + "x");
  replace("TAPS", std::to_string(taps));
  replace("CHANNELS", std::to_string(channels));
  replace("ROW", std::to_string(taps * channels));
  replace("Kx", std::to_string(taps * taps * channels) + "x");
  replace("xK", "x" + std::to_string(taps * taps * channels));
  return s;
}

/// Tiles the 64 x 16 products of gatherSource take (K a multiple of 4).
GpuMatmulTiles gatherTiles() {
  return GpuMatmulTiles::fromValues({{"block_m", 64}, {"block_n", 16}, {"thread_m", 8},
                                     {"thread_n", 8}, {"tile_k", 4}, {"vector", 4}});
}

struct GatherCounts {
  bool built = false;
  int generics = 0, allocs = 0, fromElements = 0, inputVectorLoads = 0, inputScalarLoads = 0;
};

/// Builds the kernel of gatherSource's matmul and counts what is left of
/// the gather: generics, allocations, and the kernel's loads of the input.
GatherCounts buildGatherKernel(MLIRContext &ctx, OwningOpRef<ModuleOp> &module,
                               const std::string &source, GpuMatmulFusions fusions = {}) {
  GatherCounts n;
  module = parseSourceString<ModuleOp>(source, &ctx);
  if (!module)
    return n;
  linalg::LinalgOp matmul;
  module->walk([&](linalg::MatmulOp op) { matmul = op; });
  IRRewriter rewriter(&ctx);
  n.built = matmul && succeeded(buildGpuMatmulKernel(rewriter, matmul, gatherTiles(), fusions));
  Value input = module->lookupSymbol<func::FuncOp>("f").getArgument(0);
  module->walk([&](Operation *op) {
    bool inKernel = op->getParentOfType<gpu::LaunchOp>() != nullptr;
    n.generics += isa<linalg::GenericOp>(op);
    n.allocs += isa<memref::AllocOp>(op);
    n.fromElements += isa<vector::FromElementsOp>(op) && inKernel;
    if (auto load = dyn_cast<vector::LoadOp>(op); load && load.getBase() == input)
      ++n.inputVectorLoads;
    if (auto load = dyn_cast<memref::LoadOp>(op); load && load.getMemRef() == input && inKernel)
      ++n.inputScalarLoads;
  });
  return n;
}
} // namespace

TEST_F(GpuMatmulKernelTest, GathersAWithOneVectorLoadWhereChannelsAreContiguous) {
  // 16 channels, vectors of 4: each of a thread's A vectors is 4 channels
  // of one pixel. The gather and its buffer are gone (C's is left).
  GatherCounts n = buildGatherKernel(ctx, module, gatherSource(3, 16, /*cArgument=*/false));
  ASSERT_TRUE(n.built);
  EXPECT_EQ(n.generics, 0);
  EXPECT_EQ(n.allocs, 1);
  EXPECT_GT(n.inputVectorLoads, 0);
  EXPECT_EQ(n.inputScalarLoads, 0);
  EXPECT_EQ(n.fromElements, 0);
}

TEST_F(GpuMatmulKernelTest, GathersALaneAtATimeWhereChannelsAreNot) {
  // A 2x2 filter on 3 channels (K = 12): 4 consecutive columns span
  // pixels; the body runs once a lane.
  GatherCounts n = buildGatherKernel(ctx, module, gatherSource(2, 3, /*cArgument=*/false));
  ASSERT_TRUE(n.built);
  EXPECT_EQ(n.generics, 0);
  EXPECT_EQ(n.inputVectorLoads, 0);
  EXPECT_GT(n.inputScalarLoads, 0);
  EXPECT_GT(n.fromElements, 0);
}

TEST_F(GpuMatmulKernelTest, KeepsTheGatherWhereCMayAliasItsInput) {
  // C and the input are both arguments: a block's stores could change what
  // other blocks still gather.
  GatherCounts n = buildGatherKernel(ctx, module, gatherSource(3, 16, /*cArgument=*/true));
  ASSERT_TRUE(n.built);
  EXPECT_EQ(n.generics, 1);
  EXPECT_EQ(n.inputVectorLoads, 0);
}

TEST_F(GpuMatmulKernelTest, KeepsTheGatherWhenAskedTo) {
  GpuMatmulFusions fusions;
  fusions.gathers = false;
  GatherCounts n =
      buildGatherKernel(ctx, module, gatherSource(3, 16, /*cArgument=*/false), fusions);
  ASSERT_TRUE(n.built);
  EXPECT_EQ(n.generics, 1);
  EXPECT_EQ(n.allocs, 2);
  EXPECT_EQ(n.inputVectorLoads, 0);
}
