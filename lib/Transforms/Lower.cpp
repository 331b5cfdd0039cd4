//===- Lower.cpp - Lowering of scheduled modules to LLVM / NVVM -----------===//

#include "dltune/Transforms/Passes.h"
#include "dltune/Transforms/LowerGpu.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/TransformOps/BufferizationTransformOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/TransformOps/MemRefTransformOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/LoopExtension/LoopExtension.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtension.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNELOWERCPU
#define GEN_PASS_DEF_DLTUNELOWERGPU
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

void mlir::dltune::registerScheduleExtensions(DialectRegistry &registry) {
  linalg::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  vector::registerTransformDialectExtension(registry);
  gpu::registerTransformDialectExtension(registry);
  tensor::registerTransformDialectExtension(registry);
  memref::registerTransformDialectExtension(registry);
  bufferization::registerTransformDialectExtension(registry);
  transform::registerLoopExtension(registry);
  transform::registerTuneExtension(registry);
}

/// Canonicalize, bufferize (identity layouts at function boundaries) and
/// drop the buffer copies bufferization leaves; shared by both targets.
static void addBufferization(OpPassManager &pm, bool deallocate) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion = bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  // Every buffer bufferization allocates is freed after its last use (a
  // model's intermediates, a fused kernel's per-tile buffers): without it
  // each call leaked them, and the next call page-faulted fresh memory in
  // (MobileNet-v2: 15,500 page faults, ~60 MB, per call). Not on the GPU
  // path: its workgroup-memory buffers are not heap memory.
  if (deallocate)
    bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
}

namespace {
/// math.erf has no LLVM intrinsic, and libm's erff and expf take no vectors:
/// LLVM scalarizes a vector exp into one expf call per lane (a softmax's
/// exponentials were 3% of an encoder's time in calls to libm). Upstream's
/// polynomial approximations instead, which vectorize (an internal step of
/// the CPU lowering, not a registered pass).
struct ApproximateMathPass : public PassWrapper<ApproximateMathPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproximateMathPass)
  StringRef getArgument() const final { return "dltune-approximate-math"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, math::MathDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) { return name == "math.exp"; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

namespace {
/// The innermost dimension's vector chunk for a copy between `source` and
/// `target`: static shapes, both unit-stride innermost, and a chunk (the
/// whole row of 4 to 64 elements, else 64/32/16/8 dividing it); 0 when the
/// copy cannot be vectorized so.
static int64_t getCopyChunk(MemRefType source, MemRefType target) {
  // Sub-byte elements (i1) are stored one per byte but load as packed
  // vector bits: they stay scalar.
  Type element = source.getElementType();
  if (!source.hasStaticShape() || source.getRank() == 0 || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  for (MemRefType type : {source, target}) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
      return 0;
  }
  int64_t row = source.getShape().back();
  if (row < 4)
    return 0;
  if (row <= 64)
    return row;
  for (int64_t chunk : {64, 32, 16, 8})
    if (row % chunk == 0)
      return chunk;
  return 0;
}

/// A memref.copy between strided views (a pad's interior, a concat's part,
/// a packed panel) lowers to the runtime's element-by-element memrefCopy,
/// about 30x slower than a loop. Such copies become loops over the outer
/// dimensions that move each row with vector loads and stores: as scalar
/// loops LLVM does not vectorize them (it cannot rule out that source and
/// target overlap), and a panel copy of 8-float rows 2 KB apart then costs
/// more than the convolution reading it (ResNet-18's 7x7x512 layers). Rows
/// that no chunk divides become linalg.copy loops. Contiguous copies stay
/// (they become a memcpy).
struct StridedCopyToLoopsPass
    : public PassWrapper<StridedCopyToLoopsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StridedCopyToLoopsPass)
  StringRef getArgument() const final { return "dltune-strided-copy-to-loops"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect, scf::SCFDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto contiguous = [](Value v) {
        auto type = dyn_cast<MemRefType>(v.getType());
        return type && type.getLayout().isIdentity();
      };
      if (!contiguous(copy.getSource()) || !contiguous(copy.getTarget()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      Location loc = copy.getLoc();
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      int64_t chunk = source && target ? getCopyChunk(source, target) : 0;
      if (chunk == 0) {
        linalg::CopyOp::create(b, loc, copy.getSource(), copy.getTarget());
        copy.erase();
        continue;
      }
      ArrayRef<int64_t> shape = source.getShape();
      auto vectorType = VectorType::get({chunk}, source.getElementType());
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      SmallVector<Value> indices;
      for (size_t d = 0; d < shape.size(); ++d) {
        bool inner = d + 1 == shape.size();
        int64_t step = inner ? chunk : 1;
        if (shape[d] == step) { // one iteration: no loop
          indices.push_back(zero);
          continue;
        }
        auto loop = scf::ForOp::create(b, loc, zero,
                                       arith::ConstantIndexOp::create(b, loc, shape[d]),
                                       step == 1 ? one
                                                 : arith::ConstantIndexOp::create(b, loc, step));
        b.setInsertionPoint(loop.getBody()->getTerminator());
        indices.push_back(loop.getInductionVar());
      }
      Value row = vector::LoadOp::create(b, loc, vectorType, copy.getSource(), indices);
      vector::StoreOp::create(b, loc, row, copy.getTarget(), indices);
      copy.erase();
    }
  }
};
} // namespace

// Built from pass constructors, not parsed from text: a pipeline string
// needs every upstream pass in the global registry, which a downstream
// tool that registers only dltune's passes does not have.
void mlir::dltune::buildCpuLoweringPipeline(OpPassManager &pm, bool openmp,
                                            bool foldConstantPacks, bool padInPlace) {
  // Before anything folds or CSEs the packing loops' index arithmetic.
  if (foldConstantPacks)
    pm.addPass(createDLTuneFoldConstantPacks());
  // Before CSE merges the producers' empty destinations.
  if (padInPlace)
    pm.addPass(createDLTunePadInPlace());
  pm.addPass(std::make_unique<ApproximateMathPass>());
  addBufferization(pm, /*deallocate=*/true);
  pm.addPass(std::make_unique<StridedCopyToLoopsPass>());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertVectorToSCFPass(VectorTransferToSCFOptions().enableFullUnroll()));
  // dltune's own forall lowering gives each loop the team size its
  // `threads` knob chose (num_threads), not the runtime's default.
  if (openmp)
    pm.addPass(createDLTuneForallToOpenMP());
  else
    pm.addPass(createForallToParallelLoopPass());
  // Order matters: scf->openmp wraps bodies in memref.alloca_scope, which
  // must become LLVM before scf->cf makes those bodies multi-block.
  pm.addPass(createLowerAffinePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  // What LLVM has no intrinsic for (erf, ...) becomes a libm call, which the
  // JIT and the candidates' shared objects resolve against the process.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  if (openmp)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

namespace {
struct LowerCPUPass : public dltune::impl::DLTuneLowerCPUBase<LowerCPUPass> {
  using DLTuneLowerCPUBase::DLTuneLowerCPUBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm("builtin.module");
    buildCpuLoweringPipeline(pm, openmp, foldConstantPacks, padInPlace);
    pm.getDependentDialects(registry);
    registry.insert<LLVM::LLVMDialect, omp::OpenMPDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Leftover transform scripts are not payload.
    SmallVector<Operation *> scripts;
    for (Operation &op : module.getBody()->getOperations())
      if (isa<transform::TransformOpInterface>(op) ||
          (isa<ModuleOp>(op) &&
           op.hasAttr(transform::TransformDialect::kWithNamedSequenceAttrName)))
        scripts.push_back(&op);
    for (Operation *op : scripts)
      op->erase();
    OpPassManager pm("builtin.module");
    buildCpuLoweringPipeline(pm, openmp, foldConstantPacks, padInPlace);
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};

static bool isWorkgroupMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  auto space = memref ? dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace())
                      : gpu::AddressSpaceAttr();
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

static bool isThreadMapped(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() &&
         isa<gpu::GPUThreadMappingAttr>((*mapping)[0]);
}

static bool isInsideThreadLoop(Operation *op) {
  for (auto f = op->getParentOfType<scf::ForallOp>(); f;
       f = f->getParentOfType<scf::ForallOp>())
    if (isThreadMapped(f))
      return true;
  return false;
}

/// Copies into workgroup memory (operands promoted by the schedule, i.e.
/// bufferized materialize_in_destination ops) are executed by the whole
/// block: they become a thread-mapped scf.forall in which thread t copies
/// elements t, t + T, t + 2T, ... in row-major order, so neighbouring
/// threads touch neighbouring addresses. map_nested_forall_to_threads puts a
/// gpu.barrier after every thread-mapped loop: after the copies (before the
/// tile is read) and after the loop reading it (before the next copy
/// overwrites it).
static LogicalResult distributeWorkgroupCopies(func::FuncOp func,
                                               ArrayRef<int64_t> blockDims) {
  SmallVector<memref::CopyOp> copies;
  func.walk([&](memref::CopyOp copy) {
    if (isWorkgroupMemory(copy.getTarget().getType()) && !isInsideThreadLoop(copy))
      copies.push_back(copy);
  });
  MLIRContext *ctx = func.getContext();
  for (memref::CopyOp copy : copies) {
    auto type = cast<MemRefType>(copy.getTarget().getType());
    if (!type.hasStaticShape())
      return copy.emitOpError()
             << "copies into workgroup memory need a static shape";
    SmallVector<OpFoldResult> ubs;
    SmallVector<int64_t> extents;
    SmallVector<Attribute> mapping;
    int64_t threads = 1;
    for (int d = 2; d >= 0; --d) {
      if (blockDims[d] <= 1 && d != 0)
        continue;
      OpBuilder b(ctx);
      ubs.push_back(b.getIndexAttr(blockDims[d]));
      extents.push_back(blockDims[d]);
      mapping.push_back(gpu::GPUThreadMappingAttr::get(
          ctx, static_cast<gpu::MappingId>(static_cast<int>(gpu::MappingId::DimX) + d)));
      threads *= blockDims[d];
    }
    OpBuilder b(copy);
    Location loc = copy.getLoc();
    auto forall = scf::ForallOp::create(b, loc, ubs, ValueRange{},
                                        b.getArrayAttr(mapping));
    b.setInsertionPointToStart(forall.getBody());
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    SmallVector<Value> ivs = forall.getInductionVars();
    Value linear = ivs[0];
    for (size_t i = 1; i < ivs.size(); ++i)
      linear = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, linear, cst(extents[i])),
          ivs[i]);
    auto loop = scf::ForOp::create(b, loc, linear, cst(type.getNumElements()), cst(threads));
    b.setInsertionPointToStart(loop.getBody());
    Value rest = loop.getInductionVar();
    SmallVector<Value> indices(type.getRank());
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      Value extent = cst(type.getDimSize(d));
      indices[d] = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, extent).getResult();
      if (d > 0)
        rest = arith::DivUIOp::create(b, loc, rest, extent);
    }
    Value v = memref::LoadOp::create(b, loc, copy.getSource(), indices);
    memref::StoreOp::create(b, loc, v, copy.getTarget(), indices);
    copy.erase();
  }
  return success();
}

/// The first and last ops of `block` that use `value`, directly or through
/// views of it (left alone when it has no use there).
static void collectUseRange(Value value, Block *block, Operation *&first,
                            Operation *&last) {
  for (Operation *user : value.getUsers()) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!inBlock)
      continue;
    if (!first || inBlock->isBeforeInBlock(first))
      first = inBlock;
    if (!last || last->isBeforeInBlock(inBlock))
      last = inBlock;
    for (Value result : user->getResults())
      if (isa<MemRefType>(result.getType()))
        collectUseRange(result, block, first, last);
  }
}

/// Workgroup buffers of the same type whose uses do not overlap in a block
/// share one buffer (an unrolled reduction loop would otherwise need a copy
/// of every promoted tile per unrolled iteration). A later buffer reuses an
/// earlier one only when every use of the earlier one - the thread loop that
/// reads it, which a barrier follows - comes before the first use of the
/// later one.
static void shareWorkgroupBuffers(func::FuncOp func) {
  DenseMap<Block *, SmallVector<memref::AllocOp>> byBlock;
  func.walk([&](memref::AllocOp alloc) {
    if (isWorkgroupMemory(alloc.getType()))
      byBlock[alloc->getBlock()].push_back(alloc);
  });
  for (auto &[block, allocs] : byBlock) {
    struct Slot {
      memref::AllocOp alloc;
      Operation *last;
    };
    SmallVector<Slot> slots;
    for (memref::AllocOp alloc : allocs) {
      Operation *first = nullptr, *last = nullptr;
      collectUseRange(alloc.getResult(), block, first, last);
      if (!first)
        continue;
      Slot *reuse = nullptr;
      for (Slot &s : slots)
        if (s.alloc.getType() == alloc.getType() && s.last->isBeforeInBlock(first)) {
          reuse = &s;
          break;
        }
      if (!reuse) {
        slots.push_back({alloc, last});
        continue;
      }
      alloc.getResult().replaceAllUsesWith(reuse->alloc.getResult());
      alloc.erase();
      reuse->last = last;
    }
  }
}

/// Workgroup buffers inside a kernel become workgroup attributions of its
/// gpu.launch (static shared memory of the outlined kernel).
static void allocsToWorkgroupAttributions(func::FuncOp func) {
  func.walk([&](gpu::LaunchOp launch) {
    SmallVector<memref::AllocOp> allocs;
    launch.getBody().walk([&](memref::AllocOp alloc) {
      if (isWorkgroupMemory(alloc.getType()))
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs) {
      BlockArgument buffer = launch.addWorkgroupAttribution(alloc.getType(), alloc.getLoc());
      alloc.getResult().replaceAllUsesWith(buffer);
      alloc.erase();
    }
  });
}

/// The block size (x, y, z) read off the thread-mapped scf.forall loops of
/// `func`; nullopt when it has none.
static std::optional<SmallVector<int64_t, 3>> getBlockDims(func::FuncOp func) {
  SmallVector<int64_t, 3> blockDims = {1, 1, 1};
  bool hasThreads = false;
  func.walk([&](scf::ForallOp forall) {
    if (!isThreadMapped(forall))
      return;
    hasThreads = true;
    SmallVector<OpFoldResult> ubs = forall.getMixedUpperBound();
    for (auto [attr, ub] : llvm::zip(*forall.getMapping(), ubs)) {
      auto t = cast<gpu::GPUThreadMappingAttr>(attr);
      std::optional<int64_t> c = getConstantIntValue(ub);
      int dim = static_cast<int>(t.getThread()) - static_cast<int>(gpu::MappingId::DimX);
      if (c && dim >= 0 && dim < 3)
        blockDims[dim] = std::max(blockDims[dim], *c);
    }
  });
  if (!hasThreads)
    return std::nullopt;
  return blockDims;
}

} // namespace

LogicalResult mlir::dltune::prepareWorkgroupMemory(func::FuncOp func) {
  std::optional<SmallVector<int64_t, 3>> blockDims = getBlockDims(func);
  if (!blockDims)
    return success();
  if (failed(distributeWorkgroupCopies(func, *blockDims)))
    return failure();
  shareWorkgroupBuffers(func);
  return success();
}

namespace {
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
    std::string script =
        "module attributes {transform.with_named_sequence} {\n"
        "  transform.named_sequence @__transform_main(%root: !transform.any_op "
        "{transform.consumed}) {\n"
        "    %g = transform.gpu.map_forall_to_blocks %root generate_gpu_launch "
        ": (!transform.any_op) -> !transform.any_op\n"
        "    transform.gpu.map_nested_forall_to_threads %g block_dims = [" +
        std::to_string(blockDims[0]) + ", " + std::to_string(blockDims[1]) +
        ", " + std::to_string(blockDims[2]) + "] sync_after_distribute = " +
        (sync ? "true" : "false") +
        " : (!transform.any_op) -> !transform.any_op\n"
        "    transform.yield\n  }\n}\n";
    OwningOpRef<ModuleOp> schedule =
        parseSourceString<ModuleOp>(script, ParserConfig(module.getContext()));
    if (!schedule)
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

/// Linalg ops the schedule left behind: inside kernels they become plain
/// loops (each thread runs its tile); outside (fills of outputs, untuned
/// elementwise ops) they become parallel loops mapped to blocks and threads
/// by upstream's greedy mapping, so that no host code touches device memory.
static LogicalResult mapLeftoverLinalgOps(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
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
    if (failed(linalg::linalgOpToParallelLoops(rewriter, op)))
      return op->emitOpError() << "could not be mapped to the GPU";
    rewriter.eraseOp(op);
  }
  return success();
}

} // namespace

std::string mlir::dltune::getPtxFeaturesForChip(StringRef chip) {
  unsigned sm = 0;
  StringRef digits = chip;
  if (!digits.consume_front("sm_"))
    return "+ptx80";
  digits = digits.take_while([](char c) { return llvm::isDigit(c); });
  if (digits.getAsInteger(10, sm) || sm <= 90)
    return "+ptx80";
  if (sm == 100 || sm == 101)
    return "+ptx86";
  if (sm == 120)
    return "+ptx87";
  return "+ptx88";
}

std::string mlir::dltune::findPtxas() {
  if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName("ptxas"))
    return *p;
  SmallVector<StringRef, 2> dirs;
  std::string cudaHome;
  if (const char *home = std::getenv("CUDA_HOME")) {
    cudaHome = std::string(home) + "/bin";
    dirs.push_back(cudaHome);
  }
  dirs.push_back("/usr/local/cuda/bin");
  if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName("ptxas", dirs))
    return *p;
  return "";
}

/// Threads per block of each kernel launched from `module` (0 when the
/// launch's block size is not a constant).
static llvm::StringMap<int64_t> getThreadsPerBlock(ModuleOp module) {
  llvm::StringMap<int64_t> threads;
  module.walk([&](gpu::LaunchFuncOp launch) {
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    int64_t n = 1;
    for (Value v : {block.x, block.y, block.z}) {
      APInt c;
      n = matchPattern(v, m_ConstantInt(&c)) ? n * c.getSExtValue() : 0;
    }
    int64_t &t = threads[launch.getKernelName().getValue()];
    t = std::max(t, n);
  });
  return threads;
}

static DictionaryAttr toAttr(MLIRContext *ctx, const GpuKernelResources &k) {
  Builder b(ctx);
  return b.getDictionaryAttr(
      {b.getNamedAttr("kernel", b.getStringAttr(k.kernel)),
       b.getNamedAttr("registers", b.getI64IntegerAttr(k.registers)),
       b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(k.sharedBytes)),
       b.getNamedAttr("stack_bytes", b.getI64IntegerAttr(k.stackBytes)),
       b.getNamedAttr("spill_store_bytes", b.getI64IntegerAttr(k.spillStoreBytes)),
       b.getNamedAttr("spill_load_bytes", b.getI64IntegerAttr(k.spillLoadBytes)),
       b.getNamedAttr("barriers", b.getI64IntegerAttr(k.barriers)),
       b.getNamedAttr("threads_per_block", b.getI64IntegerAttr(k.threadsPerBlock))});
}

llvm::Expected<std::vector<GpuKernelResources>>
mlir::dltune::getGpuKernelResources(ModuleOp lowered) {
  std::vector<GpuKernelResources> out;
  WalkResult walk = lowered.walk([&](gpu::BinaryOp binary) {
    auto list = binary->getAttrOfType<ArrayAttr>(kKernelResourcesAttrName);
    if (!list)
      return WalkResult::advance();
    for (Attribute a : list) {
      auto dict = dyn_cast<DictionaryAttr>(a);
      auto name = dict ? dict.getAs<StringAttr>("kernel") : StringAttr();
      if (!name)
        return WalkResult::interrupt();
      GpuKernelResources k;
      k.kernel = name.str();
      auto get = [&](StringRef key) -> int64_t {
        auto v = dict.getAs<IntegerAttr>(key);
        return v ? v.getInt() : 0;
      };
      k.registers = get("registers");
      k.sharedBytes = get("shared_bytes");
      k.stackBytes = get("stack_bytes");
      k.spillStoreBytes = get("spill_store_bytes");
      k.spillLoadBytes = get("spill_load_bytes");
      k.barriers = get("barriers");
      k.threadsPerBlock = get("threads_per_block");
      out.push_back(std::move(k));
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "malformed %s attribute",
                                   kKernelResourcesAttrName.data());
  return out;
}

/// Removes a temporary file when it goes out of scope.
namespace {
struct TempFile {
  SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};
} // namespace

static LogicalResult createTemp(gpu::BinaryOp at, StringRef suffix, TempFile &file) {
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("dltune-kernel", suffix, fd, file.path))
    return at.emitError() << "cannot create a temporary file: " << ec.message();
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  return success();
}

/// Turns the PTX objects of every gpu.binary into cubins with `ptxas -v`
/// and attaches what ptxas reports as dltune.kernel_resources. Upstream's
/// serializer runs ptxas too but keeps its report to itself.
static LogicalResult assembleWithPtxas(ModuleOp module, int optLevel) {
  SmallVector<gpu::BinaryOp> binaries;
  module.walk([&](gpu::BinaryOp b) { binaries.push_back(b); });
  if (binaries.empty())
    return success();
  std::string ptxas = findPtxas();
  if (ptxas.empty())
    return module.emitError()
           << "dltune-lower-gpu: format=bin needs ptxas (on PATH, in "
              "$CUDA_HOME/bin or /usr/local/cuda/bin); format=isa gives PTX";
  llvm::StringMap<int64_t> threads = getThreadsPerBlock(module);
  MLIRContext *ctx = module.getContext();
  for (gpu::BinaryOp binary : binaries) {
    SmallVector<Attribute> objects, resources;
    for (Attribute a : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(a);
      auto target = object ? dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget())
                           : NVVM::NVVMTargetAttr();
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
        objects.push_back(a);
        continue;
      }
      TempFile ptx, cubin, log;
      if (failed(createTemp(binary, "ptx", ptx)) ||
          failed(createTemp(binary, "cubin", cubin)) ||
          failed(createTemp(binary, "log", log)))
        return failure();
      {
        std::error_code ec;
        llvm::raw_fd_ostream os(ptx.path, ec);
        if (ec)
          return binary.emitError() << "cannot write " << ptx.path << ": " << ec.message();
        os << object.getObject().getValue();
      }
      std::string opt = "--opt-level=" + std::to_string(optLevel);
      std::string arch = "-arch=" + target.getChip().str();
      SmallVector<StringRef> args = {ptxas, "-v", arch, opt, ptx.path, "-o", cubin.path};
      std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log.path),
                                              StringRef(log.path)};
      std::string execError;
      int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                         &execError);
      auto logText = llvm::MemoryBuffer::getFile(log.path);
      std::string report = logText ? (*logText)->getBuffer().trim().str() : "";
      if (rc != 0)
        return binary.emitError()
               << "ptxas failed for " << target.getChip() << " (exit " << rc << ")"
               << (execError.empty() ? "" : ": " + execError) << "\n"
               << report;
      llvm::Expected<std::vector<GpuKernelResources>> kernels =
          parsePtxasVerboseLog(report);
      if (!kernels)
        return binary.emitError() << llvm::toString(kernels.takeError());
      auto bytes = llvm::MemoryBuffer::getFile(cubin.path, /*IsText=*/false);
      if (!bytes)
        return binary.emitError() << "cannot read the cubin ptxas wrote";
      for (GpuKernelResources &k : *kernels) {
        k.threadsPerBlock = threads.lookup(k.kernel);
        resources.push_back(toAttr(ctx, k));
      }
      objects.push_back(gpu::ObjectAttr::get(
          ctx, target, gpu::CompilationTarget::Binary,
          StringAttr::get(ctx, (*bytes)->getBuffer()), object.getProperties(),
          object.getKernels()));
    }
    binary.setObjectsAttr(ArrayAttr::get(ctx, objects));
    binary->setAttr(kKernelResourcesAttrName, ArrayAttr::get(ctx, resources));
  }
  return success();
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
    gpu::GPUToNVVMPipelineOptions opts;
    gpu::buildLowerToNVVMPassPipeline(pm, opts);
    pm.getDependentDialects(registry);
    registerScheduleExtensions(registry);
    registry.insert<gpu::GPUDialect, LLVM::LLVMDialect, func::FuncDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (format != "isa" && format != "bin" && format != "fatbin") {
      module.emitError() << "dltune-lower-gpu: format must be isa, bin or "
                            "fatbin, got '"
                         << format << "'";
      return signalPassFailure();
    }
    OpPassManager bufferize("builtin.module");
    addBufferization(bufferize, /*deallocate=*/false);
    if (failed(runPipeline(bufferize, module)) || failed(mapForallToGpu(module)) ||
        failed(mapLeftoverLinalgOps(module)))
      return signalPassFailure();
    OpPassManager mapLoops("builtin.module");
    addLoopMapping(mapLoops);
    if (failed(runPipeline(mapLoops, module)))
      return signalPassFailure();
    // Cubins: PTX from the pipeline, assembled by ptxas here so that its
    // resource report is kept.
    bool cubin = format == "bin";
    OpPassManager lower("builtin.module");
    gpu::GPUToNVVMPipelineOptions opts;
    opts.cubinChip = chip;
    // The default features are too old for chips after sm_90.
    opts.cubinFeatures = features == "+ptx80" ? getPtxFeaturesForChip(chip) : features;
    opts.cubinFormat = cubin ? std::string("isa") : std::string(format);
    opts.optLevel = 3;
    gpu::buildLowerToNVVMPassPipeline(lower, opts);
    if (failed(runPipeline(lower, module)) ||
        (cubin && failed(assembleWithPtxas(module, opts.optLevel))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::dltune::registerDLTunePipelines() {
  PassPipelineRegistration<>(
      "dltune-default-pipeline",
      "Compute 3x3 convolutions by Winograd's algorithm, annotate with default "
      "spaces and configs, apply them and lower to LLVM for the CPU",
      [](OpPassManager &pm) {
        // Transforms on every core, as the annotated ops' default threads.
        DLTuneWinogradOptions winograd;
        winograd.threads = 0;
        pm.addPass(createDLTuneWinograd(winograd));
        DLTuneAnnotateOptions annotate;
        annotate.defaultConfig = true;
        pm.addPass(createDLTuneAnnotate(annotate));
        pm.addPass(createDLTuneApply());
        pm.addPass(createDLTuneStrip());
        pm.addPass(createDLTuneLowerCPU());
      });
}
