//===- GpuResourcesTest.cpp - ptxas reports and device limits -------------===//

#include "dltune/Tuning/FeatureExtractor/GpuResourceFeatures.h"
#include "dltune/Tuning/Device/GpuResources.h"

#include "gtest/gtest.h"

using namespace mlir::dltune;

// Output of ptxas 13.0 (-v) for two entry functions.
static const char *kLog = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'fill_kernel' for 'sm_90'
ptxas info    : Function properties for fill_kernel
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers
ptxas info    : Compiling entry function 'matmul_kernel' for 'sm_90'
ptxas info    : Function properties for matmul_kernel
    16 bytes stack frame, 24 bytes spill stores, 20 bytes spill loads
ptxas info    : Used 96 registers, used 1 barriers, 8192 bytes smem, 400 bytes cmem[0]
ptxas info    : Compile time = 46.472 ms
)";

TEST(GpuResourcesTest, ParsesEveryEntryFunction) {
  llvm::Expected<std::vector<GpuKernelResources>> r = parsePtxasVerboseLog(kLog);
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].kernel, "fill_kernel");
  EXPECT_EQ((*r)[0].registers, 8);
  EXPECT_EQ((*r)[0].sharedBytes, 0);
  EXPECT_EQ((*r)[0].barriers, 0);
  const GpuKernelResources &m = (*r)[1];
  EXPECT_EQ(m.kernel, "matmul_kernel");
  EXPECT_EQ(m.registers, 96);
  EXPECT_EQ(m.barriers, 1);
  EXPECT_EQ(m.sharedBytes, 8192);
  EXPECT_EQ(m.stackBytes, 16);
  EXPECT_EQ(m.spillStoreBytes, 24);
  EXPECT_EQ(m.spillLoadBytes, 20);
}

TEST(GpuResourcesTest, AFunctionWithoutUsageIsAnError) {
  llvm::Expected<std::vector<GpuKernelResources>> r =
      parsePtxasVerboseLog("ptxas info    : Compiling entry function 'k' for 'sm_90'\n");
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("no register usage for entry function 'k'"),
            std::string::npos);
  EXPECT_TRUE(static_cast<bool>(parsePtxasVerboseLog("")));
}

TEST(GpuResourcesTest, LimitsNameWhatIsExceeded) {
  GpuLimits limits;
  GpuKernelResources k;
  k.kernel = "matmul_kernel";
  k.registers = 64;
  k.threadsPerBlock = 1024;
  // 64 registers x 1024 threads = 65536: exactly the limit.
  EXPECT_FALSE(static_cast<bool>(checkGpuLimits(k, limits)));
  k.registers = 65; // per warp rounded up to 2304 -> 73728
  EXPECT_EQ(getRegistersPerBlock(k), 73728);
  struct Case {
    int64_t registers, threads, shared;
    const char *message;
  };
  for (const Case &c : {
           Case{65, 1024, 0, "65 registers per thread x 1024 threads = 73728 registers per "
                             "block (limit 65536)"},
           Case{32, 2048, 0, "2048 threads per block (limit 1024)"},
           Case{32, 256, 48 * 1024 + 4,
                "49156 bytes of static shared memory per block (limit 49152)"},
           Case{256, 256, 0, "256 registers per thread (limit 255)"}}) {
    k.registers = c.registers;
    k.threadsPerBlock = c.threads;
    k.sharedBytes = c.shared;
    EXPECT_EQ(llvm::toString(checkGpuLimits(k, limits)),
              std::string("kernel 'matmul_kernel' exceeds the device's limits: ") + c.message);
  }
  // Dynamic shared memory (tiles above 48 KiB) counts against the opt-in
  // limit per block and, with the static bytes, per multiprocessor.
  k.registers = 32;
  k.threadsPerBlock = 256;
  k.sharedBytes = 1;
  k.dynamicSharedBytes = 143360;
  EXPECT_FALSE(static_cast<bool>(checkGpuLimits(k, limits)));
  k.dynamicSharedBytes = 227 * 1024;
  EXPECT_EQ(llvm::toString(checkGpuLimits(k, limits)),
            "kernel 'matmul_kernel' exceeds the device's limits: 1 bytes of static and 232448 "
            "of dynamic shared memory per block (limit 232448)");
}

TEST(GpuResourcesTest, JSONRoundTripAndTypeErrors) {
  llvm::Expected<std::vector<GpuKernelResources>> r = parsePtxasVerboseLog(kLog);
  ASSERT_TRUE(static_cast<bool>(r));
  (*r)[1].threadsPerBlock = 256;
  (*r)[1].dynamicSharedBytes = 81408;
  llvm::json::Value v(toJSON(*r));
  llvm::Expected<std::vector<GpuKernelResources>> back = gpuResourcesFromJSON(v);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[1].registers, 96);
  EXPECT_EQ((*back)[1].threadsPerBlock, 256);
  EXPECT_EQ((*back)[1].spillLoadBytes, 20);
  EXPECT_EQ((*back)[1].dynamicSharedBytes, 81408);
  EXPECT_EQ((*back)[0].dynamicSharedBytes, 0);

  llvm::Expected<llvm::json::Value> bad =
      llvm::json::parse(R"([{"kernel": "k", "registers": "many"}])");
  ASSERT_TRUE(static_cast<bool>(bad));
  llvm::Expected<std::vector<GpuKernelResources>> err = gpuResourcesFromJSON(*bad);
  ASSERT_FALSE(static_cast<bool>(err));
  EXPECT_EQ(llvm::toString(err.takeError()),
            "GPU resources: \"registers\" of kernel 'k' is not a non-negative integer");
}

TEST(GpuResourcesTest, FeaturesOfBuiltAndUnbuiltConfigs) {
  llvm::Expected<SearchSpace> space =
      SearchSpace::create({{"block", {32, 64}}, {"promote", {0, 1}}}, {}, {});
  ASSERT_TRUE(static_cast<bool>(space));
  auto table = std::make_shared<GpuResourceTable>();
  std::unique_ptr<FeatureExtractor> fx = createGpuResourceFeatureExtractor(
      std::shared_ptr<const FeatureExtractor>(createKnobFeatureExtractor(*space)), table);
  std::vector<std::string> names = fx->getNames();
  ASSERT_EQ(names.size(), 4u + 6u);
  EXPECT_EQ(names[4], "gpu_resources_known");
  EXPECT_EQ(names[9], "gpu_regs_per_block_over_64k");

  // Not built yet: unknown.
  std::vector<float> row;
  fx->extract({64, 1}, row);
  ASSERT_EQ(row.size(), 10u);
  EXPECT_EQ(row[4], 0.0f);
  EXPECT_EQ(row[5], -1.0f);

  // A build result arrives through the recorder callback.
  MeasureRecord rec;
  GpuKernelResources k;
  k.kernel = "matmul_kernel";
  k.registers = 40;
  k.sharedBytes = 8191;
  k.spillStoreBytes = 4;
  k.spillLoadBytes = 3;
  k.threadsPerBlock = 256;
  rec.gpuResources = {k};
  GpuResourceRecorder recorder(table);
  recorder.onResult({64, 1}, rec, TuningProgress());
  row.clear();
  fx->extract({64, 1}, row);
  EXPECT_EQ(row[4], 1.0f);
  EXPECT_EQ(row[5], 40.0f);
  EXPECT_FLOAT_EQ(row[6], 13.0f); // log2(1 + 8191)
  EXPECT_FLOAT_EQ(row[7], 3.0f);  // log2(1 + 7)
  EXPECT_FLOAT_EQ(row[9], 40.0f * 256 / 65536);
  // Other configurations stay unknown.
  row.clear();
  fx->extract({32, 0}, row);
  EXPECT_EQ(row[4], 0.0f);
}

TEST(GpuResourcesTest, LimitsTravelAsText) {
  GpuLimits l;
  l.maxRegistersPerBlock = 32768;
  std::string text = formatGpuLimits(l);
  EXPECT_EQ(text, "threads=1024,registers_per_thread=255,registers_per_block=32768,"
                  "shared_per_block=49152,shared_optin_per_block=232448,shared_per_sm=233472");
  llvm::Expected<GpuLimits> back = parseGpuLimits(text);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->maxRegistersPerBlock, 32768);
  EXPECT_EQ(back->maxThreadsPerBlock, 1024);
  EXPECT_EQ(llvm::toString(parseGpuLimits("threads=1024,warps=4").takeError()),
            "GPU limits: unknown limit 'warps'");
  EXPECT_EQ(llvm::toString(parseGpuLimits("threads=-1").takeError()),
            "GPU limits: 'threads' needs a positive integer, got '-1'");
}
