//===- GpuWorkgroupMemory.cpp - Shared memory of the GPU lowering ---------===//
//
// What --dltune-lower-gpu does with workgroup (shared) memory before and
// after it maps scf.forall loops to the GPU: copies into it become loops
// over the block's threads, buffers whose uses do not overlap share
// storage, and the buffers become workgroup attributions of the launch.
//
//===----------------------------------------------------------------------===//

#include "LoweringPipeline.h"

#include "dltune/Transforms/LowerGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::dltune;

bool mlir::dltune::isWorkgroupMemory(Type type) {
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

void mlir::dltune::allocsToWorkgroupAttributions(func::FuncOp func) {
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

std::optional<SmallVector<int64_t, 3>> mlir::dltune::getBlockDims(func::FuncOp func) {
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

LogicalResult mlir::dltune::prepareWorkgroupMemory(func::FuncOp func) {
  std::optional<SmallVector<int64_t, 3>> blockDims = getBlockDims(func);
  if (!blockDims)
    return success();
  if (failed(distributeWorkgroupCopies(func, *blockDims)))
    return failure();
  shareWorkgroupBuffers(func);
  return success();
}
