//===- GpuWarpgroupMatmul.cpp - Hopper warpgroup-MMA matmul kernels -------===//

#include "GpuWarpgroupMatmul.h"

#include "GpuMatmulEpilogue.h"
#include "GpuMemRefLayout.h"

#include "dltune/Transforms/ConstantData.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include <cstring>

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

/// Why the Tensor Memory Accelerator cannot read `type` (batches stacked
/// into the rows of one 2-D tensor map); empty when it can.
static std::string whyNotTensorMapReadable(MemRefType type, int64_t elemBytes, bool batched) {
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout = getStaticLayout(type);
  if (!layout || layout->first.back() != 1)
    return "with wgmma, A and B need static strides, contiguous rows";
  if (llvm::any_of(layoutMultiples(type, elemBytes), [](int64_t m) { return m % 16; }))
    return "with wgmma, A and B rows and starts must be 16-byte aligned (TMA)";
  if (batched && layout->first[0] != type.getDimSize(1) * layout->first[1])
    return "with wgmma, a batch of A or B must follow the previous one (one tensor map)";
  return "";
}

/// The type of B viewed k-major ([batch,] N, K: B transposed), where B is
/// contiguous along k and the TMA can read that view; nullopt where the
/// TF32 kernel copies B transposed instead.
static std::optional<MemRefType> getKMajorViewTypeOfB(const MatmulOperands &o) {
  std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout = getStaticLayout(o.bType);
  if (!layout)
    return std::nullopt;
  auto type = MemRefType::get(
      swapLastTwo(o.bType.getShape()), o.bType.getElementType(),
      StridedLayoutAttr::get(o.bType.getContext(), layout->second, swapLastTwo(layout->first)),
      o.bType.getMemorySpace());
  if (!whyNotTensorMapReadable(type, o.elemBytes, o.batched).empty())
    return std::nullopt;
  return type;
}

std::string mlir::dltune::whyNotWarpgroupMatmul(const MatmulOperands &o,
                                                const GpuMatmulTiles &t) {
  Type in = o.aType.getElementType();
  bool tf32 = t.readsBKMajor(in);
  if (!in.isF16() && !in.isBF16() && !tf32)
    return "warpgroup MMA takes f16, bf16 or f32 (as TF32) inputs";
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
  // nvgpu.warpgroup.mma.store (f16 and bf16; the TF32 kernel stores its
  // own fragments) puts a warpgroup's second 64 rows block_n / 2 rows below
  // its first (the register count of one m64 fragment), which is 64 only
  // for block_n 128.
  if (!tf32 && t.warpM == 128 && t.blockN != 128)
    return "with wgmma, warp_m 128 needs block_n 128 (MLIR 22's accumulator store)";
  if (t.pad != 0 || t.interleave != 0)
    return "with wgmma, pad and interleave must be 0";
  if (o.m % t.blockM || o.n % t.blockN || o.k % t.tileK)
    return "block_m, block_n and tile_k must divide M, N and K";
  if (t.getWarpgroupSharedBytes(o.elemBytes) > kMaxSharedBytesOptIn)
    return "the shared-memory tiles exceed the 227 KiB a block may have";
  // The Tensor Memory Accelerator reads A and B through 2-D tensor maps
  // (batches stacked): 16-byte aligned start and row strides, unit stride
  // along the row. TF32 reads B k-major: a view of B where B is contiguous
  // along k, else a transposed copy, which the TMA can always read.
  if (std::string why = whyNotTensorMapReadable(o.aType, o.elemBytes, o.batched); !why.empty())
    return why;
  if (!tf32)
    return whyNotTensorMapReadable(o.bType, o.elemBytes, o.batched);
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
    kMajorB = t.readsBKMajor(inType);
    boxCols = kWarpgroupSliceBytes / o.elemBytes;
    aSlotBytes = t.blockM * kWarpgroupSliceBytes;
    // f16, bf16: block_n / boxCols boxes of tile_k rows; TF32: one box of
    // block_n rows of B transposed (both are tile_k x block_n elements).
    boxBytes = (kMajorB ? t.blockN : t.tileK) * kWarpgroupSliceBytes;
    bSlotBytes = kMajorB ? boxBytes : (t.blockN / boxCols) * boxBytes;
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

  /// Host side, TF32: B k-major ([batch,] N, K), a view of B where B is
  /// contiguous along k, else a constant transposed at compile time where B
  /// is one, else a transposed copy (a linalg.transpose into a fresh
  /// buffer, which the GPU lowering makes a tiled kernel).
  Value getKMajorB();
  /// Where B is, through reshapes, the whole of a constant global with
  /// known data: a global holding it transposed (one per source global),
  /// uploaded once with the model's other constants. Null otherwise.
  Value getConstantKMajorB();
  /// f16, bf16: this warpgroup's product of the slice in `slot` added to
  /// `acc` by nvgpu.warpgroup.mma.
  Value multiplySlice(Value slot, Value acc);
  /// TF32 (which nvgpu.warpgroup.mma cannot lower in MLIR 22: it takes f32
  /// as 2-byte elements): the same as NVVM wgmma ops on matrix descriptors
  /// built here, one m64 fragment (an LLVM struct) per 64 rows.
  SmallVector<Value> multiplySliceTf32(Value slot, ValueRange fragments);
  /// A shared-memory matrix descriptor of the 128-byte swizzled, k-major
  /// tile at `byteOffset` past the aligned start whose TMA box has `rows`
  /// rows: start address, leading byte offset (unused by k-major swizzled
  /// tiles; the value the nvgpu lowering gives), stride byte offset (8 rows
  /// of 128 bytes), 128-byte swizzle.
  Value getMatrixDescriptor(Value byteOffset, int64_t rows);
  /// Stores the TF32 kernel's fragments into `staging` (this warpgroup's
  /// warp_m rows): element e of a fragment is at row 16 warp + lane / 4 +
  /// 8 ((e % 4) / 2), column 8 (e / 4) + 2 (lane % 4) + e % 2.
  void storeFragments(ValueRange fragments, Value staging);

  const MatmulOperands &o;
  const GpuMatmulTiles &t;
  const MatmulEpilogue *epilogue;
  Attribute workgroup;
  Type inType;
  bool kMajorB; // TF32: B k-major, as wgmma reads TF32 only
  int64_t boxCols;
  // Shared memory: `stages` A buffers (block_m rows of a 128-byte slice),
  // then `stages` B buffers, each block_n / boxCols boxes of tile_k rows.
  int64_t aSlotBytes, boxBytes, bSlotBytes;
  Value mapA, mapB;
  // Inside the launch.
  Value batchIdx, rowBase, colBase, tid, sharedBase, alignShift, barriers;
  Value aRow0, bRow0;
  Value warpgroup, sharedAddress; // the dynamic shared memory's address
  LLVM::LLVMStructType fragmentType; // TF32: a thread's m64 fragment
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
  if (kMajorB) {
    // Coordinates (k, row of B transposed).
    Value bDst = sharedView(sharedType({t.blockN, boxCols}, inType),
                            add(mul(slot, bSlotBytes), idx(t.stages * aSlotBytes)));
    nvgpu::TmaAsyncLoadOp::create(b, loc, bDst, barriers, mapB, ValueRange{k0, add(bRow0, colBase)},
                                  slot, Value(), pred);
    return;
  }
  for (int64_t h = 0; h < t.blockN / boxCols; ++h) {
    Value bytes = add(add(mul(slot, bSlotBytes), idx(t.stages * aSlotBytes)), h * boxBytes);
    Value bDst = sharedView(sharedType({t.tileK, boxCols}, inType), bytes);
    nvgpu::TmaAsyncLoadOp::create(b, loc, bDst, barriers, mapB,
                                  ValueRange{add(colBase, h * boxCols), add(bRow0, k0)}, slot,
                                  Value(), pred);
  }
}

Value WarpgroupMatmulBuilder::getConstantKMajorB() {
  Value source = o.b;
  while (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(source.getDefiningOp()))
    source = source.getDefiningOp()->getOperand(0);
  auto get = source.getDefiningOp<memref::GetGlobalOp>();
  if (!get || !o.bType.getLayout().isIdentity() || !get.getType().getLayout().isIdentity())
    return {};
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  std::optional<Attribute> init = global ? global.getInitialValue() : std::nullopt;
  if (!global || !global.getConstant() || !init)
    return {};
  SmallVector<int64_t> shape = swapLastTwo(o.bType.getShape());
  auto type = MemRefType::get(shape, inType);
  // One transposed global per source global, named after it: an earlier
  // matmul reading the same B made it already. (A name taken otherwise:
  // the kernel copies B instead.)
  auto module = global->getParentOfType<ModuleOp>();
  std::string name = (global.getSymName() + "_kmajor").str();
  if (Operation *taken = module.lookupSymbol(name)) {
    auto existing = dyn_cast<memref::GlobalOp>(taken);
    if (!existing || existing.getType() != type || !existing.getConstant())
      return {};
    return memref::GetGlobalOp::create(b, loc, type, name);
  }
  auto tensorType = RankedTensorType::get(shape, inType);
  Attribute value;
  if (auto dense = dyn_cast<DenseElementsAttr>(*init); dense && dense.isSplat()) {
    value = DenseElementsAttr::get(tensorType, dense.getSplatValue<Attribute>());
  } else {
    std::optional<ArrayRef<char>> bytes = getDenseConstantBytes(*init);
    int64_t elems = o.batch * o.k * o.n;
    if (!bytes || static_cast<int64_t>(bytes->size()) != elems * o.elemBytes)
      return {};
    // Row-major [batch][k][n] to [batch][n][k].
    SmallVector<char> transposed(bytes->size());
    for (int64_t batch = 0; batch < o.batch; ++batch)
      for (int64_t k = 0; k < o.k; ++k)
        for (int64_t n = 0; n < o.n; ++n)
          std::memcpy(&transposed[((batch * o.n + n) * o.k + k) * o.elemBytes],
                      &(*bytes)[((batch * o.k + k) * o.n + n) * o.elemBytes], o.elemBytes);
    value = getDenseResourceAttr(tensorType, "dltune_kmajor", transposed);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(global);
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type, value,
                             /*constant=*/true, b.getI64IntegerAttr(64));
  }
  return memref::GetGlobalOp::create(b, loc, type, name);
}

Value WarpgroupMatmulBuilder::getKMajorB() {
  if (getKMajorViewTypeOfB(o))
    return memref::TransposeOp::create(
        b, loc, o.b, AffineMapAttr::get(getSwapLastTwoMap(b.getContext(), o.bType.getRank())));
  if (Value constant = getConstantKMajorB())
    return constant;
  // Aligned as a device allocation is (the TMA needs 16 bytes).
  Value copy = memref::AllocOp::create(
      b, loc, MemRefType::get(swapLastTwo(o.bType.getShape()), inType), b.getI64IntegerAttr(256));
  linalg::TransposeOp::create(
      b, loc, o.b, copy,
      swapLastTwo(llvm::to_vector(llvm::seq<int64_t>(0, o.bType.getRank()))));
  return copy;
}

Value WarpgroupMatmulBuilder::multiplySlice(Value slot, Value acc) {
  MLIRContext *ctx = b.getContext();
  // This warpgroup's rows of the A slice; all of the B slice (its boxes
  // side by side: the descriptor's leading offset steps over them).
  Value aSlice = sharedView(sharedType({t.blockM, t.tileK}, inType), mul(slot, aSlotBytes));
  Value aRows = memref::SubViewOp::create(
      b, loc, aSlice, ArrayRef<OpFoldResult>{mul(warpgroup, t.warpM), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(t.warpM), b.getIndexAttr(t.tileK)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  Value bSlice = sharedView(sharedType({t.tileK, t.blockN}, inType),
                            add(mul(slot, bSlotBytes), idx(t.stages * aSlotBytes)));
  auto aDescType =
      nvgpu::WarpgroupMatrixDescriptorType::get(ctx, sharedType({t.warpM, t.tileK}, inType));
  auto bDescType =
      nvgpu::WarpgroupMatrixDescriptorType::get(ctx, sharedType({t.tileK, t.blockN}, inType));
  Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, aDescType, aRows, mapA);
  Value descB = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, bDescType, bSlice, mapB);
  // At most one group in flight: when this returns, step - 1's products
  // are done (with one buffer, this step's too).
  return nvgpu::WarpgroupMmaOp::create(
      b, loc, acc.getType(), descA, descB,
      /*waitGroup=*/static_cast<uint64_t>(t.stages == 1 ? 0 : 1),
      /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(), acc);
}

Value WarpgroupMatmulBuilder::getMatrixDescriptor(Value byteOffset, int64_t rows) {
  Type i64 = b.getI64Type();
  auto c64 = [&](uint64_t v) { return arith::ConstantIntOp::create(b, loc, i64, v); };
  Value address =
      arith::IndexCastUIOp::create(b, loc, i64, add(sharedAddress, add(alignShift, byteOffset)));
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, address, c64(4)), c64(0x3FFF));
  uint64_t leading = (rows * kWarpgroupSliceBytes) >> 4;
  uint64_t stride = (8 * kWarpgroupSliceBytes) >> 4;
  uint64_t fields = (leading << 16) | (stride << 32) | (uint64_t(1) << 62); // 1: 128-byte swizzle
  return arith::OrIOp::create(b, loc, start, c64(fields));
}

SmallVector<Value> WarpgroupMatmulBuilder::multiplySliceTf32(Value slot, ValueRange fragments) {
  MLIRContext *ctx = b.getContext();
  constexpr int64_t kTf32K = 8;
  Value descA = getMatrixDescriptor(
      add(mul(slot, aSlotBytes), mul(warpgroup, t.warpM * kWarpgroupSliceBytes)), t.blockM);
  Value descB = getMatrixDescriptor(add(mul(slot, bSlotBytes), idx(t.stages * aSlotBytes)),
                                    t.blockN);
  // Steps along a 128-byte row are 32 bytes (8 TF32); fragment i reads A
  // 64 rows further down. Descriptor addresses count 16 bytes.
  auto advance = [&](Value desc, int64_t bytes) -> Value {
    if (!bytes)
      return desc;
    return arith::AddIOp::create(
        b, loc, desc, arith::ConstantIntOp::create(b, loc, b.getI64Type(), bytes >> 4));
  };
  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, t.blockN, kTf32K);
  auto tf32 = NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::tf32);
  auto f32 = NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32);
  auto scaleOut = NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one);
  auto scaleIn = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);
  // Both k-major: TF32 has no transposed form.
  auto row = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row);
  auto col = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  SmallVector<Value> next;
  for (auto [i, fragment] : llvm::enumerate(fragments)) {
    Value acc = fragment;
    for (int64_t kk = 0; kk < t.tileK / kTf32K; ++kk) {
      int64_t kBytes = kk * kTf32K * o.elemBytes;
      acc = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, fragmentType, acc,
          advance(descA, static_cast<int64_t>(i) * 64 * kWarpgroupSliceBytes + kBytes),
          advance(descB, kBytes), shape, tf32, tf32, f32, scaleOut, scaleIn, scaleIn, row, col,
          NVVM::MMAIntOverflowAttr());
    }
    next.push_back(acc);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, static_cast<uint64_t>(t.stages == 1 ? 0 : 1));
  return next;
}

void WarpgroupMatmulBuilder::storeFragments(ValueRange fragments, Value staging) {
  Value lane = remui(tid, 32);
  Value warp = remui(divui(tid, 32), 4);
  Value row0 = add(mul(warp, 16), divui(lane, 4));
  Value col0 = mul(remui(lane, 4), 2);
  auto pairType = VectorType::get({2}, b.getF32Type());
  for (auto [i, fragment] : llvm::enumerate(fragments)) {
    for (int64_t e = 0; e < t.blockN / 2; e += 2) {
      Value r = add(row0, static_cast<int64_t>(i) * 64 + 8 * ((e % 4) / 2));
      Value c = add(col0, 8 * (e / 4));
      Value x = LLVM::ExtractValueOp::create(b, loc, fragment, ArrayRef<int64_t>{e});
      Value y = LLVM::ExtractValueOp::create(b, loc, fragment, ArrayRef<int64_t>{e + 1});
      Value pair = vector::FromElementsOp::create(b, loc, pairType, ValueRange{x, y});
      vector::StoreOp::create(b, loc, pair, staging, ValueRange{r, c}, false, llvm::MaybeAlign(8));
    }
  }
}

void WarpgroupMatmulBuilder::build(Value fillValue) {
  MLIRContext *ctx = b.getContext();
  OpBuilder::InsertionGuard guard(b);
  mapA = createTensorMap(o.a, t.blockM);
  mapB = kMajorB ? createTensorMap(getKMajorB(), t.blockN) : createTensorMap(o.b, t.tileK);

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
  warpgroup = divui(tid, 128);
  Value primary = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, idx(0));
  // Rows of the stacked 2-D tensor maps where this block's batch starts.
  aRow0 = o.batched ? add(mul(batchIdx, o.m), rowBase) : rowBase;
  bRow0 = o.batched ? mul(batchIdx, kMajorB ? o.n : o.k) : idx(0);

  // The 128-byte swizzle repeats every 1024 bytes and the wgmma descriptors
  // assume tiles starting on such an atom: align the start at run time.
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), workgroup);
  sharedBase = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  sharedAddress = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, sharedBase);
  alignShift = remui(arith::SubIOp::create(b, loc, idx(kWarpgroupSwizzleAtomBytes),
                                           remui(sharedAddress, kWarpgroupSwizzleAtomBytes)),
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

  // The accumulators: one nvgpu value (f16, bf16), or an LLVM struct a
  // 64-row fragment (TF32); then the mbarriers' phase.
  SmallVector<Value> inits;
  if (kMajorB) {
    fragmentType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(t.blockN / 2, b.getF32Type()));
    for (int64_t i = 0; i < t.warpM / 64; ++i)
      inits.push_back(LLVM::ZeroOp::create(b, loc, fragmentType));
  } else {
    auto accType = nvgpu::WarpgroupAccumulatorType::get(
        ctx, VectorType::get({t.warpM, t.blockN}, b.getF32Type()));
    inits.push_back(nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accType));
  }
  size_t accs = inits.size();
  Value even = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  Value flip = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  inits.push_back(even);
  auto loop = scf::ForOp::create(
      b, loc, idx(0), idx(steps), idx(1), inits,
      [&](OpBuilder &, Location, Value step, ValueRange iter) {
        Value slot = remui(step, t.stages);
        Value phase = iter[accs];
        nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, phase, idx(10000000), slot);
        SmallVector<Value> next =
            kMajorB ? multiplySliceTf32(slot, iter.take_front(accs))
                    : SmallVector<Value>{multiplySlice(slot, iter[0])};
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
        next.push_back(arith::SelectOp::create(
            b, loc, lastSlot, arith::XOrIOp::create(b, loc, phase, flip), phase));
        scf::YieldOp::create(b, loc, next);
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, static_cast<uint64_t>(0));
  // Every warpgroup is done reading the slices: the accumulators go
  // through the same shared memory (rows padded against bank conflicts).
  gpu::BarrierOp::create(b, loc);
  int64_t stagingRow = t.blockN + kWarpgroupStagingPad;
  Value staging = sharedView(sharedType({t.blockM, stagingRow}, b.getF32Type()), idx(0));
  // This warpgroup's warp_m rows. MLIR 22 lowers nvgpu's store with rows
  // from the block-wide thread id (warp tid.x / 32 at rows 16 x warp):
  // warpgroup w already lands 64 w rows down, so its view starts only the
  // rest of its w warp_m rows down. The TF32 store counts rows within the
  // warpgroup.
  Value mine = memref::SubViewOp::create(
      b, loc, staging,
      ArrayRef<OpFoldResult>{mul(warpgroup, kMajorB ? t.warpM : t.warpM - 64), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(t.warpM), b.getIndexAttr(t.blockN)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  if (kMajorB)
    storeFragments(loop.getResults().take_front(accs), mine);
  else
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
