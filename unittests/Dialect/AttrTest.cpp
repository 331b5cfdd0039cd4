//===- AttrTest.cpp - dltune attribute and plan tests ---------------------===//

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/Passes.h"
#include "dltune/Transforms/ScheduleBuilder.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {
class DLTuneAttrTest : public ::testing::Test {
protected:
  DLTuneAttrTest() {
    DialectRegistry registry;
    registerScheduleExtensions(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadDialect<DLTuneDialect, func::FuncDialect, linalg::LinalgDialect,
                    arith::ArithDialect, tensor::TensorDialect, transform::TransformDialect,
                    gpu::GPUDialect, vector::VectorDialect>();
  }
  MLIRContext ctx;
};
} // namespace

TEST_F(DLTuneAttrTest, SpaceAttrBuildsTheLibrarySpace) {
  Attribute a = parseAttribute(
      "#dltune.space<knobs {tile = pow2<4, 32>, reg = range<2, 6, 2>}, "
      "params {M = 64}, constraints [\"M % tile == 0\", \"tile % reg == 0\"]>",
      &ctx);
  auto space = dyn_cast_or_null<SpaceAttr>(a);
  ASSERT_TRUE(space);
  llvm::Expected<SearchSpace> s = space.getSearchSpace();
  ASSERT_TRUE(static_cast<bool>(s));
  ASSERT_EQ(s->getKnobs().size(), 2u);
  EXPECT_EQ(s->getKnobs()[0].values, (std::vector<int64_t>{4, 8, 16, 32}));
  EXPECT_EQ(s->getKnobs()[1].values, (std::vector<int64_t>{2, 4, 6}));
  // tile in {4,8,16,32} x reg in {2,4,6} with tile % reg == 0: 4:2,4 8:2,4
  // 16:2,4 32:2,4 -> 8 configs.
  EXPECT_EQ(s->countValid(), 8u);
  // Rebuilding the attribute from the library space gives the same one.
  EXPECT_EQ(getSpaceAttr(&ctx, *s), space);
}

TEST_F(DLTuneAttrTest, ConfigAttrRoundTripsThroughTheLibrary) {
  llvm::Expected<SearchSpace> s = SearchSpace::create(
      {{"a", {1, 2}}, {"b", {3, 4}}}, {}, {});
  ASSERT_TRUE(static_cast<bool>(s));
  ConfigAttr c = ConfigAttr::get(&ctx, *s, Config{2, 3});
  EXPECT_EQ(c.getValue("a"), 2);
  EXPECT_EQ(c.getValue("b"), 3);
  EXPECT_FALSE(c.getValue("z").has_value());
  llvm::Expected<Config> back = c.toConfig(*s);
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_EQ(*back, (Config{2, 3}));
  auto partial = dyn_cast<ConfigAttr>(parseAttribute("#dltune.config<a = 1>", &ctx));
  ASSERT_TRUE(partial);
  llvm::Expected<Config> missing = partial.toConfig(*s);
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()), "has no value for knob 'b'");
}

TEST_F(DLTuneAttrTest, MatmulPlanDefaultConfigIsValidAndTiled) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"MLIR(
    func.func @f(%a: tensor<256x512xf32>, %b: tensor<512x384xf32>,
                 %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x384xf32>)
                         outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
      return %r : tensor<256x384xf32>
    })MLIR", &ctx);
  ASSERT_TRUE(module);
  linalg::LinalgOp op;
  module->walk([&](linalg::MatmulOp m) { op = m; });
  std::string why;
  FailureOr<SchedulePlan> plan = buildSchedulePlan(op, ScheduleTarget::CPU, 2, why);
  ASSERT_TRUE(succeeded(plan)) << why;
  EXPECT_EQ(plan->loopSizes, (SmallVector<int64_t>{256, 384, 512}));
  std::optional<Config> c = plan->getDefaultConfig();
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(plan->space.isValid(*c));
  auto value = [&](const char *name) {
    return (*c)[*plan->space.getKnobIndex(name)];
  };
  EXPECT_EQ(value("vectorize"), 1);
  EXPECT_EQ(value("threads"), 2);
  EXPECT_EQ(384 % value("tile_n"), 0);
  EXPECT_EQ(value("tile_m") % value("reg_m"), 0);
  std::map<std::string, int64_t> values;
  for (size_t i = 0; i < c->size(); ++i)
    values[plan->space.getKnobs()[i].name] = (*c)[i];
  std::string error;
  ScheduleMarkers markers{"op", "epilogue", "fill"};
  FailureOr<OwningOpRef<ModuleOp>> schedule = buildScheduleModule(
      &ctx, UnknownLoc::get(&ctx), *plan, values, markers, error);
  ASSERT_TRUE(succeeded(schedule)) << error;
  int foralls = 0, namedContractions = 0;
  schedule->get().walk([&](Operation *op) {
    foralls += isa<transform::TileUsingForallOp>(op);
    if (auto vectorize = dyn_cast<transform::VectorizeOp>(op))
      namedContractions += vectorize.getCreateNamedContraction().value_or(false);
  });
  EXPECT_EQ(foralls, 1);
  EXPECT_EQ(namedContractions, 1);
  values.erase("tile_k");
  EXPECT_TRUE(failed(buildScheduleModule(&ctx, UnknownLoc::get(&ctx), *plan, values,
                                         markers, error)));
  EXPECT_EQ(error, "configuration has no value for knob 'tile_k'");
}

TEST_F(DLTuneAttrTest, CpuDefaultConfigFollowsTheMachine) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"MLIR(
    func.func @f(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>,
                 %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>)
                         outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
      return %r : tensor<512x512xf32>
    })MLIR", &ctx);
  ASSERT_TRUE(module);
  linalg::LinalgOp op;
  module->walk([&](linalg::MatmulOp m) { op = m; });
  auto defaults = [&](const CpuTarget &cpu) {
    std::string why;
    FailureOr<SchedulePlan> plan = buildSchedulePlan(op, ScheduleTarget::CPU, cpu, why);
    EXPECT_TRUE(succeeded(plan)) << why;
    std::optional<Config> c = plan->getDefaultConfig();
    EXPECT_TRUE(c.has_value());
    std::map<std::string, int64_t> values;
    for (size_t i = 0; i < c->size(); ++i)
      values[plan->space.getKnobs()[i].name] = (*c)[i];
    return values;
  };
  // AVX-512: 32 registers of 16 lanes hold an 8x32 accumulator tile.
  CpuTarget avx512{1, 16, 32, 32 << 10, 1 << 20};
  std::map<std::string, int64_t> wide = defaults(avx512);
  EXPECT_EQ(wide["reg_n"], 32);
  EXPECT_EQ(wide["reg_m"], 8);
  EXPECT_EQ(wide["tile_k"], 256); // 256 x 32 f32 = 32 KiB of B in L1
  // AVX2: 16 registers of 8 lanes; 8x16 would need 16 accumulators and spill.
  CpuTarget avx2{1, 8, 16, 32 << 10, 512 << 10};
  std::map<std::string, int64_t> narrow = defaults(avx2);
  EXPECT_EQ(narrow["reg_n"], 16);
  EXPECT_EQ(narrow["reg_m"], 4);
  EXPECT_LE(narrow["reg_m"] * narrow["reg_n"] / 8 + narrow["reg_n"] / 8 + 2, 16);
  EXPECT_EQ(narrow["tile_k"], 256); // 256 x 16 f32 = 16 KiB of B in L1
  EXPECT_EQ(narrow["tile_n"], 256); // packed: 256 x 256 f32 = 256 KiB, half of L2
  EXPECT_EQ(narrow["pack_a"], 1);
  EXPECT_EQ(narrow["pack_b"], 1);
  EXPECT_EQ(narrow["unroll"], 4);
  // A larger L2 allows a wider B block.
  CpuTarget bigL2 = avx2;
  bigL2.l2Bytes = 2 << 20;
  EXPECT_GT(defaults(bigL2)["tile_n"], narrow["tile_n"]);
}

TEST_F(DLTuneAttrTest, UnsupportedOpsGetAReason) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"MLIR(
    func.func @f(%a: tensor<?x8xf32>, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
      %r = linalg.copy ins(%a : tensor<?x8xf32>) outs(%c : tensor<?x8xf32>) -> tensor<?x8xf32>
      return %r : tensor<?x8xf32>
    })MLIR", &ctx);
  ASSERT_TRUE(module);
  linalg::LinalgOp op;
  module->walk([&](linalg::LinalgOp m) { op = m; });
  std::string why;
  EXPECT_TRUE(failed(buildSchedulePlan(op, ScheduleTarget::CPU, 2, why)));
  EXPECT_FALSE(why.empty());
}
