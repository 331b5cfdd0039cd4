//===- LowerGPU.cpp - --dltune-lower-gpu ----------------------------------===//

#include "GpuMemRefLayout.h"
#include "GpuPadFolding.h"
#include "LoweringPipeline.h"

#include "dltune/Transforms/GpuHostMemory.h"
#include "dltune/Transforms/GpuMatmulKernel.h"
#include "dltune/Transforms/GpuRowReduction.h"
#include "dltune/Transforms/GpuTransposeViews.h"
#include "GpuTransposeKernel.h"
#include "dltune/Transforms/GpuWindowKernel.h"
#include "dltune/Transforms/LowerGpu.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNELOWERGPU
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

/// The transform script that maps the block-mapped scf.forall loops of its
/// payload to a gpu.launch and the nested thread-mapped ones to the launch's
/// threads: a module with named sequences whose entry point (root handle
/// consumed) runs the GPU extension's map_forall_to_blocks with
/// generate_gpu_launch, then map_nested_forall_to_threads with
/// `block_dims = blockDims` and `sync_after_distribute = sync`.
static OwningOpRef<ModuleOp> buildGpuMappingScript(Location loc,
                                                   ArrayRef<int64_t> blockDims,
                                                   bool sync) {
  MLIRContext *ctx = loc.getContext();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> script = ModuleOp::create(loc);
  (*script)->setAttr(transform::TransformDialect::kWithNamedSequenceAttrName,
                     b.getUnitAttr());
  b.setInsertionPointToEnd(script->getBody());
  Type anyOp = transform::AnyOpType::get(ctx);
  auto entry = transform::NamedSequenceOp::create(
      b, loc, transform::TransformDialect::kTransformEntryPointSymbolName, anyOp,
      TypeRange{}, [&](OpBuilder &body, Location at, BlockArgument root) {
        Value launch = transform::MapForallToBlocks::create(
            body, at, anyOp, root, /*grid_dims=*/DenseI64ArrayAttr(),
            /*generate_gpu_launch=*/body.getUnitAttr());
        transform::MapNestedForallToThreads::create(
            body, at, anyOp, launch, body.getDenseI64ArrayAttr(blockDims),
            body.getBoolAttr(sync), /*warp_size=*/IntegerAttr());
        transform::YieldOp::create(body, at);
      });
  entry.setArgAttr(0, transform::TransformDialect::kArgConsumedAttrName, b.getUnitAttr());
  return script;
}

/// Maps the block/thread-mapped scf.forall loops of every function to
/// gpu.launch, with the block size read off the thread-level loops.
static LogicalResult mapForallToGpu(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  module.walk([&](func::FuncOp f) { funcs.push_back(f); });
  for (func::FuncOp func : funcs) {
    std::optional<SmallVector<int64_t, 3>> dims = getBlockDims(func);
    if (!dims)
      continue;
    SmallVector<int64_t, 3> blockDims = *dims;
    if (failed(prepareWorkgroupMemory(func)))
      return failure();
    // Barriers after every thread-mapped loop are needed only around
    // workgroup memory; without it each thread touches its own tile alone.
    bool sync = false;
    func.walk([&](memref::AllocOp alloc) { sync |= isWorkgroupMemory(alloc.getType()); });
    OwningOpRef<ModuleOp> schedule = buildGpuMappingScript(func.getLoc(), blockDims, sync);
    if (failed(verify(*schedule)))
      return func.emitError() << "internal error: GPU mapping script";
    auto entry = transform::detail::findTransformEntryPoint(func, *schedule);
    transform::TransformOptions options;
    if (failed(transform::applyTransformNamedSequence(func, entry, *schedule,
                                                      options)))
      return func.emitError() << "could not map scf.forall loops to the GPU";
    allocsToWorkgroupAttributions(func);
  }
  return success();
}

/// The nvgpu conversion, run before outlining, puts the mbarriers of the
/// warpgroup kernels in module-level shared-memory globals; outlining copies
/// them into each kernel's module, and the host's copies, unused, go.
static void eraseHostCopiesOfKernelGlobals(ModuleOp module) {
  SmallVector<Operation *> unused;
  for (auto global : module.getOps<memref::GlobalOp>())
    if (nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(global.getType()) &&
        SymbolTable::symbolKnownUseEmpty(global, module))
      unused.push_back(global);
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getAddrSpace() == static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared) &&
        SymbolTable::symbolKnownUseEmpty(global, module))
      unused.push_back(global);
  for (Operation *global : unused)
    global->erase();
}

/// The chip the kernels are built for: `chip`, or its architecture-specific
/// variant sm_90a where a kernel uses warpgroup MMA (wgmma exists on
/// compute capability 9.0 only, and ptxas takes it only for sm_90a).
static FailureOr<std::string> getChipForKernels(ModuleOp module, StringRef chip) {
  Operation *wgmma = nullptr;
  module.walk([&](NVVM::WgmmaMmaAsyncOp op) {
    wgmma = op;
    return WalkResult::interrupt();
  });
  if (!wgmma || chip == "sm_90a")
    return chip.str();
  if (chip == "sm_90")
    return std::string("sm_90a");
  return wgmma->emitError() << "dltune-lower-gpu: warpgroup MMA (wgmma = 1) needs compute "
                               "capability 9.0 (chip sm_90 or sm_90a), not "
                            << chip;
}

/// Fuses each element-wise linalg.generic into the element-wise generic
/// that reads its result, where nothing else does (upstream's patterns):
/// an imported convolution's bias add and activation are one kernel, not
/// two, each reading and writing the whole activation.
static LogicalResult fuseElementwiseOps(ModuleOp module) {
  RewritePatternSet patterns(module.getContext());
  linalg::populateElementwiseOpsFusionPatterns(patterns, [](OpOperand *fused) {
    Operation *producer = fused->get().getDefiningOp();
    return producer && producer->hasOneUse();
  });
  // Upstream's fusion builds a new generic without the consumer's
  // attributes, just before it, with its outputs: the kernel tiles of a
  // reduction that absorbs its input's producer (a global average pool its
  // ReLU, a row kernel's x * x -> sum) move to that op, where the tiles
  // still describe a kernel of it (a window kernel's conditions hold for
  // the fused body too; otherwise the op stays the element-wise loops, as
  // before).
  struct CarryKernelTiles : RewriterBase::Listener {
    llvm::SetVector<Operation *> fused;
    void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      auto consumer = dyn_cast_or_null<linalg::GenericOp>(op->getNextNode());
      if (!generic || !consumer || generic.getDpsInits() != consumer.getDpsInits())
        return;
      // At once: a later fusion into this op carries them on.
      if (Attribute tiles = consumer->getAttr(DLTuneDialect::kGpuKernelAttrName)) {
        op->setAttr(DLTuneDialect::kGpuKernelAttrName, tiles);
        fused.insert(op);
      }
    }
    void notifyOperationErased(Operation *op) override { fused.remove(op); }
  } carry;
  GreedyRewriteConfig config;
  config.setListener(&carry);
  if (failed(applyPatternsGreedily(module, std::move(patterns), config)))
    return module.emitError() << "dltune-lower-gpu: element-wise fusion did not converge";
  for (Operation *op : carry.fused) {
    auto tiles = op->getAttrOfType<DictionaryAttr>(DLTuneDialect::kGpuKernelAttrName);
    if (!tiles || GpuRowTiles::isRowTilesAttr(tiles))
      continue;
    std::optional<GpuWindowTiles> window = GpuWindowTiles::fromAttr(tiles);
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!window || !whyNotGpuWindowOp(linalgOp).empty() ||
        !whyNotGpuWindowKernel(linalgOp, *window).empty())
      op->removeAttr(DLTuneDialect::kGpuKernelAttrName);
  }
  return success();
}

/// Threads of a block for the element-wise loops of leftover ops.
static constexpr int64_t kLeftoverBlockSize = 256;

/// Collapses the dimensions of `loop` into one and tiles it by
/// kLeftoverBlockSize, so that upstream's greedy mapping gives the outer
/// loop to blocks and the inner one to threads. Untiled, every dimension
/// went to blocks and each block ran ONE thread (a 2048x2048 fill: 4M
/// blocks, 2.6 ms on an H200).
static void tileForThreads(IRRewriter &rewriter, scf::ParallelOp loop) {
  if (loop.getNumLoops() > 1) {
    Operation *next = loop->getNextNode();
    std::vector<unsigned> all;
    for (unsigned d = 0; d < loop.getNumLoops(); ++d)
      all.push_back(d);
    collapseParallelLoops(rewriter, loop, {all});
    loop = dyn_cast_or_null<scf::ParallelOp>(next ? next->getPrevNode() : nullptr);
    if (!loop)
      return;
  }
  // Constant bounds let the tile loop's extent be static (the launch's
  // block size); the last partial tile is guarded by an scf.if.
  scf::tileParallelLoop(loop, {kLeftoverBlockSize}, /*noMinMaxBounds=*/true);
}

/// Whether `a` and `b` may share memory: not where they are views of two
/// distinct buffers allocated or named (constants) in the function, which
/// the local alias analysis cannot tell for constants.
static bool mayAlias(AliasAnalysis &aliases, Value a, Value b) {
  Value x = getViewSource(a), y = getViewSource(b);
  auto isNamed = [](Value v) {
    return v.getDefiningOp<memref::AllocOp>() || v.getDefiningOp<memref::GetGlobalOp>();
  };
  if (isNamed(x) && isNamed(y)) {
    auto gx = x.getDefiningOp<memref::GetGlobalOp>(), gy = y.getDefiningOp<memref::GetGlobalOp>();
    if (gx && gy)
      return gx.getName() == gy.getName();
    return x == y;
  }
  return !aliases.alias(a, b).isNo();
}

/// Linalg ops the schedule left behind: inside kernels they become plain
/// loops (each thread runs its tile); outside (fills of outputs, untuned
/// elementwise ops) they become parallel loops of blocks of
/// kLeftoverBlockSize threads, so that no host code touches device memory.
static LogicalResult mapLeftoverLinalgOps(ModuleOp module, bool fuseLoops,
                                          bool windowKernels, bool rowReductions,
                                          bool transposeKernels) {
  IRRewriter rewriter(module.getContext());
  if (transposeKernels)
    buildGpuTransposeKernels(module);
  if (windowKernels && failed(buildGpuWindowKernels(module, fuseLoops)))
    return failure();
  if (rowReductions && failed(buildGpuRowReductions(module, fuseLoops)))
    return failure();
  SmallVector<linalg::LinalgOp> inside, outside;
  module.walk([&](linalg::LinalgOp op) {
    (op->getParentOfType<gpu::LaunchOp>() ? inside : outside).push_back(op);
  });
  for (linalg::LinalgOp op : inside) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rewriter, op)))
      return op->emitOpError() << "could not be turned into loops inside a GPU kernel";
    rewriter.eraseOp(op);
  }
  for (linalg::LinalgOp op : outside) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops = linalg::linalgOpToParallelLoops(rewriter, op);
    if (failed(loops))
      return op->emitOpError() << "could not be mapped to the GPU";
    rewriter.eraseOp(op);
  }
  // Loops over the same points, each reading what the one before wrote at
  // that point only, become one loop: a depthwise convolution's zero fill,
  // the convolution and its bias and activation are one kernel, not three.
  // Allocations between the loops would keep them apart (they have an
  // effect); static ones move to the start of their block, which on the
  // GPU changes nothing: each is freed at the end of that block.
  if (fuseLoops)
    module.walk([&](func::FuncOp func) {
      SmallVector<memref::AllocOp> allocs;
      func.walk([&](memref::AllocOp alloc) {
        if (alloc->getNumOperands() == 0 && !alloc->getParentOfType<gpu::LaunchOp>() &&
            !isWorkgroupMemory(alloc.getType()))
          allocs.push_back(alloc);
      });
      for (memref::AllocOp alloc : llvm::reverse(allocs)) // keeps their order
        alloc->moveBefore(&alloc->getBlock()->front());
      // Bounds and indices must be the same values, not just equal
      // constants or identity maps of the induction variables.
      RewritePatternSet identities(func.getContext());
      affine::AffineApplyOp::getCanonicalizationPatterns(identities, func.getContext());
      (void)applyPatternsGreedily(func, std::move(identities));
      DominanceInfo dominance(func);
      eliminateCommonSubExpressions(rewriter, dominance, func);
      AliasAnalysis aliases(func);
      for (Region &region : func->getRegions())
        scf::naivelyFuseParallelOps(region, [&](Value a, Value b) {
          return mayAlias(aliases, a, b);
        });
    });
  SmallVector<scf::ParallelOp> parallels;
  module.walk([&](scf::ParallelOp loop) {
    if (!loop->getParentOfType<gpu::LaunchOp>() && !loop->getParentOfType<scf::ParallelOp>())
      parallels.push_back(loop);
  });
  for (scf::ParallelOp loop : parallels)
    tileForThreads(rewriter, loop);
  return success();
}

/// Lets ptxas give each kernel as many registers as one block of it can
/// have on an SM (at most 255 a thread). Without a cap, ptxas reads the
/// block size (.maxntid) as a wish for more resident blocks and squeezed a
/// 256-thread matmul into 63 registers with spills; how many blocks share an
/// SM is for the tiles, and so the tuner, to decide.
static void capKernelRegisters(ModuleOp module) {
  Builder b(module.getContext());
  module.walk([&](gpu::GPUFuncOp kernel) {
    std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
    if (!kernel.isKernel() || !block)
      return;
    int64_t threads = 1;
    for (int32_t d : *block)
      threads *= d;
    int64_t registers = std::min<int64_t>(255, 65536 / std::max<int64_t>(threads, 1) / 8 * 8);
    kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(static_cast<int32_t>(registers)));
  });
}

namespace {
struct LowerGPUPass : public dltune::impl::DLTuneLowerGPUBase<LowerGPUPass> {
  using DLTuneLowerGPUBase::DLTuneLowerGPUBase;

  /// Parallel loops left after the schedules (leftover linalg ops) become
  /// GPU launches.
  static void addLoopMapping(OpPassManager &pm) {
    pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass());
    pm.addPass(createConvertParallelLoopToGpuPass());
    pm.addPass(createLowerAffinePass());
    pm.addPass(createCanonicalizerPass());
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm("builtin.module");
    addBufferization(pm, /*deallocate=*/false);
    addLoopMapping(pm);
    pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
    gpu::GPUToNVVMPipelineOptions opts;
    gpu::buildLowerToNVVMPassPipeline(pm, opts);
    pm.getDependentDialects(registry);
    registerScheduleExtensions(registry);
    // The GPU mapping script is built in the pass: its dialect must be loaded.
    registry.insert<gpu::GPUDialect, LLVM::LLVMDialect, func::FuncDialect,
                    transform::TransformDialect, nvgpu::NVGPUDialect, omp::OpenMPDialect>();
    OpPassManager cpu("builtin.module");
    addCpuLoweringToLLVM(cpu, /*forallToOpenMP=*/false, /*lowerOpenMP=*/true);
    cpu.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (format != "isa" && format != "bin" && format != "fatbin") {
      module.emitError() << "dltune-lower-gpu: format must be isa, bin or "
                            "fatbin, got '"
                         << format << "'";
      return signalPassFailure();
    }
    if ((fuseEpilogues && failed(fuseElementwiseOps(module))) ||
        (foldPads && failed(foldPadsIntoReads(module))))
      return signalPassFailure();
    OpPassManager bufferize("builtin.module");
    addBufferization(bufferize, /*deallocate=*/false, /*fillPerUse=*/true);
    if (failed(runPipeline(bufferize, module)))
      return signalPassFailure();
    if (transposeViews)
      foldTransposesIntoViews(module);
    if (failed(buildGpuMatmulKernels(module,
                                        {fuseEpilogues, implicitGemm, windowKernels && splitK})) ||
        failed(mapForallToGpu(module)))
      return signalPassFailure();
    // Host copies (into padded buffers, of results) become kernels too.
    turnHostCopiesIntoLinalg(module);
    if (failed(mapLeftoverLinalgOps(module, fuseEpilogues, windowKernels, rowReductions,
                                    transposeKernels)))
      return signalPassFailure();
    OpPassManager mapLoops("builtin.module");
    addLoopMapping(mapLoops);
    if (emulate) {
      // The kernels as built, run by the CPU: host code keeps host memory.
      OpPassManager cpu("builtin.module");
      addCpuLoweringToLLVM(cpu, /*forallToOpenMP=*/false, /*lowerOpenMP=*/true);
      if (failed(runPipeline(mapLoops, module)) || failed(emulateGpuLaunchesOnCpu(module)) ||
          failed(runPipeline(cpu, module)))
        return signalPassFailure();
      return;
    }
    // Kernels are outlined here, ahead of the NVVM pipeline (whose own
    // outlining then finds nothing left), to set their register caps.
    // Constants the canonicalizer hoisted out of the launches go back in
    // first: outlined, they would be kernel parameters, and every shared-
    // memory offset and divisor a run-time value (64-bit divisions in the
    // PTX).
    mapLoops.addPass(createGpuLaunchSinkIndexComputationsPass());
    // nvgpu ops become NVVM before outlining, as in upstream's own pipeline:
    // outlined, a tensor map (the warpgroup kernel's) would be a kernel
    // parameter of an nvgpu type, which no later conversion rewrites.
    mapLoops.addPass(createConvertNVGPUToNVVMPass());
    mapLoops.addPass(createGpuKernelOutliningPass());
    if (failed(lowerSubgroupReducesToShuffles(module)) || failed(runPipeline(mapLoops, module)))
      return signalPassFailure();
    eraseHostCopiesOfKernelGlobals(module);
    FailureOr<llvm::StringSet<>> constants = collectHostConstants(module);
    if (failed(constants) || failed(allocateHostBuffersOnDevice(module)))
      return signalPassFailure();
    hoistTensorMapEncodes(module);
    // One stream a call: the host queues every allocation, launch and free
    // of a function without waiting, and waits once before it returns (a
    // model launches ~300 kernels; before 2026-11-28 each was waited for).
    OpPassManager async("builtin.module");
    async.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
    if (failed(runPipeline(async, module)))
      return signalPassFailure();
    capKernelRegisters(module);
    // Cubins: PTX from the pipeline, assembled by ptxas here so that its
    // resource report is kept.
    bool cubin = format == "bin";
    OpPassManager lower("builtin.module");
    gpu::GPUToNVVMPipelineOptions opts;
    FailureOr<std::string> kernelChip = getChipForKernels(module, chip);
    if (failed(kernelChip))
      return signalPassFailure();
    opts.cubinChip = *kernelChip;
    // The default features are too old for chips after sm_90.
    opts.cubinFeatures = features == "+ptx80" ? getPtxFeaturesForChip(*kernelChip) : features;
    opts.cubinFormat = cubin ? std::string("isa") : std::string(format);
    opts.optLevel = 3;
    gpu::buildLowerToNVVMPassPipeline(lower, opts);
    // libdevice for the math functions kernels call (exp, rsqrt, erf).
    (void)exportCudaToolkitForLibdevice();
    if (failed(runPipeline(lower, module)) ||
        failed(redirectHostConstantsToDevice(module, *constants)) ||
        (cubin && failed(assembleWithPtxas(module, opts.optLevel))))
      return signalPassFailure();
  }
};
} // namespace
