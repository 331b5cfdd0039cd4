//===- GpuEmulation.cpp - Run GPU kernels on the CPU, for tests -----------===//
//
// --dltune-lower-gpu{emulate=true}: every gpu.launch becomes host code that
// runs the kernel on the CPU with the GPU's execution model, so that the
// kernels dltune builds (the SIMT matmul, the element-wise leftovers, the
// shared-memory copies) are checked against the CPU reference on machines
// without a GPU. Blocks run one after another; the threads of a block are
// an OpenMP team of exactly that many threads, `gpu.barrier` is
// `omp.barrier` and workgroup memory is one host buffer a launch, shared by
// the team; a kernel without barriers runs its threads one after another
// in loops (none waits for another); `gpu.subgroup_reduce` goes through a
// buffer the team shares. What it does not check: the NVVM lowering and the hardware
// (timing means nothing), and kernels with warp-level or tensor-core ops
// (nvgpu, nvvm), which are refused. Vector accesses that claim an alignment
// are checked to have it (a GPU faults where a CPU does not).
//
//===----------------------------------------------------------------------===//

#include "LoweringPipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::dltune;

/// The runtime function that gives an OpenMP thread its number in the team.
static constexpr llvm::StringLiteral kThreadNumFunction = "omp_get_thread_num";
/// And the size of the team.
static constexpr llvm::StringLiteral kTeamSizeFunction = "omp_get_num_threads";

/// `type` without a GPU memory space (workgroup or private memory becomes
/// plain host memory); other types are returned as they are.
static Type withoutGpuMemorySpace(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !isa_and_nonnull<gpu::AddressSpaceAttr>(memref.getMemorySpace()))
    return type;
  return MemRefType::get(memref.getShape(), memref.getElementType(), memref.getLayout());
}

/// Why `launch` cannot run on the CPU; empty when it can.
static std::string whyNotEmulated(gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return "asynchronous launches are not emulated";
  if (launch.hasClusterSize())
    return "thread-block clusters are not emulated";
  if (launch.getDynamicSharedMemorySize())
    return "dynamic shared memory is not emulated";
  std::string why;
  launch.getBody().walk([&](Operation *op) {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    bool gpuSupported = isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
                            gpu::BarrierOp, gpu::TerminatorOp>(op);
    if ((dialect == "gpu" && !gpuSupported) || dialect == "nvgpu" || dialect == "nvvm") {
      why = "'" + op->getName().getStringRef().str() +
            "' has no CPU emulation (warp-level and tensor-core kernels need a GPU)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return why;
}

/// Replaces each `gpu.subgroup_reduce` in `launch` (which all threads of a
/// block reach together, at the body's top level) by its meaning: each
/// thread writes its value into a buffer the block shares (allocated
/// before the launch, one slot per thread), a barrier, each thread folds
/// the slots of its cluster (consecutive linear thread ids, as the lanes of
/// a warp are) in order, and a barrier again (each reduction has its own
/// buffer, so this one only keeps the threads in step).
static LogicalResult emulateSubgroupReduces(gpu::LaunchOp launch) {
  SmallVector<gpu::SubgroupReduceOp> reduces;
  launch.getBody().walk([&](gpu::SubgroupReduceOp r) { reduces.push_back(r); });
  if (reduces.empty())
    return success();
  Location loc = launch.getLoc();
  OpBuilder outside(launch);
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value threads = arith::MulIOp::create(
      outside, loc, arith::MulIOp::create(outside, loc, block.x, block.y), block.z);
  Block &entry = launch.getBody().front();
  for (gpu::SubgroupReduceOp r : reduces) {
    if (r->getBlock() != &entry || isa<VectorType>(r.getType()) || r.getClusterStride() != 1)
      return r.emitError() << "dltune-lower-gpu{emulate=true}: only scalar, contiguous "
                              "subgroup reductions at a kernel's top level are emulated";
    outside.setInsertionPoint(launch);
    auto bufferType = MemRefType::get({ShapedType::kDynamic}, r.getType());
    Value buffer = memref::AllocOp::create(outside, loc, bufferType, ValueRange{threads});
    outside.setInsertionPointAfter(launch);
    memref::DeallocOp::create(outside, loc, buffer);

    OpBuilder b(r);
    gpu::KernelDim3 tid = launch.getThreadIds(), size = launch.getBlockSize();
    Value linear = arith::AddIOp::create(
        b, loc, tid.x,
        arith::MulIOp::create(b, loc, size.x,
                              arith::AddIOp::create(b, loc, tid.y,
                                                    arith::MulIOp::create(b, loc, size.y, tid.z))));
    memref::StoreOp::create(b, loc, r.getValue(), buffer, linear);
    gpu::BarrierOp::create(b, loc);
    int64_t clusterSize = r.getClusterSize().value_or(32);
    Value cluster = arith::ConstantIndexOp::create(b, loc, clusterSize);
    Value first = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, linear, cluster),
                                        cluster);
    Value end = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, first, cluster),
                                       threads);
    Value start = memref::LoadOp::create(b, loc, buffer, first);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    vector::CombiningKind kind = gpu::convertReductionKind(r.getOp());
    auto fold = scf::ForOp::create(
        b, loc, arith::AddIOp::create(b, loc, first, one), end, one, ValueRange{start},
        [&](OpBuilder &lb, Location l, Value i, ValueRange acc) {
          Value v = memref::LoadOp::create(lb, l, buffer, i);
          scf::YieldOp::create(lb, l, vector::makeArithReduction(lb, l, kind, acc[0], v));
        });
    gpu::BarrierOp::create(b, loc);
    r.replaceAllUsesWith(fold.getResult(0));
    r.erase();
  }
  return success();
}

/// The value of dimension `dim` of `dims`.
static Value pick(const gpu::KernelDim3 &dims, gpu::Dimension dim) {
  switch (dim) {
  case gpu::Dimension::x:
    return dims.x;
  case gpu::Dimension::y:
    return dims.y;
  case gpu::Dimension::z:
    return dims.z;
  }
  llvm_unreachable("unknown dimension");
}

/// Replaces the GPU ops in `scope` (a kernel's body, moved out of its
/// launch) by the emulation's values, and strips GPU memory spaces from the
/// types there.
template <typename Scope>
static void replaceGpuOps(RewriterBase &rewriter, Scope *scope, const gpu::KernelDim3 &threadIds,
                          const gpu::KernelDim3 &blockIdValues, const gpu::KernelDim3 &grid,
                          const gpu::KernelDim3 &block) {
  SmallVector<Operation *> gpuOps;
  scope->walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "gpu")
      gpuOps.push_back(op);
    for (Value result : op->getResults())
      result.setType(withoutGpuMemorySpace(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &b : region)
        for (BlockArgument arg : b.getArguments())
          arg.setType(withoutGpuMemorySpace(arg.getType()));
  });
  for (Operation *op : gpuOps) {
    rewriter.setInsertionPoint(op);
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      rewriter.replaceOp(op, pick(threadIds, id.getDimension()));
    else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      rewriter.replaceOp(op, pick(blockIdValues, id.getDimension()));
    else if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
      rewriter.replaceOp(op, pick(block, dim.getDimension()));
    else if (auto dim = dyn_cast<gpu::GridDimOp>(op))
      rewriter.replaceOp(op, pick(grid, dim.getDimension()));
    else if (isa<gpu::BarrierOp>(op))
      rewriter.replaceOpWithNewOp<omp::BarrierOp>(op);
    else if (isa<gpu::TerminatorOp>(op))
      rewriter.replaceOpWithNewOp<omp::TerminatorOp>(op);
  }
}

/// Before each vector load or store in `launch` that claims an alignment
/// above its element's, a check that the access's offset from its buffer's
/// start is a multiple of it. On a GPU a misaligned vector access faults
/// ("misaligned address"), on the CPU it just runs, so without the check
/// the emulation would pass a kernel whose alignment claims (derived from
/// layouts and index arithmetic, GpuMemRefLayout.h) are wrong. Buffers
/// themselves are taken as aligned, as cuMemAlloc's (256 bytes) are.
static void insertAlignmentChecks(gpu::LaunchOp launch) {
  auto check = [](Operation *op, Value memref, ValueRange indices,
                  std::optional<uint64_t> alignment) {
    auto type = cast<MemRefType>(memref.getType());
    // Buffers of vectors or indices have no bit width to ask for.
    if (!alignment || !type.getElementType().isIntOrFloat())
      return;
    int64_t elemBytes = type.getElementTypeBitWidth() / 8;
    if (elemBytes <= 0 || static_cast<int64_t>(*alignment) <= elemBytes)
      return;
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    Value linear = meta.getOffset();
    for (auto [index, stride] : llvm::zip(indices, meta.getStrides()))
      linear = arith::AddIOp::create(b, loc, linear,
                                     arith::MulIOp::create(b, loc, index, stride));
    Value bytes = arith::MulIOp::create(b, loc, linear,
                                        arith::ConstantIndexOp::create(b, loc, elemBytes));
    Value rem = arith::RemUIOp::create(
        b, loc, bytes, arith::ConstantIndexOp::create(b, loc, static_cast<int64_t>(*alignment)));
    Value aligned = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                          arith::ConstantIndexOp::create(b, loc, 0));
    cf::AssertOp::create(b, loc, aligned,
                         "GPU emulation: a vector access claims " + std::to_string(*alignment) +
                             "-byte alignment but is misaligned (on a GPU: misaligned address)");
  };
  launch.getBody().walk([&](Operation *op) {
    if (auto load = dyn_cast<vector::LoadOp>(op))
      check(op, load.getBase(), load.getIndices(), load.getAlignment());
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      check(op, store.getBase(), store.getIndices(), store.getAlignment());
    else if (auto load = dyn_cast<vector::MaskedLoadOp>(op))
      check(op, load.getBase(), load.getIndices(), load.getAlignment());
    else if (auto store = dyn_cast<vector::MaskedStoreOp>(op))
      check(op, store.getBase(), store.getIndices(), store.getAlignment());
  });
}

/// Loops over z, y and x from 0 to `sizes`, nested in that order; leaves
/// the insertion point in the innermost body and returns the induction
/// variables.
static gpu::KernelDim3 buildLoopNest(RewriterBase &rewriter, Location loc,
                                     const gpu::KernelDim3 &sizes) {
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value ivs[3];
  for (gpu::Dimension dim : {gpu::Dimension::z, gpu::Dimension::y, gpu::Dimension::x}) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, pick(sizes, dim), one);
    ivs[static_cast<int>(dim)] = loop.getInductionVar();
    rewriter.setInsertionPointToStart(loop.getBody());
  }
  return {ivs[0], ivs[1], ivs[2]};
}

/// Host buffers in place of `attributions` (a launch's workgroup or private
/// buffers), at the rewriter's insertion point.
template <typename AllocOpTy>
static SmallVector<Value> allocateAttributions(RewriterBase &rewriter, Location loc,
                                               ArrayRef<BlockArgument> attributions) {
  SmallVector<Value> buffers;
  for (BlockArgument arg : attributions) {
    auto type = cast<MemRefType>(withoutGpuMemorySpace(arg.getType()));
    if constexpr (std::is_same_v<AllocOpTy, memref::AllocOp>)
      buffers.push_back(AllocOpTy::create(rewriter, loc, type, ValueRange{},
                                          rewriter.getI64IntegerAttr(256)));
    else
      buffers.push_back(AllocOpTy::create(rewriter, loc, type));
  }
  return buffers;
}

/// The values of a launch body's arguments, in the launch's order: block
/// ids, thread ids, grid size, block size, then the workgroup and private
/// buffers.
static SmallVector<Value> getBodyArgumentValues(const gpu::KernelDim3 &blockIds,
                                                const gpu::KernelDim3 &threadIds,
                                                const gpu::KernelDim3 &grid,
                                                const gpu::KernelDim3 &block,
                                                ArrayRef<Value> workgroup,
                                                ArrayRef<Value> privates) {
  SmallVector<Value> values = {blockIds.x,  blockIds.y,  blockIds.z, threadIds.x,
                               threadIds.y, threadIds.z, grid.x,     grid.y,
                               grid.z,      block.x,     block.y,    block.z};
  values.append(workgroup.begin(), workgroup.end());
  values.append(privates.begin(), privates.end());
  return values;
}

/// Replaces `launch` by loops over its blocks, each running the body as an
/// OpenMP team of the block's threads, or, without barriers, as loops over
/// the threads.
static void emulateLaunch(gpu::LaunchOp launch, func::FuncOp threadNum, func::FuncOp teamSizeFn) {
  IRRewriter rewriter(launch.getContext());
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  // One host buffer per workgroup attribution, shared by a block's team and
  // reused by the next block (which, on a GPU, also starts with garbage).
  SmallVector<Value> workgroup =
      allocateAttributions<memref::AllocOp>(rewriter, loc, launch.getWorkgroupAttributions());

  // Without barriers no thread waits for another: the threads of a block
  // run one after another, in loops (an OpenMP team a block made a model's
  // element-wise kernels, thousands of blocks each, take minutes), and one
  // private buffer each serves them all (it starts undefined anyway).
  bool barriers = false;
  launch.getBody().walk([&](gpu::BarrierOp) { barriers = true; });
  bool sequential = !barriers && launch.getBody().hasOneBlock();
  SmallVector<Value> privates;
  if (sequential)
    privates =
        allocateAttributions<memref::AllocaOp>(rewriter, loc, launch.getPrivateAttributions());

  gpu::KernelDim3 blockIds = buildLoopNest(rewriter, loc, grid);
  if (sequential) {
    gpu::KernelDim3 threadIds = buildLoopNest(rewriter, loc, block);
    Block &entry = launch.getBody().front();
    Operation *terminator = entry.getTerminator();
    Block *loopBody = rewriter.getInsertionBlock();
    rewriter.inlineBlockBefore(
        &entry, loopBody->getTerminator(),
        getBodyArgumentValues(blockIds, threadIds, grid, block, workgroup, privates));
    rewriter.eraseOp(terminator);
    replaceGpuOps(rewriter, loopBody, threadIds, blockIds, grid, block);
  } else {
    Value xy = arith::MulIOp::create(rewriter, loc, block.x, block.y);
    Value threads = arith::MulIOp::create(rewriter, loc, xy, block.z);
    Value team = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(), threads);
    auto parallel = omp::ParallelOp::create(rewriter, loc);
    parallel.getNumThreadsMutable().assign(team);

    // The launch's body becomes the team's region; its arguments are
    // replaced by the block's coordinates and the thread's (from its number
    // in the team, x fastest, as on the GPU).
    SmallVector<BlockArgument> privateArgs(launch.getPrivateAttributions());
    parallel.getRegion().takeBody(launch.getBody());
    Block &entry = parallel.getRegion().front();
    rewriter.setInsertionPointToStart(&entry);
    // num_threads is a request: a smaller team would silently skip threads.
    Value teamSize = func::CallOp::create(rewriter, loc, teamSizeFn, ValueRange{}).getResult(0);
    Value fullTeam =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, teamSize, team);
    cf::AssertOp::create(rewriter, loc, fullTeam,
                         "GPU emulation: OpenMP gave a block fewer threads than it has");
    Value number = func::CallOp::create(rewriter, loc, threadNum, ValueRange{}).getResult(0);
    Value t = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), number);
    Value tx = arith::RemUIOp::create(rewriter, loc, t, block.x);
    Value rest = arith::DivUIOp::create(rewriter, loc, t, block.x);
    Value ty = arith::RemUIOp::create(rewriter, loc, rest, block.y);
    Value tz = arith::DivUIOp::create(rewriter, loc, rest, block.y);
    gpu::KernelDim3 threadIds{tx, ty, tz};
    // Private buffers inside the team: one per thread.
    privates = allocateAttributions<memref::AllocaOp>(rewriter, loc, privateArgs);
    for (auto [arg, value] :
         llvm::zip(entry.getArguments(),
                   getBodyArgumentValues(blockIds, threadIds, grid, block, workgroup, privates)))
      arg.replaceAllUsesWith(value);
    entry.eraseArguments(0, entry.getNumArguments());
    replaceGpuOps(rewriter, &parallel.getRegion(), threadIds, blockIds, grid, block);
  }

  rewriter.setInsertionPointAfter(launch);
  for (Value buffer : workgroup)
    memref::DeallocOp::create(rewriter, loc, buffer);
  rewriter.eraseOp(launch);
}

LogicalResult mlir::dltune::emulateGpuLaunchesOnCpu(ModuleOp module) {
  SmallVector<gpu::LaunchOp> launches;
  module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
  if (launches.empty())
    return success();
  for (gpu::LaunchOp launch : launches) {
    if (failed(emulateSubgroupReduces(launch)))
      return failure();
    std::string why = whyNotEmulated(launch);
    if (!why.empty())
      return launch.emitError() << "dltune-lower-gpu{emulate=true}: " << why;
  }
  OpBuilder b(module.getContext());
  auto declare = [&](StringRef name) {
    auto f = module.lookupSymbol<func::FuncOp>(name);
    if (!f) {
      b.setInsertionPointToStart(module.getBody());
      f = func::FuncOp::create(b, module.getLoc(), name, b.getFunctionType({}, {b.getI32Type()}));
      f.setPrivate();
    }
    return f;
  };
  func::FuncOp threadNum = declare(kThreadNumFunction);
  func::FuncOp teamSize = declare(kTeamSizeFunction);
  for (gpu::LaunchOp launch : launches) {
    insertAlignmentChecks(launch);
    emulateLaunch(launch, threadNum, teamSize);
  }
  return success();
}
