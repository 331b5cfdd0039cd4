//===- WorkgroupMemoryOnHostTest.cpp - Shared-memory promotion, run on the host ===//
//
// There is no GPU here, so promoted GPU schedules are checked for their
// meaning on the host. dltune's own GPU matmul schedule builds its kernel
// directly (GpuMatmulKernel.h); user-written Transform schedules still tile
// into block- and thread-mapped scf.forall loops and promote tiles to
// workgroup memory, as the schedules here do (dltune.schedule = @promoted).
// The schedule, bufferization and the shared-memory step of
// --dltune-lower-gpu (copies spread over the block's threads, buffers shared
// across unrolled iterations) run as for the GPU;
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

/// Tile sizes of a promoted forall schedule.
struct Promoted {
  int blockM, blockN, threadM, threadN, tileK, unroll;
};

/// A (batch) matmul of the given sizes with a user-written Transform
/// schedule: block-mapped forall, k loop, A and B tiles promoted to
/// workgroup memory, thread-mapped forall, k loop unrolled.
static std::string matmul(int batch, int m, int n, int k, Promoted t) {
  std::string b = batch ? std::to_string(batch) + "x" : "";
  std::string a = b + std::to_string(m) + "x" + std::to_string(k) + "xf32";
  std::string w = b + std::to_string(k) + "x" + std::to_string(n) + "xf32";
  std::string c = b + std::to_string(m) + "x" + std::to_string(n) + "xf32";
  auto list = [](std::initializer_list<int> v) {
    std::string out;
    for (int x : v)
      out += (out.empty() ? "" : ", ") + std::to_string(x);
    return "[" + out + "]";
  };
  std::string blocks = batch ? list({1, t.blockM, t.blockN}) : list({t.blockM, t.blockN});
  std::string blockMap = std::string(batch ? "#gpu.block<z>, " : "") + "#gpu.block<y>, #gpu.block<x>";
  std::string ks = batch ? list({0, 0, 0, t.tileK}) : list({0, 0, t.tileK});
  std::string threads = batch ? list({0, t.threadM, t.threadN}) : list({t.threadM, t.threadN});
  std::string pair = "(!transform.any_op) -> (!transform.any_op, !transform.any_op)";
  std::string unroll = t.unroll > 1 ? "    transform.loop.unroll %kloop {factor = " +
                                          std::to_string(t.unroll) + "} : !transform.any_op\n"
                                    : "";
  return "module attributes {transform.with_named_sequence} {\n"
         "  func.func @f(%a: tensor<" + a + ">, %b: tensor<" + w + ">, %c: tensor<" + c +
         ">) -> tensor<" + c + "> {\n    %r = linalg." + (batch ? "batch_matmul" : "matmul") +
         " {dltune.schedule = @promoted, dltune.config = #dltune.config<>}\n      ins(%a, %b : tensor<" + a + ">, tensor<" + w +
         ">) outs(%c : tensor<" + c + ">) -> tensor<" + c + ">\n    return %r : tensor<" + c +
         ">\n  }\n"
         "  transform.named_sequence @promoted(%op: !transform.any_op {transform.consumed}) {\n"
         "    %blocked, %grid = transform.structured.tile_using_forall %op tile_sizes " + blocks +
         " (mapping = [" + blockMap + "]) : " + pair + "\n"
         "    %ktiled, %kloop = transform.structured.tile_using_for %blocked tile_sizes " + ks +
         " : " + pair + "\n"
         "    %a = transform.get_operand %ktiled[0] : (!transform.any_op) -> !transform.any_value\n"
         "    %pa = transform.structured.promote_tensor to #gpu.address_space<workgroup> %a : "
         "!transform.any_value\n"
         "    %b = transform.get_operand %ktiled[1] : (!transform.any_op) -> !transform.any_value\n"
         "    %pb = transform.structured.promote_tensor to #gpu.address_space<workgroup> %b : "
         "!transform.any_value\n"
         "    %tiled, %tloop = transform.structured.tile_using_forall %ktiled tile_sizes " + threads +
         " (mapping = [#gpu.thread<y>, #gpu.thread<x>]) : " + pair + "\n" + unroll +
         "    transform.yield\n  }\n}\n";
}

INSTANTIATE_TEST_SUITE_P(
    Schedules, WorkgroupMemoryOnHostTest,
    ::testing::Values(
        // 32x16 blocks of 2x2 threads' tiles (128 threads), k tiles of 8
        // over 48, unrolled twice: copies of 256 and 128 elements.
        matmul(0, 64, 32, 48, {32, 16, 2, 2, 8, 2}),
        // Fewer threads (32) than tile elements, uneven shapes, k fully
        // unrolled.
        matmul(0, 24, 40, 20, {8, 40, 1, 10, 5, 4}),
        // A and B tiles of the same type (8x8), live at the same time: they
        // must not share a buffer; unrolled iterations may.
        matmul(0, 32, 32, 32, {8, 8, 1, 2, 8, 4}),
        // Batched: 1 x block_m x tile_k tiles.
        matmul(3, 32, 24, 16, {16, 8, 1, 2, 4, 1})));
