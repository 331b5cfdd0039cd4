//===- GpuRowReductionTest.cpp - Which ops share a row kernel -------------===//
//
// What runs without a GPU: which leftover ops become one row kernel
// (launches, linalg ops left, barriers between dependent steps). What the
// kernels compute is checked by the CPU emulation
// (test/Integration/gpu-row-chain-emulated.mlir, gpu-reduction-emulated.mlir).
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/GpuRowReduction.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {
struct Counts {
  int launches = 0, barriers = 0, linalgOps = 0, subgroupReduces = 0, vectorLoads = 0,
      vectorStores = 0;
};

class GpuRowReductionTest : public ::testing::Test {
protected:
  GpuRowReductionTest() {
    ctx.loadDialect<affine::AffineDialect, arith::ArithDialect, func::FuncDialect,
                    gpu::GPUDialect, linalg::LinalgDialect, math::MathDialect,
                    memref::MemRefDialect, scf::SCFDialect, vector::VectorDialect>();
  }
  /// Parses `source`, builds its row kernels and counts what is left.
  Counts build(StringRef source, bool fuseRowOps = true) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    Counts counts;
    if (!module)
      return counts;
    EXPECT_TRUE(succeeded(buildGpuRowReductions(*module, fuseRowOps)));
    EXPECT_TRUE(succeeded(verify(*module)));
    module->walk([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        ++counts.launches;
      else if (isa<gpu::BarrierOp>(op))
        ++counts.barriers;
      else if (isa<gpu::SubgroupReduceOp>(op))
        ++counts.subgroupReduces;
      else if (isa<linalg::LinalgOp>(op))
        ++counts.linalgOps;
      else if (isa<vector::LoadOp>(op))
        ++counts.vectorLoads;
      else if (isa<vector::StoreOp>(op))
        ++counts.vectorStores;
    });
    return counts;
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

// Softmax as bufferization leaves it: the max and the sum in one buffer of
// a value a row, each after its fill; the exponentials written over a
// second buffer that the division overwrites.
constexpr const char *kSoftmax = R"mlir(
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: memref<6x100xf32>) -> memref<6x100xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<6xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<6xf32>)
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<6x100xf32>) outs(%m : memref<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  }
  %e = memref.alloc() : memref<6x100xf32>
  linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<6x100xf32>, memref<6xf32>) outs(%e : memref<6x100xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  }
  linalg.fill ins(%zero : f32) outs(%m : memref<6xf32>)
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<6x100xf32>) outs(%m : memref<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%e, %m : memref<6x100xf32>, memref<6xf32>) outs(%e : memref<6x100xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.divf %in, %s : f32
    linalg.yield %v : f32
  }
  return %e : memref<6x100xf32>
}
)mlir";

TEST_F(GpuRowReductionTest, BuildsSoftmaxAsOneKernelWithABarrierBetweenDependentSteps) {
  Counts counts = build(kSoftmax);
  EXPECT_EQ(counts.launches, 1);
  EXPECT_EQ(counts.linalgOps, 0); // both fills absorbed
  EXPECT_EQ(counts.subgroupReduces, 2);
  // Before the exponentials (they read the max), the sum (it reads them and
  // overwrites the max) and the division (it reads the sum).
  EXPECT_EQ(counts.barriers, 3);
  // Rows of 100 (400 bytes apart): each lane takes 4 elements at once, one
  // vector load a step of each operand along the row (the max and the sum
  // stay scalar loads), one vector store a step that writes the row.
  EXPECT_EQ(counts.vectorLoads, 4);
  EXPECT_EQ(counts.vectorStores, 2);
}

TEST_F(GpuRowReductionTest, KeepsEveryReductionApartWithoutFusion) {
  Counts counts = build(kSoftmax, /*fuseRowOps=*/false);
  EXPECT_EQ(counts.launches, 2);
  EXPECT_EQ(counts.linalgOps, 2); // the exponentials and the division
  EXPECT_EQ(counts.barriers, 0);
}

// The keep-dims form of the encoder's layer norm: [1, 64, 1] sums read as
// [1, 64] through a collapse_shape, the centring written in place over the
// input, a fill of another buffer of a value a row before it. `other` is an
// allocation or, in the second case, an argument that may share memory with
// %x: then its fill writes what the sum may read at other rows' addresses
// and stays out.
constexpr const char *kCentre = R"mlir(
#rows3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @centre(%x: memref<1x64x256xf32>, %arg: memref<1x64x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %alloc = memref.alloc() : memref<1x64x1xf32>
  %s = memref.alloc() : memref<1x64x1xf32>
  linalg.fill ins(%zero : f32) outs(OTHER : memref<1x64x1xf32>)
  linalg.fill ins(%zero : f32) outs(%s : memref<1x64x1xf32>)
  linalg.generic {indexing_maps = [#rows3, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<1x64x256xf32>) outs(%s : memref<1x64x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  }
  %sc = memref.collapse_shape %s [[0], [1, 2]] : memref<1x64x1xf32> into memref<1x64xf32>
  linalg.generic {indexing_maps = [#rows3, #row3, #rows3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sc : memref<1x64x256xf32>, memref<1x64xf32>) outs(%x : memref<1x64x256xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %mean = arith.divf %sum, %n : f32
    %v = arith.subf %in, %mean : f32
    linalg.yield %v : f32
  }
  return
}
)mlir";

TEST_F(GpuRowReductionTest, MatchesRowsThroughUnitDimensionsAndViews) {
  std::string source = kCentre;
  source.replace(source.find("OTHER"), 5, "%alloc");
  Counts counts = build(source);
  EXPECT_EQ(counts.launches, 1);
  EXPECT_EQ(counts.linalgOps, 0);
  // Only the centring waits (it reads the sum); the fill of %alloc and the
  // sum touch different buffers.
  EXPECT_EQ(counts.barriers, 1);
}

TEST_F(GpuRowReductionTest, LeavesOutAStepThatMayTouchOtherRowsOfAStepsBuffer) {
  std::string source = kCentre;
  source.replace(source.find("OTHER"), 5, "%arg");
  Counts counts = build(source);
  EXPECT_EQ(counts.launches, 1);
  EXPECT_EQ(counts.linalgOps, 1); // the fill of %arg
  EXPECT_EQ(counts.barriers, 1);
}

// Row sums of %x into %s, then AFTER (ops that use %s, %x, %y, %z, %c0).
constexpr const char *kRowSumsThen = R"mlir(
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @f(%x: memref<64x64xf32>, %y: memref<64x64xf32>, %z: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %s = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<64xf32>)
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  }
  AFTER
  return
}
)mlir";

/// kRowSumsThen with `after` in place of AFTER.
static std::string rowSumsThen(StringRef after) {
  std::string source = kRowSumsThen;
  source.replace(source.find("AFTER"), 5, after.str());
  return source;
}

// Each element scaled by the sum of the row its column names: row r reads
// other rows' sums, which other blocks compute.
TEST_F(GpuRowReductionTest, EndsTheKernelWhereAStepReadsOtherRows) {
  Counts counts = build(rowSumsThen(R"mlir(
  linalg.generic {indexing_maps = [#rows, #col, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<64x64xf32>, memref<64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %v = arith.mulf %in, %sum : f32
    linalg.yield %v : f32
  })mlir"));
  EXPECT_EQ(counts.launches, 1);
  EXPECT_EQ(counts.linalgOps, 1); // the scaling, left to the leftover mapping
}

// A load in a body has an unknown address: it may read any row of a buffer
// a step writes.
TEST_F(GpuRowReductionTest, EndsTheKernelWhereABodyLoadsWhatAStepWrites) {
  Counts counts = build(rowSumsThen(R"mlir(
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %first = memref.load %s[%c0] : memref<64xf32>
    %v = arith.mulf %in, %first : f32
    linalg.yield %v : f32
  })mlir"));
  EXPECT_EQ(counts.launches, 1);
  EXPECT_EQ(counts.linalgOps, 1);
}

// Nothing moves across an op with memory effects (a copy) between steps;
// without it, the scaling by the row's own sum joins.
TEST_F(GpuRowReductionTest, EndsTheKernelAtAnOpWithMemoryEffects) {
  // Into a fresh buffer: %y, an argument, may share memory with %x.
  constexpr const char *scale = R"mlir(
  %o = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<64x64xf32>, memref<64xf32>) outs(%o : memref<64x64xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %v = arith.mulf %in, %sum : f32
    linalg.yield %v : f32
  })mlir";
  Counts counts = build(rowSumsThen(
      (Twine("memref.copy %z, %x : memref<64x64xf32> to memref<64x64xf32>") + scale).str()));
  EXPECT_EQ(counts.launches, 1);
  EXPECT_EQ(counts.linalgOps, 1);
  Counts joined = build(rowSumsThen(scale));
  EXPECT_EQ(joined.launches, 1);
  EXPECT_EQ(joined.linalgOps, 0);
  EXPECT_EQ(joined.barriers, 1);
}

// An element-wise op before the first reduction joins where it fits its
// rows (the attention's scale); one along the columns (a transpose: lanes
// would not read consecutive elements) does not, nor do element-wise ops
// without a reduction.
TEST_F(GpuRowReductionTest, TakesElementwiseOpsBeforeTheFirstReductionThatFitItsRows) {
  Counts counts = build(R"mlir(
#rows = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @f(%x: memref<64x64xf32>, %t: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %a = memref.alloc() : memref<64x64xf32>
  %b = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#cols, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x64xf32>) outs(%b : memref<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%a : memref<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %c : f32
    linalg.yield %v : f32
  }
  %s = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<64xf32>)
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  }
  return
}
)mlir");
  EXPECT_EQ(counts.launches, 1);
  EXPECT_EQ(counts.linalgOps, 1); // the transpose
  EXPECT_EQ(counts.barriers, 1);  // the sum reads the scale's output
}
} // namespace

//===----------------------------------------------------------------------===//
// The frame (GpuRowTiles) and runs on tensors
//===----------------------------------------------------------------------===//

TEST_F(GpuRowReductionTest, TakesTheFrameOfTheFirstReductionWithTiles) {
  // The sum's tiles are ignored: the max comes first.
  std::string source = kSoftmax;
  auto tag = [&](StringRef body, StringRef tiles) {
    size_t at = source.find(body.str());
    size_t open = source.rfind("linalg.generic {", at) + std::string("linalg.generic {").size();
    source.insert(open, ("dltune.gpu_kernel = " + tiles + ", ").str());
  };
  tag("arith.maximumf", "{lanes = 8, rows = 16, vector = 2}");
  tag("arith.addf %in, %out", "{lanes = 32, rows = 1, vector = 1}");
  Counts counts = build(source);
  ASSERT_EQ(counts.launches, 1);
  gpu::LaunchOp launch;
  module->walk([&](gpu::LaunchOp op) { launch = op; });
  auto constant = [](Value v) { return getConstantIntValue(v).value_or(-1); };
  EXPECT_EQ(constant(launch.getBlockSizeX()), 8);
  EXPECT_EQ(constant(launch.getBlockSizeY()), 16);
  EXPECT_EQ(constant(launch.getGridSizeX()), 1); // 6 rows, 16 a block
  // Every load along the row at most 2 wide (4 without the cap).
  module->walk([&](vector::LoadOp load) { EXPECT_LE(load.getVectorType().getNumElements(), 2); });
  EXPECT_GT(counts.vectorLoads, 0);
}

TEST_F(GpuRowReductionTest, KeepsTheDefaultFrameWithoutTiles) {
  ASSERT_EQ(build(kSoftmax).launches, 1);
  gpu::LaunchOp launch;
  module->walk([&](gpu::LaunchOp op) { launch = op; });
  // 100 long rows: a warp of lanes; 6 rows: 8 a block (a power of two).
  EXPECT_EQ(getConstantIntValue(launch.getBlockSizeX()), 32);
  EXPECT_EQ(getConstantIntValue(launch.getBlockSizeY()), 8);
}

TEST_F(GpuRowReductionTest, FailsOnInvalidTiles) {
  std::string source = kSoftmax;
  size_t open = source.find("linalg.generic {") + std::string("linalg.generic {").size();
  source.insert(open, "dltune.gpu_kernel = {lanes = 64, rows = 1, vector = 1}, ");
  module = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(module);
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(buildGpuRowReductions(*module, true)));
}

TEST(GpuRowTilesTest, RoundTripsAndChecks) {
  MLIRContext ctx;
  GpuRowTiles t{16, 4, 2};
  std::optional<GpuRowTiles> back = GpuRowTiles::fromAttr(t.toAttr(&ctx));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->lanes, 16);
  EXPECT_EQ(back->rows, 4);
  EXPECT_EQ(back->vector, 2);
  EXPECT_TRUE(GpuRowTiles::isRowTilesAttr(t.toAttr(&ctx)));
  EXPECT_EQ(whyNotGpuRowTiles(t), "");
  EXPECT_NE(whyNotGpuRowTiles({16, 1, 2}), "");  // half a warp
  EXPECT_NE(whyNotGpuRowTiles({32, 64, 2}), ""); // 2048 threads
  EXPECT_NE(whyNotGpuRowTiles({1, 32, 2}), "");  // one lane: no cluster
  EXPECT_NE(whyNotGpuRowTiles({32, 3, 2}), "");  // rows not a power of two
  EXPECT_NE(whyNotGpuRowTiles({32, 1, 3}), "");
  // The default: a warp of lanes for long rows, fewer for short ones; a
  // block of 256 threads, at least a warp.
  GpuRowTiles d = GpuRowTiles::getDefault(100, 6, 4);
  EXPECT_EQ(d.lanes, 32);
  EXPECT_EQ(d.rows, 8);
  EXPECT_EQ(d.vector, 4);
  d = GpuRowTiles::getDefault(12, 1000, 2);
  EXPECT_EQ(d.lanes, 16);
  EXPECT_EQ(d.rows, 16);
  EXPECT_EQ(d.vector, 8);
  d = GpuRowTiles::getDefault(9, 1, 4);
  EXPECT_EQ(d.lanes * d.rows, 32);
}

// Softmax on tensors with a matmul after it: the run of the max ends at
// the matmul; the fill of the matmul's C (6 rows of 8, the softmax's rows)
// is the matmul kernel's, not a step.
constexpr const char *kSoftmaxOnTensors = R"mlir(
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<6x100xf32>, %w: tensor<100x8xf32>, %c: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x100xf32>) outs(%mi : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<6xf32>
  %ee = tensor.empty() : tensor<6x100xf32>
  %exp = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<6x100xf32>, tensor<6xf32>) outs(%ee : tensor<6x100xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<6x100xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<6x100xf32>) outs(%si : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<6xf32>
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<6x100xf32>, tensor<6xf32>) outs(%ee : tensor<6x100xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.divf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<6x100xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%c : tensor<6x8xf32>) -> tensor<6x8xf32>
  %r = linalg.matmul ins(%y, %w : tensor<6x100xf32>, tensor<100x8xf32>) outs(%cz : tensor<6x8xf32>) -> tensor<6x8xf32>
  %z = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x100xf32>) outs(%sum : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<6xf32>
  return %r : tensor<6x8xf32>
}
)mlir";

TEST_F(GpuRowReductionTest, FindsSoftmaxsRunOnTensors) {
  module = parseSourceString<ModuleOp>(kSoftmaxOnTensors, &ctx);
  ASSERT_TRUE(module);
  SmallVector<linalg::LinalgOp> reductions;
  module->walk([&](linalg::GenericOp op) {
    if (op.getNumReductionLoops() == 1)
      reductions.push_back(op);
  });
  ASSERT_EQ(reductions.size(), 3u);
  // The max: its fill, it, the exponentials, the sum's fill, the sum and
  // the division; not the matmul's fill, the matmul or what follows it.
  SmallVector<Operation *> run = getGpuRowRun(reductions[0]);
  // The tensor.empty between the max and the exponentials goes with them.
  llvm::erase_if(run, [](Operation *op) { return isa<tensor::EmptyOp>(op); });
  ASSERT_EQ(run.size(), 6u);
  EXPECT_TRUE(isa<linalg::FillOp>(run[0]));
  EXPECT_EQ(run[1], reductions[0].getOperation());
  EXPECT_EQ(run[4], reductions[1].getOperation());
  EXPECT_FALSE(getEarlierRowReductionOfRun(reductions[0]));
  EXPECT_EQ(getEarlierRowReductionOfRun(reductions[1]), reductions[0]);
  // After the matmul a new run begins.
  EXPECT_FALSE(getEarlierRowReductionOfRun(reductions[2]));
  EXPECT_EQ(whyNotGpuRowReductionOp(reductions[2]), "");
}
