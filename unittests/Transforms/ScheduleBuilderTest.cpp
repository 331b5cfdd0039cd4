//===- ScheduleBuilderTest.cpp - Structure of the built-in schedules -----===//
//
// Each built-in schedule (CPU, packed CPU, fused epilogue, GPU) is built for
// a small op with a fixed configuration, and its sequence of transform ops
// (names, tile sizes, unroll factors, pads) is checked.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/ScheduleBuilder.h"
#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {
constexpr llvm::StringLiteral kOp = "__test_op__",
                              kEpilogue = "__test_epilogue__",
                              kFill = "__test_fill__";

std::string join(ArrayRef<int64_t> values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

/// One line per op of the entry sequence: its name without the dialect
/// prefix and the attributes that carry the schedule's numbers.
std::vector<std::string> summarize(ModuleOp module) {
  std::vector<std::string> lines;
  auto sequence = *module.getOps<transform::NamedSequenceOp>().begin();
  for (Operation &op : sequence.getBody().front()) {
    std::string line =
        op.getName().getStringRef().drop_front(strlen("transform.")).str();
    if (auto tile = dyn_cast<transform::TileUsingForOp>(op)) {
      line += " " + join(tile.getStaticSizes());
      if (!tile.getInterchange().empty())
        line += " interchange " + join(tile.getInterchange());
    } else if (auto forall = dyn_cast<transform::TileUsingForallOp>(op)) {
      line += " " + join(forall.getStaticTileSizes());
      if (std::optional<ArrayAttr> mapping = forall.getMapping()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << *mapping;
        line += " " + text;
      }
    } else if (auto unroll = dyn_cast<transform::LoopUnrollOp>(op)) {
      line += " " + std::to_string(unroll.getFactor());
    } else if (auto param = dyn_cast<transform::ParamConstantOp>(op)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      if (auto i = dyn_cast<IntegerAttr>(param.getValue()))
        os << i.getInt();
      else
        os << param.getValue();
      line += " " + text;
    } else if (auto pad = dyn_cast<transform::PadOp>(op)) {
      SmallVector<int64_t> nofold;
      for (Attribute a : pad.getNofoldFlags())
        nofold.push_back(cast<IntegerAttr>(a).getInt());
      line += " nofold " + join(nofold);
    } else if (auto hoist = dyn_cast<transform::HoistPadOp>(op)) {
      line += " " + std::to_string(hoist.getNumLoops());
    }
    lines.push_back(line);
  }
  return lines;
}

class ScheduleBuilderTest : public ::testing::Test {
protected:
  ScheduleBuilderTest() {
    DialectRegistry registry;
    registerScheduleExtensions(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadDialect<DLTuneDialect, func::FuncDialect, linalg::LinalgDialect,
                    arith::ArithDialect, tensor::TensorDialect, scf::SCFDialect,
                    transform::TransformDialect, gpu::GPUDialect,
                    vector::VectorDialect>();
  }

  /// Parses `source` and builds the plan of its first linalg op that has a
  /// plan (the fill of a fused group has none).
  linalg::LinalgOp parseRoot(StringRef source, ScheduleTarget target) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    linalg::LinalgOp root;
    module->walk([&](linalg::LinalgOp op) {
      std::string why;
      if (!root && !isa<linalg::FillOp>(op) &&
          succeeded(buildSchedulePlan(op, target, cpu, why)))
        root = op;
    });
    EXPECT_TRUE(root);
    return root;
  }

  /// The schedule of the op in `source` for `values`; fails with `error`.
  FailureOr<OwningOpRef<ModuleOp>>
  build(StringRef source, const std::map<std::string, int64_t> &values,
        ScheduleTarget target = ScheduleTarget::CPU) {
    linalg::LinalgOp root = parseRoot(source, target);
    std::string why;
    FailureOr<SchedulePlan> plan = buildSchedulePlan(root, target, cpu, why);
    EXPECT_TRUE(succeeded(plan)) << why;
    std::optional<FusedEpilogue> fused;
    if (target == ScheduleTarget::CPU)
      if (linalg::GenericOp epilogue = getFusableEpilogue(root))
        fused = FusedEpilogue{getEpilogueLoopsInRoot(root, epilogue),
                              static_cast<bool>(getFusableFill(root))};
    return buildScheduleModule(&ctx, UnknownLoc::get(&ctx), *plan, values,
                               ScheduleMarkers{kOp, kEpilogue, kFill}, error,
                               fused ? &*fused : nullptr);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  CpuTarget cpu{4, 8, 16, 32 << 10, 512 << 10};
  std::string error;
};

constexpr llvm::StringLiteral kMatmul = R"MLIR(
  func.func @f(%a: tensor<256x512xf32>, %b: tensor<512x384xf32>,
               %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x384xf32>)
                       outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
    return %r : tensor<256x384xf32>
  })MLIR";

/// `head` followed by what every CPU schedule ends with: `vectorized` ops
/// vectorized, the lowering and canonicalization pattern blocks, one
/// hoist per register loop and the unroll of the innermost one.
std::vector<std::string> withCpuTail(std::vector<std::string> head,
                                     int vectorized, int registerLoops,
                                     int64_t unroll) {
  head.insert(head.end(), vectorized, "structured.vectorize");
  head.insert(head.end(), 2, "apply_patterns");
  head.insert(head.end(), registerLoops, "loop.hoist_loop_invariant_subsets");
  head.push_back("loop.unroll " + std::to_string(unroll));
  head.push_back("yield");
  return head;
}

std::map<std::string, int64_t> matmulValues() {
  return {{"threads", 2}, {"tile_m", 64},  {"tile_n", 128}, {"tile_k", 256},
          {"reg_m", 4},   {"reg_n", 16},   {"unroll", 4},   {"pack_a", 0},
          {"pack_b", 0},  {"vectorize", 1}};
}
} // namespace

TEST_F(ScheduleBuilderTest, CpuMatmul) {
  auto schedule = build(kMatmul, matmulValues());
  ASSERT_TRUE(succeeded(schedule)) << error;
  EXPECT_EQ(summarize(schedule->get()),
            withCpuTail(
                {
                    "structured.match",
                    "structured.tile_using_forall [128, 0, 0]",
                    "param.constant 2",
                    "annotate",
                    "structured.tile_using_for [64, 128, 256]",
                    "structured.tile_using_for [4, 16, 1]",
                },
                1, 3, 4));
}

/// The packed matmul schedule's loops: cache loops n, k (B depends on
/// them) outside m, register loops n outside m; then `packing`.
static std::vector<std::string> packedMatmulSummary(std::vector<std::string> packing) {
  std::vector<std::string> head = {
      "structured.match",
      "structured.tile_using_for [64, 128, 256] interchange [1, 2, 0]",
      "structured.tile_using_for [4, 16, 0] interchange [1, 0, 2]"};
  head.insert(head.end(), packing.begin(), packing.end());
  head.push_back("structured.tile_using_for [0, 0, 1]");
  return withCpuTail(head, 1, 3, 4);
}

static std::map<std::string, int64_t> packedMatmulValues() {
  std::map<std::string, int64_t> values = matmulValues();
  values["threads"] = 1;
  values["pack_a"] = values["pack_b"] = 1;
  return values;
}

TEST_F(ScheduleBuilderTest, CpuMatmulPacked) {
  auto schedule = build(kMatmul, packedMatmulValues());
  ASSERT_TRUE(succeeded(schedule)) << error;
  // A and B copied into zero-padded (nofold) panels, B hoisted above the m
  // cache loop too.
  EXPECT_EQ(
      summarize(schedule->get()),
      packedMatmulSummary(
          {
              "structured.pad nofold [1, 1, 0]",
              "apply_licm",
              "get_producer_of_operand",
              "structured.hoist_pad 2",
              "get_producer_of_operand",
              "structured.hoist_pad 3",
          }));
}

// A splat constant B (a stripped model's weight) is not packed: only A's
// panel is padded and hoisted (slicing the splat folds to a constant that
// hoist_pad cannot pack from; test/Integration/cpu-splat-weight.mlir).
TEST_F(ScheduleBuilderTest, CpuMatmulPackedLeavesASplatOperandAlone) {
  constexpr llvm::StringLiteral kSplatB = R"MLIR(
    func.func @f(%a: tensor<256x512xf32>, %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
      %b = arith.constant dense<0.5> : tensor<512x384xf32>
      %r = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x384xf32>)
                         outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
      return %r : tensor<256x384xf32>
    })MLIR";
  auto schedule = build(kSplatB, packedMatmulValues());
  ASSERT_TRUE(succeeded(schedule)) << error;
  EXPECT_EQ(summarize(schedule->get()),
            packedMatmulSummary({
                "structured.pad nofold [1, 0, 0]",
                "apply_licm",
                "get_producer_of_operand",
                "structured.hoist_pad 2",
            }));
}

TEST(GpuPlanTargetTest, ComputeCapabilityOfChip) {
  EXPECT_EQ(GpuPlanTarget::getComputeCapabilityOfChip("sm_80"), 80);
  EXPECT_EQ(GpuPlanTarget::getComputeCapabilityOfChip("sm_90a"), 90);
  EXPECT_EQ(GpuPlanTarget::getComputeCapabilityOfChip("sm_100"), 100);
  EXPECT_EQ(GpuPlanTarget::getComputeCapabilityOfChip(""), 0);
  EXPECT_EQ(GpuPlanTarget::getComputeCapabilityOfChip("gfx90a"), 0);
  EXPECT_EQ(GpuPlanTarget::getComputeCapabilityOfChip("sm_"), 0);
}

// A tuning task's op reads function arguments; a space recorded with
// `tma = 0` (its model op reads views the TMA may not take) must keep
// warpgroup MMA out of the task's rebuilt space and default too.
TEST_F(ScheduleBuilderTest, GpuSpaceRecordedWithoutTensorMapsOffersNoWgmma) {
  constexpr llvm::StringLiteral kHalf = R"MLIR(
    func.func @f(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>,
                 %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>)
                         outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
      return %r : tensor<2048x2048xf32>
    })MLIR";
  linalg::LinalgOp op = parseRoot(kHalf, ScheduleTarget::GPU);
  std::string why;
  FailureOr<SchedulePlan> readable = buildSchedulePlan(op, ScheduleTarget::GPU, cpu, why);
  ASSERT_TRUE(succeeded(readable)) << why;
  EXPECT_EQ(readable->preferred.at("wgmma"), 1);
  GpuPlanTarget views;
  views.tensorMapsReadOperands = false;
  FailureOr<SchedulePlan> plan = buildSchedulePlan(op, ScheduleTarget::GPU, cpu, why, views);
  ASSERT_TRUE(succeeded(plan)) << why;
  EXPECT_EQ(plan->preferred.at("wgmma"), 0);
  GpuPlanTarget rebuilt = GpuPlanTarget::fromSpace(plan->space);
  ASSERT_TRUE(rebuilt.tensorMapsReadOperands.has_value());
  EXPECT_FALSE(*rebuilt.tensorMapsReadOperands);
  FailureOr<SchedulePlan> again = buildSchedulePlan(op, ScheduleTarget::GPU, cpu, why, rebuilt);
  ASSERT_TRUE(succeeded(again)) << why;
  std::optional<Config> config = again->getDefaultConfig();
  ASSERT_TRUE(config.has_value());
  std::optional<size_t> wgmma = again->space.getKnobIndex("wgmma");
  std::optional<size_t> mma = again->space.getKnobIndex("mma");
  ASSERT_TRUE(wgmma && mma);
  EXPECT_EQ((*config)[*wgmma], 0);
  EXPECT_EQ((*config)[*mma], 1);
  // Nor is it offered: no valid configuration sets it.
  Config withWgmma = *config;
  withWgmma[*wgmma] = 1;
  EXPECT_FALSE(again->space.isValid(withWgmma));
}

TEST_F(ScheduleBuilderTest, CpuMatmulWithFusedEpilogueAndFill) {
  constexpr llvm::StringLiteral source = R"MLIR(
    func.func @f(%a: tensor<256x512xf32>, %b: tensor<512x384xf32>,
                 %bias: tensor<384xf32>) -> tensor<256x384xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<256x384xf32>
      %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x384xf32>) -> tensor<256x384xf32>
      %m = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x384xf32>)
                         outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
      %o = tensor.empty() : tensor<256x384xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                            affine_map<(d0, d1) -> (d1)>,
                                            affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%m, %bias : tensor<256x384xf32>, tensor<384xf32>)
          outs(%o : tensor<256x384xf32>) {
        ^bb0(%x: f32, %y: f32, %out: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
      } -> tensor<256x384xf32>
      return %r : tensor<256x384xf32>
    })MLIR";
  auto schedule = build(source, matmulValues());
  ASSERT_TRUE(succeeded(schedule)) << error;
  // The epilogue is tiled for threads and cache tiles; the matmul and its
  // fill are fused into each level, then the matmul's reduction and
  // register tiles follow; the epilogue tile is split into 64-wide vectors,
  // one row at a time.
  EXPECT_EQ(summarize(schedule->get()),
            withCpuTail(
                {
                    "structured.match",
                    "structured.match",
                    "structured.match",
                    "structured.tile_using_forall [128, 0]",
                    "param.constant 2",
                    "annotate",
                    "structured.fuse_into_containing_op",
                    "structured.fuse_into_containing_op",
                    "structured.tile_using_for [64, 128]",
                    "structured.fuse_into_containing_op",
                    "structured.fuse_into_containing_op",
                    "structured.tile_using_for [0, 0, 256]",
                    "structured.tile_using_for [4, 16, 1]",
                    "structured.tile_using_for [1, 64]",
                },
                2, 3, 4));
}

TEST_F(ScheduleBuilderTest, GpuMatmulHandsItsTilesToTheKernelBuilder) {
  // The GPU kernel is built after bufferization (GpuMatmulKernel.h): the
  // schedule only annotates the op with every tile size, defaults filled in
  // for knobs the config leaves out (pad, stages, interleave).
  std::map<std::string, int64_t> values = {
      {"block_m", 64}, {"block_n", 32}, {"thread_m", 4}, {"thread_n", 2},
      {"tile_k", 16},  {"vector", 2}};
  auto schedule = build(kMatmul, values, ScheduleTarget::GPU);
  ASSERT_TRUE(succeeded(schedule)) << error;
  EXPECT_EQ(summarize(schedule->get()),
            (std::vector<std::string>{
                "structured.match",
                "param.constant {block_m = 64 : i64, block_n = 32 : i64, interleave = 0 : i64, "
                "pad = 0 : i64, stages = 1 : i64, thread_m = 4 : i64, thread_n = 2 : i64, "
                "tile_k = 16 : i64, vector = 2 : i64}",
                "annotate",
                "yield",
            }));
}

TEST_F(ScheduleBuilderTest, DecomposedConvolution) {
  constexpr llvm::StringLiteral source = R"MLIR(
    func.func @f(%i: tensor<1x18x18x32xf32>, %w: tensor<3x3x32x64xf32>,
                 %o: tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32> {
      %r = linalg.conv_2d_nhwc_hwcf
          {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%i, %w : tensor<1x18x18x32xf32>, tensor<3x3x32x64xf32>)
          outs(%o : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
      return %r : tensor<1x16x16x64xf32>
    })MLIR";
  std::map<std::string, int64_t> values = {
      {"threads", 1}, {"tile_oh", 1}, {"tile_ow", 16}, {"reg_ow", 4},
      {"tile_f", 64}, {"reg_f", 16},  {"tile_c", 16},  {"reg_c", 1},
      {"unroll", 4},  {"pack_f", 0},  {"vectorize", 1}};
  auto schedule = build(source, values);
  ASSERT_TRUE(succeeded(schedule)) << error;
  // Whole-loop tiles (n, ow, f) stay untiled; the register tile is
  // decomposed to a 1-D convolution before vectorization.
  EXPECT_EQ(summarize(schedule->get()),
            withCpuTail(
                {
                    "structured.match",
                    "structured.tile_using_for [0, 1, 0, 0, 0, 0, 16]",
                    "structured.tile_using_for [0, 0, 4, 16, 1, 1, 1]",
                    "structured.decompose",
                },
                1, 5, 4));
}

TEST_F(ScheduleBuilderTest, MissingKnobFailsAndBuildsNothing) {
  std::map<std::string, int64_t> values = matmulValues();
  values.erase("tile_k");
  EXPECT_TRUE(failed(build(kMatmul, values)));
  EXPECT_EQ(error, "configuration has no value for knob 'tile_k'");

  // buildSchedule leaves the sequence it was to fill untouched.
  linalg::LinalgOp root = parseRoot(kMatmul, ScheduleTarget::CPU);
  std::string why;
  FailureOr<SchedulePlan> plan =
      buildSchedulePlan(root, ScheduleTarget::CPU, cpu, why);
  ASSERT_TRUE(succeeded(plan)) << why;
  OpBuilder b(&ctx);
  Location loc = UnknownLoc::get(&ctx);
  OwningOpRef<ModuleOp> holder = ModuleOp::create(b, loc);
  b.setInsertionPointToEnd(holder->getBody());
  Type anyOp = b.getType<transform::AnyOpType>();
  auto sequence = transform::NamedSequenceOp::create(
      b, loc, "s", anyOp, TypeRange(),
      [](OpBuilder &, Location, BlockArgument) {});
  Block &body = sequence.getBody().front();
  b.setInsertionPointToEnd(&body);
  Value arg = body.getArgument(0);
  EXPECT_TRUE(failed(
      buildSchedule(b, loc, arg, arg, Value(), Value(), *plan, values, error)));
  EXPECT_EQ(error, "configuration has no value for knob 'tile_k'");
  EXPECT_TRUE(body.empty());
}

TEST_F(ScheduleBuilderTest, TilesThatDoNotDivideFail) {
  std::map<std::string, int64_t> values = matmulValues();
  values["tile_m"] = 48;
  EXPECT_TRUE(failed(build(kMatmul, values)));
  EXPECT_EQ(error, "tile sizes of loop 'm' do not divide its extent 256");
}

TEST_F(ScheduleBuilderTest, ContextWithoutExtensionsFails) {
  MLIRContext bare;
  bare.loadDialect<transform::TransformDialect>();
  linalg::LinalgOp root = parseRoot(kMatmul, ScheduleTarget::CPU);
  std::string why;
  FailureOr<SchedulePlan> plan =
      buildSchedulePlan(root, ScheduleTarget::CPU, cpu, why);
  ASSERT_TRUE(succeeded(plan)) << why;
  EXPECT_TRUE(failed(
      buildScheduleModule(&bare, UnknownLoc::get(&bare), *plan, matmulValues(),
                          ScheduleMarkers{kOp, kEpilogue, kFill}, error)));
  EXPECT_EQ(error, "the Transform, GPU and Vector dialects must be loaded to "
                   "build a schedule");
}
