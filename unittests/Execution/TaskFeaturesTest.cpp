//===- TaskFeaturesTest.cpp - Features of tasks and of their history -----===//

#include "dltune/Execution/TaskFeatures.h"
#include "dltune/Transforms/SchedulePlan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dltune;

namespace {
TaskRecord record(const std::string &opKind, const std::string &shapes,
                  const std::string &types = "f32;f32;f32") {
  TaskRecord t;
  t.hash = "h";
  t.opKind = opKind;
  t.target = "cpu";
  t.shapes = shapes;
  t.elementTypes = types;
  return t;
}

linalg::LinalgOp findOp(ModuleOp module) {
  linalg::LinalgOp op;
  module.walk([&](linalg::LinalgOp o) { op = o; });
  return op;
}

size_t column(const FeatureExtractor &f, const std::string &name) {
  std::vector<std::string> names = f.getNames();
  auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return it - names.begin();
}
} // namespace

TEST(DeviceInfo, ReadsWhatItWrites) {
  DeviceInfo d;
  d.target = "gpu";
  d.cpuModel = "Some CPU";
  d.isaFlags = {"avx2", "fma"};
  d.cores = 12;
  d.frequencyMHz = 2500;
  d.l1dBytes = 32768;
  d.l2Bytes = 1 << 20;
  d.l3Bytes = 32 << 20;
  d.gpu = GpuDeviceInfo{"NVIDIA H100", 9, 0, 132, size_t(80) << 30};
  DeviceInfo back = llvm::cantFail(DeviceInfo::fromJson(d.toJson()));
  EXPECT_EQ(back.toJson(), d.toJson());
  EXPECT_EQ(back.getFingerprint(), d.getFingerprint());
  EXPECT_EQ(back.getFeatures(), d.getFeatures());
  // Missing fields keep their defaults; wrong types and non-objects fail.
  EXPECT_EQ(llvm::cantFail(DeviceInfo::fromJson("{\"cores\": 3}")).cores, 3);
  for (const char *bad : {"{\"cores\": \"many\"}", "{\"cores\": 1e300}", "{\"l2_bytes\": -1}",
                          "[1]", "{\"isa_flags\": [1]}",
                          "{\"gpu\": {\"compute_capability\": \"x\"}}", "{"}) {
    llvm::Expected<DeviceInfo> e = DeviceInfo::fromJson(bad);
    EXPECT_FALSE(static_cast<bool>(e)) << bad;
    if (!e)
      EXPECT_NE(llvm::toString(e.takeError()).find("device record"), std::string::npos);
  }
}

TEST(TaskFeatures, RebuildsTheOpOfARecord) {
  MLIRContext context;
  auto mm = llvm::cantFail(
      rebuildTaskOp(context, record("linalg.matmul + addf", "64x128;128x32;64x32")));
  linalg::LinalgOp op = findOp(*mm);
  ASSERT_TRUE(op);
  EXPECT_TRUE(isa<linalg::MatmulOp>(op.getOperation()));
  EXPECT_EQ(op.getStaticLoopRanges(), (SmallVector<int64_t>{64, 32, 128}));

  auto conv = llvm::cantFail(rebuildTaskOp(
      context, record("linalg.conv_2d_nhwc_hwcf stride 2x2 + addf+maximumf",
                      "1x9x9x4;3x3x4x8;1x4x4x8")));
  op = findOp(*conv);
  ASSERT_TRUE(op);
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  ASSERT_TRUE(strides);
  EXPECT_EQ(llvm::to_vector(strides.getValues<int64_t>()), (SmallVector<int64_t>{2, 2}));

  auto dw = llvm::cantFail(rebuildTaskOp(
      context, record("linalg.depthwise_conv_2d_nhwc_hwc", "1x10x10x16;3x3x16;1x8x8x16")));
  EXPECT_TRUE(isa<linalg::DepthwiseConv2DNhwcHwcOp>(findOp(*dw).getOperation()));

  // What cannot be rebuilt says why.
  struct Bad {
    TaskRecord task;
    const char *why;
  } bad[] = {
      {record("linalg.matmul", "64x128;64x32;64x32"), "do not fit"},
      {record("elementwise addf", "8;8;8"), "not an op that can be rebuilt"},
      {record("linalg.matmul maps (d0,d2) (d2,d1) (d0,d1)", "4x4;4x4;4x4"), "not rebuilt"},
      {record("linalg.matmul", "4x4;4x4", "f32;f32"), "do not describe the three operands"},
      {record("linalg.matmul", "4x4x4;4x4;4x4"), "operand 0 has rank 3, expected 2"},
      {record("linalg.matmul", "4x4;4x4;4x4", "f32;f32"), "do not describe"},
      {record("linalg.matmul", "4xa;4x4;4x4"), "bad shape"},
      {record("linalg.conv_2d_nhwc_hwcf stride 2", "1x9x9x4;3x3x4x8;1x4x4x8"), "bad stride"},
      {record("linalg.matmul", "4x4;4x4;4x4", "f32;f32;tensor<2xf32>"), "bad element type"},
      {record("linalg.matmul", "4x4;4x4;4x4", "index;index;index"), "bad element type"},
  };
  for (Bad &b : bad) {
    llvm::Expected<OwningOpRef<ModuleOp>> m = rebuildTaskOp(context, b.task);
    ASSERT_FALSE(static_cast<bool>(m)) << b.task.opKind << " " << b.task.shapes;
    std::string message = llvm::toString(m.takeError());
    EXPECT_NE(message.find(b.why), std::string::npos) << message;
  }
}

TEST(TaskFeatures, HistoryRowsKeepTheirOwnShapesAndDevice) {
  MLIRContext context;
  // The target: a 64x64x64 matmul on this machine, in its plan's space.
  auto targetModule =
      llvm::cantFail(rebuildTaskOp(context, record("linalg.matmul", "64x64;64x64;64x64")));
  linalg::LinalgOp targetOp = findOp(*targetModule);
  std::string why;
  FailureOr<SchedulePlan> plan = buildSchedulePlan(targetOp, ScheduleTarget::CPU, 1, why);
  ASSERT_TRUE(succeeded(plan)) << why;
  SearchSpace space = plan->space;
  DeviceInfo here;
  here.target = "cpu";
  here.cores = 2;
  here.isaFlags = {"avx2", "fma"};
  std::shared_ptr<const FeatureExtractor> target =
      makeTaskFeatures(targetOp, space, "cpu", here, 2.0 * 64 * 64 * 64);

  // A 512x256x128 matmul measured on a 64-core machine.
  TaskHistorySource source;
  source.task = record("linalg.matmul + addf", "512x128;128x256;512x256");
  DeviceInfo there = here;
  there.cores = 64;
  there.l2Bytes = 2 << 20;
  source.device.json = there.toJson();
  source.name = "other";
  std::shared_ptr<const FeatureExtractor> own = llvm::cantFail(
      makeHistorySourceFeatures(context, source, space, *target));
  ASSERT_EQ(own->getNames(), target->getNames());
  Config config = *plan->getDefaultConfig();
  std::vector<float> rowTarget, rowOwn;
  target->extract(config, rowTarget);
  own->extract(config, rowOwn);
  size_t cores = column(*target, "device_cores");
  EXPECT_EQ(rowTarget[cores], 2.0f);
  EXPECT_EQ(rowOwn[cores], 64.0f);
  size_t loop0 = column(*target, "log2_loop0"), flops = column(*target, "log2_flops");
  EXPECT_FLOAT_EQ(rowTarget[loop0], std::log2(65.0f));
  EXPECT_FLOAT_EQ(rowOwn[loop0], std::log2(513.0f));
  EXPECT_FLOAT_EQ(rowOwn[flops], std::log2(1.0f + 2.0f * 512 * 256 * 128));
  // The knobs are the target's: the same columns, the same values.
  size_t knobs = 2 * space.getKnobs().size();
  EXPECT_TRUE(std::equal(rowTarget.begin(), rowTarget.begin() + knobs, rowOwn.begin()));

  // Another op kind gives other columns: refused, so the caller falls back.
  source.task = record("linalg.conv_2d_nhwc_hwcf", "1x9x9x4;3x3x4x8;1x7x7x8");
  llvm::Expected<std::shared_ptr<const FeatureExtractor>> other =
      makeHistorySourceFeatures(context, source, space, *target);
  ASSERT_FALSE(static_cast<bool>(other));
  EXPECT_NE(llvm::toString(other.takeError()).find("not the target's"), std::string::npos);
  // A damaged device record is an error, not a default device.
  source.task = record("linalg.matmul", "8x8;8x8;8x8");
  source.device.json = "{\"cores\": []}";
  llvm::Expected<std::shared_ptr<const FeatureExtractor>> damaged =
      makeHistorySourceFeatures(context, source, space, *target);
  ASSERT_FALSE(static_cast<bool>(damaged));
  llvm::consumeError(damaged.takeError());
}
