//===- BuilderRunnerTest.cpp - Build, reference and measure in process ----===//
//
// The library side of `dltune worker`: a task kernel is built by the local
// CandidateBuilder, its reference written, and the artifact checked and timed by the
// local CandidateRunner, all in this process; each failure comes back with the
// worker exit code the tuner classifies it by.
//
//===----------------------------------------------------------------------===//

#include "dltune/DLTune.h"
#include "dltune/Execution/CandidateRunner.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {

// A task kernel as the tuner extracts it: func @dltune_task, its op
// carrying the space (and no configuration).
constexpr const char *kTaskKernel = R"MLIR(
  func.func @dltune_task(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>,
                         %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %r = linalg.matmul {dltune.space = #dltune.space<knobs {tile_m = pow2<1, 32>,
           reg_m = pow2<1, 16>, tile_n = pow2<1, 32>, reg_n = [1, 4, 8, 16, 32],
           tile_k = pow2<1, 64>, unroll = pow2<1, 8>, pack_a = [0, 1], pack_b = [0, 1],
           threads = [1, 2], vectorize = [0, 1]},
           params {D_k = 64, D_m = 32, D_n = 32, max_acc = 512},
           constraints ["D_m % tile_m == 0", "tile_m % reg_m == 0", "D_n % tile_n == 0",
                        "tile_n % reg_n == 0", "D_k % tile_k == 0", "tile_k % unroll == 0",
                        "reg_m * reg_n <= max_acc", "D_m % threads == 0",
                        "(D_m / threads) % tile_m == 0"]>,
           dltune.target = "cpu"}
         ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>)
         outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %r : tensor<32x32xf32>
  })MLIR";

constexpr const char *kConfig =
    "tile_m=16,reg_m=4,tile_n=32,reg_n=16,tile_k=16,unroll=2,pack_a=0,pack_b=1,threads=1,"
    "vectorize=1";

class BuilderRunnerTest : public ::testing::Test {
protected:
  // What a downstream compiler registers (DLTune.h), as `dltune` does.
  static void SetUpTestSuite() {
    registerAllPasses();
    registerAllDLTunePassesAndPipelines();
  }
  BuilderRunnerTest() {
    DialectRegistry registry;
    registerDLTuneDialects(registry);
    ctx.appendDialectRegistry(registry);
  }
  void SetUp() override {
    kernel = parseSourceString<ModuleOp>(kTaskKernel, &ctx);
    ASSERT_TRUE(kernel);
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("dltune-builder-runner", dir));
    reference = {path("reference.bin"), "task-key"};
    options.minTimeMs = 1;
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string path(llvm::StringRef name) const {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  /// Builds `config` into `name`; fails the test on an error.
  Artifact build(llvm::StringRef config, llvm::StringRef name) {
    BuildOptions buildOptions;
    buildOptions.config = config.str();
    buildOptions.outPath = path(name);
    llvm::Expected<BuildResult> built = createLocalCandidateBuilder()->build(*kernel, buildOptions);
    EXPECT_TRUE(static_cast<bool>(built)) << llvm::toString(built.takeError());
    return built ? built->artifact : Artifact();
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> kernel;
  llvm::SmallString<128> dir;
  ReferenceFile reference;
  RunnerOptions options;
};

} // namespace

TEST_F(BuilderRunnerTest, BuiltCandidateVerifiesAgainstReferenceAndTimes) {
  Artifact artifact = build(kConfig, "candidate.so");
  EXPECT_EQ(artifact.path, path("candidate.so"));
  EXPECT_TRUE(llvm::sys::fs::exists(artifact.path));
  EXPECT_FALSE(artifact.onDevice);
  ASSERT_EQ(artifact.signature.args.size(), 3u);
  // The caller's kernel keeps its space and gets no configuration.
  bool configured = false;
  kernel->walk([&](Operation *op) { configured |= op->hasAttr("dltune.config"); });
  EXPECT_FALSE(configured);

  llvm::Expected<double> untunedMs = createReference(*kernel, reference);
  ASSERT_TRUE(static_cast<bool>(untunedMs)) << llvm::toString(untunedMs.takeError());
  EXPECT_GT(*untunedMs, 0);
  EXPECT_TRUE(llvm::sys::fs::exists(reference.path + ".key"));

  options.minRepeats = 5;
  llvm::Expected<RunResult> run = createLocalCandidateRunner()->run(artifact, reference, options);
  ASSERT_TRUE(static_cast<bool>(run)) << llvm::toString(run.takeError());
  EXPECT_GE(run->timing.repeats, 5);
  EXPECT_GT(run->timing.medianMs, 0);
  EXPECT_LE(run->timing.minMs, run->timing.medianMs);
  EXPECT_LE(run->maxRelativeError, 1e-4);
  EXPECT_FALSE(run->cutOff);
  EXPECT_FALSE(run->cudaEvents);
}

TEST_F(BuilderRunnerTest, CandidateSlowerThanCutoffIsTimedOnce) {
  Artifact artifact = build(kConfig, "candidate.so");
  ASSERT_TRUE(static_cast<bool>(createReference(*kernel, reference)));
  options.cutoffMs = 1e-9;
  llvm::Expected<RunResult> run = createLocalCandidateRunner()->run(artifact, reference, options);
  ASSERT_TRUE(static_cast<bool>(run)) << llvm::toString(run.takeError());
  EXPECT_TRUE(run->cutOff);
  EXPECT_EQ(run->timing.repeats, 1);
  EXPECT_EQ(run->timing.minMs, run->timing.maxMs);
}

TEST_F(BuilderRunnerTest, ConfigurationOutsideTheSpaceIsInvalid) {
  BuildOptions buildOptions;
  buildOptions.outPath = path("bad.so");
  buildOptions.config = "tile_m=7"; // not a value of the knob
  llvm::Expected<BuildResult> built = createLocalCandidateBuilder()->build(*kernel, buildOptions);
  ASSERT_FALSE(static_cast<bool>(built));
  EXPECT_EQ(takeCandidateErrorCategory(built.takeError()), worker::kInvalidConfig);
  // A configuration of the knobs' values that breaks a constraint.
  buildOptions.config =
      "tile_m=2,reg_m=4,tile_n=32,reg_n=16,tile_k=16,unroll=2,pack_a=0,pack_b=1,threads=1,"
      "vectorize=1";
  built = createLocalCandidateBuilder()->build(*kernel, buildOptions);
  ASSERT_FALSE(static_cast<bool>(built));
  EXPECT_EQ(takeCandidateErrorCategory(built.takeError()), worker::kInvalidConfig);
  EXPECT_FALSE(llvm::sys::fs::exists(buildOptions.outPath));
}

TEST_F(BuilderRunnerTest, WrongOutputIsAWrongResult) {
  Artifact artifact = build(kConfig, "candidate.so");
  ASSERT_TRUE(static_cast<bool>(createReference(*kernel, reference)));
  options.onFirstOutputs = [](std::vector<HostBuffer> &, std::vector<HostBuffer> &results) {
    ASSERT_FALSE(results.empty());
    static_cast<float *>(results.front().data())[5] += 1;
  };
  llvm::Expected<RunResult> run = createLocalCandidateRunner()->run(artifact, reference, options);
  ASSERT_FALSE(static_cast<bool>(run));
  std::string message;
  std::optional<double> maxError;
  llvm::handleAllErrors(run.takeError(), [&](const CandidateError &e) {
    EXPECT_EQ(e.getCategory(), worker::kWrongResult);
    message = e.getMessage();
    maxError = e.maxRelativeError;
  });
  EXPECT_NE(message.find("wrong result: result #0"), std::string::npos) << message;
  ASSERT_TRUE(maxError.has_value());
  EXPECT_GT(*maxError, 1e-4);
}

TEST_F(BuilderRunnerTest, ReferenceOfAnotherKernelIsARunError) {
  Artifact artifact = build(kConfig, "candidate.so");
  ASSERT_TRUE(static_cast<bool>(createReference(*kernel, reference)));
  ReferenceFile foreign = reference;
  foreign.key = "another-key";
  llvm::Expected<RunResult> run = createLocalCandidateRunner()->run(artifact, foreign, options);
  ASSERT_FALSE(static_cast<bool>(run));
  EXPECT_EQ(takeCandidateErrorCategory(run.takeError()), worker::kRunError);
  // A missing artifact is a run error too.
  artifact.path = path("missing.so");
  run = createLocalCandidateRunner()->run(artifact, reference, options);
  ASSERT_FALSE(static_cast<bool>(run));
  EXPECT_EQ(takeCandidateErrorCategory(run.takeError()), worker::kRunError);
}

TEST_F(BuilderRunnerTest, MissingAnchorIsARunError) {
  Artifact artifact = build(kConfig, "candidate.so");
  ASSERT_TRUE(static_cast<bool>(createReference(*kernel, reference)));
  options.anchorPath = path("missing-anchor.so");
  llvm::Expected<RunResult> run = createLocalCandidateRunner()->run(artifact, reference, options);
  ASSERT_FALSE(static_cast<bool>(run));
  llvm::handleAllErrors(run.takeError(), [&](const CandidateError &e) {
    EXPECT_EQ(e.getCategory(), worker::kRunError);
    EXPECT_EQ(e.getMessage().rfind("anchor: ", 0), 0u) << e.getMessage();
  });
}
