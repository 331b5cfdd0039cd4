//===- CpuKernelTest.cpp - JIT runner against a hand-computed reference ---===//

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Execution/KernelRunner.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {
class CpuKernelTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    registerAllPasses();
    registerAllDLTunePasses();
  }
  CpuKernelTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllToLLVMIRTranslations(registry);
    registerScheduleExtensions(registry);
    registry.insert<DLTuneDialect>();
    ctx.appendDialectRegistry(registry);
  }
  MLIRContext ctx;
};

constexpr const char *kMatmul = R"MLIR(
  func.func @mm(%a: tensor<32x48xf32>, %b: tensor<48x16xf32>,
                %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
    %zero = arith.constant 0.0 : f32
    %init = linalg.fill ins(%zero : f32) outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
    %r = linalg.matmul {dltune.config = #dltune.config<tile_m = 16, tile_n = 16,
           tile_k = 16, reg_m = 4, reg_n = 16, unroll = 2, threads = 1, vectorize = 1>}
         ins(%a, %b : tensor<32x48xf32>, tensor<48x16xf32>)
         outs(%init : tensor<32x16xf32>) -> tensor<32x16xf32>
    return %r : tensor<32x16xf32>
  })MLIR";
} // namespace

TEST_F(CpuKernelTest, ScheduledMatmulMatchesHandComputedProduct) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kMatmul, &ctx);
  ASSERT_TRUE(module);
  llvm::Expected<std::unique_ptr<CpuKernel>> kernel =
      compileCpuKernel(*module, "mm", "dltune-apply,dltune-strip");
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  const KernelSignature &sig = (*kernel)->getSignature();
  ASSERT_EQ(sig.args.size(), 3u);
  ASSERT_EQ(sig.results.size(), 1u);
  std::vector<HostBuffer> args = makeInputs(sig, 3);
  std::vector<HostBuffer> results;
  ASSERT_FALSE(static_cast<bool>((*kernel)->run(args, &results)));
  ASSERT_EQ(results.size(), 1u);
  const float *a = static_cast<const float *>(args[0].data());
  const float *b = static_cast<const float *>(args[1].data());
  const float *c = static_cast<const float *>(results[0].data());
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 16; ++j) {
      double expect = 0;
      for (int k = 0; k < 48; ++k)
        expect += static_cast<double>(a[i * 48 + k]) * b[k * 16 + j];
      ASSERT_NEAR(c[i * 16 + j], expect, 1e-4) << i << "," << j;
    }
  EXPECT_EQ(countFlops(*module, "mm"), 2.0 * 32 * 16 * 48);
}

TEST_F(CpuKernelTest, RunnerChecksAgainstReferenceAndTimes) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kMatmul, &ctx);
  ASSERT_TRUE(module);
  RunOptions options;
  options.check = true;
  options.repeat = 3;
  llvm::Expected<RunReport> report = runCpuKernel(*module, "mm", options);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_TRUE(report->checked);
  EXPECT_TRUE(report->comparison.ok) << report->comparison.message;
  EXPECT_EQ(report->timing.repeats, 3);
  EXPECT_LE(report->timing.minMs, report->timing.medianMs);
  EXPECT_LE(report->timing.medianMs, report->timing.maxMs);
}

TEST_F(CpuKernelTest, MissingEntryIsAnError) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kMatmul, &ctx);
  ASSERT_TRUE(module);
  llvm::Expected<std::unique_ptr<CpuKernel>> kernel =
      compileCpuKernel(*module, "nope", "");
  ASSERT_FALSE(static_cast<bool>(kernel));
  EXPECT_NE(llvm::toString(kernel.takeError()).find("no function 'nope'"),
            std::string::npos);
}
