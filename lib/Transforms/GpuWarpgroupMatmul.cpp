//===- GpuWarpgroupMatmul.cpp - Hopper warpgroup-MMA matmul kernels -------===//

#include "GpuWarpgroupMatmul.h"

#include "GpuMatmulEpilogue.h"
#include "GpuMemRefLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::dltune;

int64_t GpuMatmulTiles::getWarpgroupSharedBytes(int64_t elemBytes) const {
  // A slot: block_m rows of one 128-byte k slice; B slot: tile_k rows of
  // block_n, as block_n / (128 / elemBytes) boxes of 128-byte rows.
  int64_t pipeline = stages * (blockM + tileK * blockN / (kWarpgroupSliceBytes / elemBytes)) *
                     kWarpgroupSliceBytes;
  int64_t staging = blockM * (blockN + kWarpgroupStagingPad) * 4;
  // Slack to start the tiles on a swizzle atom (1024 bytes).
  return std::max(pipeline, staging) + kWarpgroupSwizzleAtomBytes;
}

std::string mlir::dltune::whyNotWarpgroupMatmul(const MatmulOperands &o,
                                                const GpuMatmulTiles &t) {
  Type in = o.aType.getElementType();
  if (!in.isF16() && !in.isBF16())
    return "warpgroup MMA here takes f16 or bf16 inputs (TF32 would need B k-major)";
  if (!o.cType.getElementType().isF32())
    return "warpgroup MMA accumulates in f32: C must be f32";
  int64_t sliceElems = kWarpgroupSliceBytes / o.elemBytes;
  if (t.tileK != sliceElems)
    return "with wgmma, tile_k must be " + std::to_string(sliceElems) +
           " (one 128-byte row of the 128-byte swizzle)";
  if (t.warpM != 64 && t.warpM != 128)
    return "with wgmma, warp_m (rows of a warpgroup) must be 64 or 128";
  if (t.blockM % t.warpM || t.blockM > 256)
    return "with wgmma, warp_m must divide block_m, at most 256 (a TMA box)";
  if (t.warpN != t.blockN || t.blockN % sliceElems || t.blockN > 256)
    return "with wgmma, warp_n must equal block_n, a multiple of " + std::to_string(sliceElems) +
           " up to 256";
  if (t.warpM * t.blockN / 128 > 128)
    return "with wgmma, a thread may hold at most 128 accumulators (warp_m x block_n / 128)";
  // nvgpu.warpgroup.mma.store puts a warpgroup's second 64 rows block_n / 2
  // rows below its first (the register count of one m64 fragment), which
  // is 64 only for block_n 128.
  if (t.warpM == 128 && t.blockN != 128)
    return "with wgmma, warp_m 128 needs block_n 128 (MLIR 22's accumulator store)";
  if (t.pad != 0 || t.interleave != 0)
    return "with wgmma, pad and interleave must be 0";
  if (o.m % t.blockM || o.n % t.blockN || o.k % t.tileK)
    return "block_m, block_n and tile_k must divide M, N and K";
  if (t.getWarpgroupSharedBytes(o.elemBytes) > kMaxSharedBytesOptIn)
    return "the shared-memory tiles exceed the 227 KiB a block may have";
  // The Tensor Memory Accelerator reads A and B through 2-D tensor maps
  // (batches stacked): 16-byte aligned start and row strides, unit stride
  // along the row.
  for (MemRefType type : {o.aType, o.bType}) {
    std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout = getStaticLayout(type);
    if (!layout || layout->first.back() != 1)
      return "with wgmma, A and B need static strides, contiguous rows";
    if (llvm::any_of(layoutMultiples(type, o.elemBytes), [](int64_t m) { return m % 16; }))
      return "with wgmma, A and B rows and starts must be 16-byte aligned (TMA)";
    if (o.batched && layout->first[0] != type.getDimSize(1) * layout->first[1])
      return "with wgmma, a batch of A or B must follow the previous one (one tensor map)";
  }
  return "";
}

namespace {
class WarpgroupMatmulBuilder : KernelIndexArith {
public:
  WarpgroupMatmulBuilder(OpBuilder &b, Location loc, const MatmulOperands &o,
                         const GpuMatmulTiles &t, const MatmulEpilogue *epilogue)
      : KernelIndexArith(b, loc), o(o), t(t), epilogue(epilogue),
        workgroup(gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup)) {
    inType = o.aType.getElementType();
    boxCols = kWarpgroupSliceBytes / o.elemBytes;
    aSlotBytes = t.blockM * kWarpgroupSliceBytes;
    boxBytes = t.tileK * kWarpgroupSliceBytes;
    bSlotBytes = (t.blockN / boxCols) * boxBytes;
  }

  void build(Value fillValue);

private:
  SmallVector<Value> at(Value row, Value col) { return o.at(batchIdx, row, col); }
  MemRefType sharedType(ArrayRef<int64_t> shape, Type elem) {
    return MemRefType::get(shape, elem, MemRefLayoutAttrInterface(), workgroup);
  }
  /// A view of the block's shared memory `bytes` past the aligned start.
  Value sharedView(MemRefType type, Value bytes) {
    return memref::ViewOp::create(b, loc, type, sharedBase, add(alignShift, bytes), ValueRange{});
  }

  /// Host side: the tensor map of `operand` (batches stacked into rows)
  /// whose boxes are `rows` x boxCols elements, 128-byte swizzled.
  Value createTensorMap(Value operand, int64_t rows);
  /// Issues the copies of k slice `slice` into buffer `slot`, completing on
  /// that slot's mbarrier, from the threads where `pred` holds.
  void issueSlice(Value slice, Value slot, Value pred);

  const MatmulOperands &o;
  const GpuMatmulTiles &t;
  const MatmulEpilogue *epilogue;
  Attribute workgroup;
  Type inType;
  int64_t boxCols;
  // Shared memory: `stages` A buffers (block_m rows of a 128-byte slice),
  // then `stages` B buffers, each block_n / boxCols boxes of tile_k rows.
  int64_t aSlotBytes, boxBytes, bSlotBytes;
  Value mapA, mapB;
  // Inside the launch.
  Value batchIdx, rowBase, colBase, tid, sharedBase, alignShift, barriers;
  Value aRow0, bRow0;
};
} // namespace

Value WarpgroupMatmulBuilder::createTensorMap(Value operand, int64_t rows) {
  Value x = operand;
  if (o.batched)
    x = memref::CollapseShapeOp::create(b, loc, x,
                                        SmallVector<ReassociationIndices>{{0, 1}, {2}});
  auto type = cast<MemRefType>(x.getType());
  Value unranked = memref::CastOp::create(
      b, loc, UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace()), x);
  auto mapType = nvgpu::TensorMapDescriptorType::get(
      b.getContext(), sharedType({rows, boxCols}, inType), nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_NONE, nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  return nvgpu::TmaCreateDescriptorOp::create(b, loc, mapType, unranked,
                                              ValueRange{idx(rows), idx(boxCols)});
}

void WarpgroupMatmulBuilder::issueSlice(Value slice, Value slot, Value pred) {
  Value k0 = mul(slice, t.tileK);
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, barriers, idx(aSlotBytes + bSlotBytes), slot,
                                          pred);
  Value aDst = sharedView(sharedType({t.blockM, boxCols}, inType), mul(slot, aSlotBytes));
  // Coordinates run innermost first: (k, row) of A, (column, k row) of B.
  nvgpu::TmaAsyncLoadOp::create(b, loc, aDst, barriers, mapA, ValueRange{k0, aRow0}, slot,
                                Value(), pred);
  for (int64_t h = 0; h < t.blockN / boxCols; ++h) {
    Value bytes = add(add(mul(slot, bSlotBytes), idx(t.stages * aSlotBytes)), h * boxBytes);
    Value bDst = sharedView(sharedType({t.tileK, boxCols}, inType), bytes);
    nvgpu::TmaAsyncLoadOp::create(b, loc, bDst, barriers, mapB,
                                  ValueRange{add(colBase, h * boxCols), add(bRow0, k0)}, slot,
                                  Value(), pred);
  }
}

void WarpgroupMatmulBuilder::build(Value fillValue) {
  MLIRContext *ctx = b.getContext();
  OpBuilder::InsertionGuard guard(b);
  mapA = createTensorMap(o.a, t.blockM);
  mapB = createTensorMap(o.b, t.tileK);

  int64_t warpgroups = t.blockM / t.warpM, threads = 128 * warpgroups;
  int64_t sharedBytes = t.getWarpgroupSharedBytes(o.elemBytes);
  Value dynamicBytes = arith::ConstantIntOp::create(b, loc, b.getI32Type(), sharedBytes);
  auto launch = gpu::LaunchOp::create(b, loc, idx(o.n / t.blockN), idx(o.m / t.blockM),
                                      idx(o.batch), idx(threads), idx(1), idx(1), dynamicBytes,
                                      /*asyncTokenType=*/nullptr, ValueRange{}, TypeRange{});
  b.setInsertionPointToStart(&launch.getBody().front());
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  batchIdx = blockIds.z;
  rowBase = mul(blockIds.y, t.blockM);
  colBase = mul(blockIds.x, t.blockN);
  tid = launch.getThreadIds().x;
  Value warpgroup = divui(tid, 128);
  Value primary = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, idx(0));
  // Rows of the stacked 2-D tensor maps where this block's batch starts.
  aRow0 = o.batched ? add(mul(batchIdx, o.m), rowBase) : rowBase;
  bRow0 = o.batched ? mul(batchIdx, o.k) : idx(0);

  // The 128-byte swizzle repeats every 1024 bytes and the wgmma descriptors
  // assume tiles starting on such an atom: align the start at run time.
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), workgroup);
  sharedBase = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, sharedBase);
  alignShift = remui(arith::SubIOp::create(b, loc, idx(kWarpgroupSwizzleAtomBytes),
                                           remui(address, kWarpgroupSwizzleAtomBytes)),
                     kWarpgroupSwizzleAtomBytes);

  // One mbarrier per buffer: armed with the bytes of its slice by the first
  // thread, complete when the copies have landed.
  barriers = nvgpu::MBarrierCreateOp::create(
      b, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, t.stages));
  for (int64_t s = 0; s < t.stages; ++s)
    nvgpu::MBarrierInitOp::create(b, loc, barriers, idx(1), idx(s), primary);
  gpu::BarrierOp::create(b, loc);
  nvgpu::TmaPrefetchOp::create(b, loc, mapA, primary);
  nvgpu::TmaPrefetchOp::create(b, loc, mapB, primary);

  int64_t steps = o.k / t.tileK;
  int64_t ahead = t.stages == 1 ? 1 : std::min(t.stages - 1, steps);
  for (int64_t s = 0; s < ahead; ++s)
    issueSlice(idx(s), idx(s), primary);

  auto accVector = VectorType::get({t.warpM, t.blockN}, b.getF32Type());
  auto accType = nvgpu::WarpgroupAccumulatorType::get(ctx, accVector);
  Value acc = nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accType);
  Value even = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  Value flip = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  auto aDescType = nvgpu::WarpgroupMatrixDescriptorType::get(
      ctx, sharedType({t.warpM, t.tileK}, inType));
  auto bDescType = nvgpu::WarpgroupMatrixDescriptorType::get(
      ctx, sharedType({t.tileK, t.blockN}, inType));
  auto loop = scf::ForOp::create(
      b, loc, idx(0), idx(steps), idx(1), ValueRange{acc, even},
      [&](OpBuilder &, Location, Value step, ValueRange iter) {
        Value slot = remui(step, t.stages);
        Value phase = iter[1];
        nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, phase, idx(10000000), slot);
        // This warpgroup's rows of the A slice; all of the B slice (its
        // boxes side by side: the descriptor's leading offset steps over
        // them).
        Value aSlice = sharedView(sharedType({t.blockM, t.tileK}, inType), mul(slot, aSlotBytes));
        Value aRows = memref::SubViewOp::create(
            b, loc, aSlice,
            ArrayRef<OpFoldResult>{mul(warpgroup, t.warpM), b.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(t.warpM), b.getIndexAttr(t.tileK)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
        Value bSlice = sharedView(sharedType({t.tileK, t.blockN}, inType),
                                  add(mul(slot, bSlotBytes), idx(t.stages * aSlotBytes)));
        Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, aDescType, aRows, mapA);
        Value descB = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, bDescType, bSlice, mapB);
        // At most one group in flight: when this returns, step - 1's
        // products are done (with one buffer, this step's too).
        Value next = nvgpu::WarpgroupMmaOp::create(
            b, loc, accType, descA, descB, /*waitGroup=*/static_cast<uint64_t>(t.stages == 1 ? 0 : 1),
            /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(), iter[0]);
        // ... in every warpgroup once all pass here: step - 1's buffer
        // (this step's with one buffer) may be refilled.
        gpu::BarrierOp::create(b, loc);
        Value refill = add(step, ahead);
        Value inRange =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, refill, idx(steps));
        issueSlice(refill, remui(refill, t.stages),
                   arith::AndIOp::create(b, loc, primary, inRange));
        Value lastSlot =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot, idx(t.stages - 1));
        Value nextPhase = arith::SelectOp::create(
            b, loc, lastSlot, arith::XOrIOp::create(b, loc, phase, flip), phase);
        scf::YieldOp::create(b, loc, ValueRange{next, nextPhase});
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, static_cast<uint64_t>(0));
  // Every warpgroup is done reading the slices: the accumulators go
  // through the same shared memory (rows padded against bank conflicts).
  gpu::BarrierOp::create(b, loc);
  int64_t stagingRow = t.blockN + kWarpgroupStagingPad;
  Value staging = sharedView(sharedType({t.blockM, stagingRow}, b.getF32Type()), idx(0));
  // MLIR 22 lowers the store with rows from the block-wide thread id
  // (warp tid.x / 32 at rows 16 x warp): warpgroup w already lands 64 w rows
  // down, so its view starts only the rest of its w warp_m rows down.
  Value mine = memref::SubViewOp::create(
      b, loc, staging,
      ArrayRef<OpFoldResult>{mul(warpgroup, t.warpM - 64), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(t.warpM), b.getIndexAttr(t.blockN)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, loop.getResult(0), mine);
  gpu::BarrierOp::create(b, loc);

  // C: consecutive threads store consecutive 4-column vectors of a row.
  auto vecType = VectorType::get({4}, b.getF32Type());
  int64_t perRow = t.blockN / 4;
  int64_t cAlign = commonAlignment(16, [&] {
    SmallVector<int64_t> m = layoutMultiples(o.cType, 4);
    m.push_back(t.blockN * 4);
    return m;
  }());
  bool zeroFill = fillValue && matchPattern(fillValue, m_AnyZeroFloat());
  for (int64_t i = 0; i < t.blockM * perRow / threads; ++i) {
    Value l = add(tid, i * threads);
    Value r = divui(l, perRow), c = mul(remui(l, perRow), 4);
    Value v = vector::LoadOp::create(b, loc, vecType, staging, ValueRange{r, c}, false,
                                     llvm::MaybeAlign(16));
    Value row = add(rowBase, r), col = add(colBase, c);
    if (fillValue && !zeroFill)
      v = arith::AddFOp::create(b, loc, v,
                                vector::BroadcastOp::create(b, loc, vecType, fillValue));
    else if (!fillValue)
      v = arith::AddFOp::create(b, loc, v,
                                vector::LoadOp::create(b, loc, vecType, o.c, at(row, col), false,
                                                       llvm::MaybeAlign(cAlign)));
    if (epilogue)
      epilogue->emitStore(b, loc, v, row, col);
    else
      vector::StoreOp::create(b, loc, v, o.c, at(row, col), false, llvm::MaybeAlign(cAlign));
  }
  gpu::TerminatorOp::create(b, loc);
}

void mlir::dltune::buildWarpgroupMatmul(OpBuilder &b, Location loc, const MatmulOperands &o,
                                        const GpuMatmulTiles &t,
                                        const MatmulEpilogue *epilogue, Value fillValue) {
  WarpgroupMatmulBuilder(b, loc, o, t, epilogue).build(fillValue);
}
