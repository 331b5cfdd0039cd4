//===- WorkgroupMemoryOnHostTest.cpp - Shared-memory promotion, run on the host ===//
//
// There is no GPU here, so the promoted GPU schedules are checked for their
// meaning on the host: the schedule (promote=1), bufferization and the
// shared-memory step of --dltune-lower-gpu (copies spread over the block's
// threads, buffers shared across unrolled iterations) run as for the GPU;
// then the workgroup memory space is dropped and the thread-mapped loops run
// one after the other on the CPU - each loop finishing before the next
// starts is exactly what the barriers after them guarantee on a GPU. The
// outputs must equal the untuned lowering's. This checks the index
// arithmetic and the buffer reuse, not the GPU code generation or timing.
//
//===----------------------------------------------------------------------===//

#include "dltune/Execution/KernelRunner.h"
#include "dltune/InitAllDialects.h"
#include "dltune/Transforms/LowerGpu.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dltune;

namespace {
class WorkgroupMemoryOnHostTest : public ::testing::TestWithParam<std::string> {
protected:
  static void SetUpTestSuite() {
    registerAllPasses();
    registerAllDLTunePasses();
  }
  WorkgroupMemoryOnHostTest() {
    DialectRegistry registry;
    registerAllDLTuneDialects(registry);
    ctx.appendDialectRegistry(registry);
  }
  MLIRContext ctx;
};

bool isWorkgroup(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  auto space = m ? dyn_cast_or_null<gpu::AddressSpaceAttr>(m.getMemorySpace()) : nullptr;
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// Host memory instead of workgroup memory, everywhere in `module`.
void dropWorkgroupSpace(ModuleOp module) {
  auto strip = [](Value v) {
    if (isWorkgroup(v.getType()))
      v.setType(MemRefType::Builder(cast<MemRefType>(v.getType())).setMemorySpace(nullptr));
  };
  module.walk([&](Operation *op) {
    for (Value r : op->getResults())
      strip(r);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument a : block.getArguments())
          strip(a);
  });
}
} // namespace

TEST_P(WorkgroupMemoryOnHostTest, PromotedScheduleComputesTheUntunedResult) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(GetParam(), &ctx);
  ASSERT_TRUE(module);
  llvm::Expected<OwningOpRef<ModuleOp>> scheduled = runPipelineOnClone(
      *module, "dltune-apply,dltune-strip,canonicalize,cse,"
               "one-shot-bufferize{bufferize-function-boundaries "
               "function-boundary-type-conversion=identity-layout-map},"
               "drop-equivalent-buffer-results,cse,canonicalize,convert-bufferization-to-memref");
  ASSERT_TRUE(static_cast<bool>(scheduled)) << llvm::toString(scheduled.takeError());
  auto func = (*scheduled)->lookupSymbol<func::FuncOp>("f");
  ASSERT_TRUE(func);
  ASSERT_TRUE(succeeded(prepareWorkgroupMemory(func)));
  // A and B tiles: two buffers however far the k loop was unrolled, no
  // copy left undistributed.
  int buffers = 0, copies = 0;
  func.walk([&](memref::AllocOp a) { buffers += isWorkgroup(a.getType()); });
  func.walk([&](memref::CopyOp c) { copies += isWorkgroup(c.getTarget().getType()); });
  EXPECT_EQ(buffers, 2);
  EXPECT_EQ(copies, 0);

  dropWorkgroupSpace(**scheduled);
  std::string pipeline = "scf-forall-to-for,dltune-lower-cpu{openmp=false}";
  llvm::Expected<OwningOpRef<ModuleOp>> lowered = runPipelineOnClone(**scheduled, pipeline);
  ASSERT_TRUE(static_cast<bool>(lowered)) << llvm::toString(lowered.takeError());
  llvm::Expected<KernelSignature> sig = getKernelSignature(*module, "f");
  ASSERT_TRUE(static_cast<bool>(sig)) << llvm::toString(sig.takeError());
  llvm::Expected<std::unique_ptr<CpuKernel>> candidate = CpuKernel::compile(**lowered, *sig);
  ASSERT_TRUE(static_cast<bool>(candidate)) << llvm::toString(candidate.takeError());
  llvm::Expected<std::unique_ptr<CpuKernel>> reference =
      compileCpuKernel(*module, "f", "dltune-strip", kReferenceLowering);
  ASSERT_TRUE(static_cast<bool>(reference)) << llvm::toString(reference.takeError());

  std::vector<HostBuffer> inputs = makeInputs(*sig, 3);
  std::vector<HostBuffer> refArgs(inputs), candArgs(inputs), refResults, candResults;
  ASSERT_FALSE(static_cast<bool>((*reference)->run(refArgs, &refResults)));
  ASSERT_FALSE(static_cast<bool>((*candidate)->run(candArgs, &candResults)));
  ASSERT_EQ(refResults.size(), candResults.size());
  for (size_t i = 0; i < refResults.size(); ++i) {
    Comparison c = compareBuffers(candResults[i], refResults[i]);
    EXPECT_TRUE(c.ok) << c.message;
  }
  for (size_t i = 0; i < refArgs.size(); ++i) {
    Comparison c = compareBuffers(candArgs[i], refArgs[i]);
    EXPECT_TRUE(c.ok) << "argument " << i << ": " << c.message;
  }
}

/// A (batch) matmul of the given sizes with a GPU configuration.
static std::string matmul(int batch, int m, int n, int k, const char *config) {
  std::string b = batch ? std::to_string(batch) + "x" : "";
  std::string a = b + std::to_string(m) + "x" + std::to_string(k) + "xf32";
  std::string w = b + std::to_string(k) + "x" + std::to_string(n) + "xf32";
  std::string c = b + std::to_string(m) + "x" + std::to_string(n) + "xf32";
  return "func.func @f(%a: tensor<" + a + ">, %b: tensor<" + w + ">, %c: tensor<" + c +
         ">) -> tensor<" + c + "> {\n  %r = linalg." + (batch ? "batch_matmul" : "matmul") +
         " {dltune.target = \"gpu\", dltune.config = #dltune.config<" + config +
         ">}\n    ins(%a, %b : tensor<" + a + ">, tensor<" + w + ">) outs(%c : tensor<" + c +
         ">) -> tensor<" + c + ">\n  return %r : tensor<" + c + ">\n}\n";
}

INSTANTIATE_TEST_SUITE_P(
    Schedules, WorkgroupMemoryOnHostTest,
    ::testing::Values(
        // 32x16 blocks of 2x2 threads' tiles (128 threads), k tiles of 8
        // over 48, unrolled twice: copies of 256 and 128 elements.
        matmul(0, 64, 32, 48,
               "block_m = 32, block_n = 16, thread_m = 2, thread_n = 2, tile_k = 8, "
               "promote = 1, unroll = 2"),
        // Fewer threads (32) than tile elements, uneven shapes, k fully
        // unrolled.
        matmul(0, 24, 40, 20,
               "block_m = 8, block_n = 40, thread_m = 1, thread_n = 10, tile_k = 5, "
               "promote = 1, unroll = 4"),
        // A and B tiles of the same type (8x8), live at the same time: they
        // must not share a buffer; unrolled iterations may.
        matmul(0, 32, 32, 32,
               "block_m = 8, block_n = 8, thread_m = 1, thread_n = 2, tile_k = 8, "
               "promote = 1, unroll = 4"),
        // Batched: 1 x block_m x tile_k tiles.
        matmul(3, 32, 24, 16,
               "block_m = 16, block_n = 8, thread_m = 1, thread_n = 2, tile_k = 4, "
               "promote = 1, unroll = 1")));
