//===- GpuMatmulKernel.cpp - Register-tiled SIMT matmul kernels -----------===//

#include "dltune/Transforms/GpuMatmulKernel.h"

#include "GpuGatheredOperand.h"
#include "GpuMatmulEpilogue.h"
#include "GpuMatmulOperands.h"
#include "GpuSplitK.h"
#include "GpuWarpgroupMatmul.h"
#include "GpuMemRefLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::dltune;

//===----------------------------------------------------------------------===//
// Tile sizes
//===----------------------------------------------------------------------===//

static constexpr std::pair<const char *, int64_t GpuMatmulTiles::*> kTileFields[] = {
    {"block_m", &GpuMatmulTiles::blockM},   {"block_n", &GpuMatmulTiles::blockN},
    {"thread_m", &GpuMatmulTiles::threadM}, {"thread_n", &GpuMatmulTiles::threadN},
    {"tile_k", &GpuMatmulTiles::tileK},     {"vector", &GpuMatmulTiles::vector},
    {"pad", &GpuMatmulTiles::pad},          {"stages", &GpuMatmulTiles::stages},
    {"interleave", &GpuMatmulTiles::interleave}, {"mma", &GpuMatmulTiles::mma},
    {"warp_m", &GpuMatmulTiles::warpM},     {"warp_n", &GpuMatmulTiles::warpN},
    {"async_copy", &GpuMatmulTiles::asyncCopy}, {"wgmma", &GpuMatmulTiles::wgmma},
    {"split_k", &GpuMatmulTiles::splitK}};

/// Fields an attribute may leave out (they keep the SIMT defaults).
static bool isOptionalTileField(llvm::StringRef name) {
  return name == "mma" || name == "warp_m" || name == "warp_n" || name == "async_copy" ||
         name == "wgmma" || name == "split_k";
}

GpuMatmulTiles GpuMatmulTiles::fromValues(const std::map<std::string, int64_t> &values) {
  GpuMatmulTiles t;
  for (auto [name, field] : kTileFields)
    if (auto it = values.find(name); it != values.end())
      t.*field = it->second;
  return t;
}

DictionaryAttr GpuMatmulTiles::toAttr(MLIRContext *ctx) const {
  Builder b(ctx);
  SmallVector<NamedAttribute> entries;
  for (auto [name, field] : kTileFields) {
    // A SIMT kernel's attribute leaves out the tensor-core fields, an
    // mma.sync kernel's the warpgroup one, an unsplit kernel's split_k.
    llvm::StringRef n(name);
    bool written = !isOptionalTileField(n) ||
                   (n == "split_k" ? splitK != 1 : n == "wgmma" ? mma && wgmma : mma != 0);
    if (written)
      entries.push_back(b.getNamedAttr(n, b.getI64IntegerAttr(this->*field)));
  }
  return b.getDictionaryAttr(entries);
}

std::optional<GpuMatmulTiles> GpuMatmulTiles::fromAttr(DictionaryAttr attr) {
  if (!attr)
    return std::nullopt;
  GpuMatmulTiles t;
  for (auto [name, field] : kTileFields) {
    Attribute entry = attr.get(name);
    if (!entry && isOptionalTileField(name))
      continue;
    auto value = dyn_cast_or_null<IntegerAttr>(entry);
    if (!value)
      return std::nullopt;
    t.*field = value.getInt();
  }
  return t;
}

std::pair<SmallVector<int64_t, 3>, SmallVector<int64_t, 3>>
GpuMatmulTiles::getSharedTileShapes(int64_t elemBytes) const {
  if (mma)
    return {{stages, blockM, tileK + getMmaPadA(elemBytes)}, {stages, tileK, blockN + kMmaPadB}};
  return {{stages, tileK, blockM + pad}, {stages, tileK, blockN + pad}};
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

std::string mlir::dltune::whyNotGpuMatmulOp(linalg::LinalgOp op) {
  if (auto mm = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
    if (mm.hasUserDefinedMaps())
      return "a matmul with its own indexing maps (a transposed operand)";
  } else if (auto bmm = dyn_cast<linalg::BatchMatmulOp>(op.getOperation())) {
    if (bmm.hasUserDefinedMaps())
      return "a batch matmul with its own indexing maps (a transposed operand)";
  } else {
    return "only linalg.matmul and linalg.batch_matmul have this kernel";
  }
  auto in = dyn_cast<FloatType>(getElementTypeOrSelf(op.getDpsInputs()[0].getType()));
  auto out = dyn_cast<FloatType>(getElementTypeOrSelf(op.getDpsInits()[0].getType()));
  if (!in || !out || getElementTypeOrSelf(op.getDpsInputs()[1].getType()) != in ||
      in.getWidth() > out.getWidth())
    return "A and B must have one float type no wider than C's float type";
  return "";
}

std::string mlir::dltune::whyNotGpuMatmulMma(linalg::LinalgOp op) {
  Type in = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  if (!getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32())
    return "tensor-core accumulators are f32: C must be f32";
  if (in.isF16())
    return "";
  // MLIR 22's nvgpu-to-nvvm conversion cannot type a bf16 mma.sync ("failed
  // to deduce operand PTX types").
  if (!in.isF32())
    return "tensor cores here take f32 (as TF32) or f16 inputs";
  if (isTf32Allowed(op))
    return "";
  return std::string("f32 inputs use tensor cores only as TF32, which needs '") +
         DLTuneDialect::kAllowTf32AttrName.str() + "' on the op or an ancestor";
}

/// The tensor `v` is, looking through reshapes, and every tensor that is
/// `v` reshaped.
static void collectReshapesOf(Value v, SmallVectorImpl<Value> &aliases) {
  aliases.push_back(v);
  for (Operation *user : v.getUsers())
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user))
      collectReshapesOf(user->getResult(0), aliases);
}

/// `v` with the reshapes that produced it looked through.
static Value stripReshapes(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// Whether `op` only copies its one input (identity maps, a body that
/// yields the input): the canonicalizer before bufferization erases it, and
/// its readers then read the input.
static bool isIdentityCopy(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op->getNumResults() != 1 ||
      !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block *body = op.getBlock();
  return body && body->getNumArguments() > 0 &&
         body->getTerminator()->getNumOperands() == 1 &&
         body->getTerminator()->getOperand(0) == body->getArgument(0);
}

/// Whether `v` bufferizes to a whole buffer of an identity layout: a
/// function's argument, a constant, a new tensor, or a linalg op's result
/// written into such a tensor (a result written into a slice is a view).
static bool isWholeBuffer(Value v) {
  v = stripReshapes(v);
  Operation *def = v.getDefiningOp();
  if (!def) {
    Block *owner = cast<BlockArgument>(v).getOwner();
    return owner->isEntryBlock() && isa<FunctionOpInterface>(owner->getParentOp());
  }
  if (isa<arith::ConstantOp, tensor::EmptyOp>(def))
    return true;
  auto producer = dyn_cast<linalg::LinalgOp>(def);
  if (!producer || isa<linalg::TransposeOp>(def))
    return false;
  if (isIdentityCopy(producer))
    return isWholeBuffer(producer.getDpsInputs()[0]);
  return isWholeBuffer(producer.getDpsInits()[cast<OpResult>(v).getResultNumber()]);
}

static bool isSurelyTensorMapReadable(Value operand) {
  if (!isWholeBuffer(operand))
    return false;
  SmallVector<Value> aliases;
  collectReshapesOf(stripReshapes(operand), aliases);
  return llvm::none_of(aliases, [](Value v) {
    return llvm::any_of(v.getUsers(), [](Operation *u) { return isa<linalg::TransposeOp>(u); });
  });
}

bool mlir::dltune::areGpuMatmulOperandsSurelyTensorMapReadable(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return false;
  // TF32 reads B k-major through a view, a constant transposed at compile
  // time or a copy, whichever B is.
  bool tf32 = getElementTypeOrSelf(op.getDpsInputs()[0].getType()).isF32();
  return isSurelyTensorMapReadable(op.getDpsInputs()[0]) &&
         (tf32 || isSurelyTensorMapReadable(op.getDpsInputs()[1]));
}

bool mlir::dltune::isTf32Allowed(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (p->hasAttr(DLTuneDialect::kAllowTf32AttrName))
      return true;
  return false;
}

bool mlir::dltune::isTf32AllowedAnywhere(Operation *root) {
  if (isTf32Allowed(root))
    return true;
  WalkResult r = root->walk([](Operation *op) {
    return op->hasAttr(DLTuneDialect::kAllowTf32AttrName) ? WalkResult::interrupt()
                                                          : WalkResult::advance();
  });
  return r.wasInterrupted();
}

int64_t mlir::dltune::getMmaK(Type inputType) { return inputType.isF32() ? 8 : 16; }

static FailureOr<MatmulOperands> getOperands(linalg::LinalgOp op, std::string &why) {
  why = whyNotGpuMatmulOp(op);
  if (!why.empty())
    return failure();
  if (!op.hasPureBufferSemantics()) {
    why = "the kernel is built after bufferization (operands must be memrefs)";
    return failure();
  }
  MatmulOperands o;
  o.batched = isa<linalg::BatchMatmulOp>(op.getOperation());
  o.a = op.getDpsInputs()[0];
  o.b = op.getDpsInputs()[1];
  o.c = op.getDpsInits()[0];
  o.aType = cast<MemRefType>(o.a.getType());
  o.bType = cast<MemRefType>(o.b.getType());
  o.cType = cast<MemRefType>(o.c.getType());
  for (MemRefType t : {o.aType, o.bType, o.cType})
    if (!t.hasStaticShape()) {
      why = "operand shapes must be static";
      return failure();
    }
  int off = o.batched ? 1 : 0;
  if (o.batched)
    o.batch = o.cType.getDimSize(0);
  o.m = o.cType.getDimSize(off);
  o.n = o.cType.getDimSize(off + 1);
  o.k = o.aType.getDimSize(off + 1);
  o.elemBytes = o.aType.getElementTypeBitWidth() / 8;
  if (std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout =
          getStaticLayout(o.bType))
    o.bTransposed = layout->first.back() != 1 && layout->first[off] == 1;
  return o;
}

/// Whether cp.async may copy A and B: it needs its source aligned to the
/// copy size, which a view's offset or outer strides may break (vector
/// loads would just split). Where not, the kernel stages through registers
/// instead, so that a configuration (the default among them) never fails on
/// a view.
static bool canCopyAsync(const MatmulOperands &o, const GpuMatmulTiles &t) {
  return llvm::all_of(SmallVector<MemRefType>{o.aType, o.bType}, [&](MemRefType type) {
    return getVectorAlignment(type, t.vector) >= t.vector * o.elemBytes;
  });
}

/// Why the kernel cannot take the operands `o` with tiles `t`; empty when
/// it can.
static std::string whyNotTiles(const MatmulOperands &o, const GpuMatmulTiles &t) {
  for (auto [index, type] : llvm::enumerate(SmallVector<MemRefType>{o.aType, o.bType, o.cType})) {
    std::optional<std::pair<SmallVector<int64_t>, int64_t>> layout = getStaticLayout(type);
    if (layout && layout->first.back() != 1 && !(index == 1 && o.bTransposed))
      return "operands must be contiguous in their last dimension (B: or along k)";
    if (!layout && !type.getLayout().isIdentity())
      return "operands must have static strides";
  }
  // The TF32 warpgroup kernel reads B k-major anyway.
  if (o.bTransposed && ((t.mma && !t.readsBKMajor(o.aType.getElementType())) || t.splitK != 1))
    return "a B contiguous along k (a transposed view) needs the SIMT kernel (mma = 0) or "
           "TF32 warpgroup MMA, without split_k";
  auto positive = [](int64_t v) { return v > 0; };
  if (!positive(t.blockM) || !positive(t.blockN) || !positive(t.threadM) ||
      !positive(t.threadN) || !positive(t.tileK) || !positive(t.vector) || t.pad < 0 ||
      t.stages < 1 || t.stages > 4 || (t.interleave != 0 && t.interleave != 1))
    return "tile sizes must be positive, pad non-negative, stages 1 to 4, interleave 0 or 1";
  if (t.mma != 0 && t.mma != 1)
    return "mma must be 0 or 1";
  if (t.asyncCopy != 0 && t.asyncCopy != 1)
    return "async_copy must be 0 or 1";
  if (t.wgmma != 0 && t.wgmma != 1)
    return "wgmma must be 0 or 1";
  if (t.wgmma && !t.mma)
    return "wgmma needs mma";
  if (t.splitK < 1 || (t.splitK > 1 && (o.batched || t.wgmma || o.k % (t.splitK * t.tileK))))
    return "split_k must be 1, or split an unbatched K into slices of whole tile_k, without "
           "wgmma";
  if (t.wgmma)
    return whyNotWarpgroupMatmul(o, t);
  if (t.asyncCopy && !t.mma)
    return "async_copy needs mma (the SIMT kernel stores A transposed)";
  if (t.stages > 2 && !(t.mma && t.asyncCopy))
    return "more than 2 stages need mma and async_copy (cp.async keeps them in flight)";
  if (t.asyncCopy && (t.vector * o.elemBytes < 4 || t.vector * o.elemBytes > 16))
    return "async_copy copies 4, 8 or 16 bytes: vector x element bytes must be 4 to 16";
  // block_m need not divide M: the last row of blocks reads clamped rows
  // and stores only the rows inside.
  if (o.n % t.blockN || o.k % t.tileK)
    return "block_n and tile_k must divide N and K";
  if (t.mma) {
    if (t.warpM <= 0 || t.warpN <= 0 || t.warpM % 16 || t.warpN % 8)
      return "with mma, warp_m must be a multiple of 16 and warp_n of 8";
    if (t.blockM % t.warpM || t.blockN % t.warpN)
      return "warp_m and warp_n must divide block_m and block_n";
    if (t.tileK % getMmaK(o.aType.getElementType()))
      return "with mma, tile_k must be a multiple of the mma's k (8 for TF32, 16 for f16)";
    if (t.pad != 0 || t.interleave != 0)
      return "with mma, pad and interleave must be 0 (the fragment layout fixes the padding)";
  } else if (t.blockM % t.threadM || t.blockN % t.threadN) {
    return "thread_m and thread_n must divide block_m and block_n";
  }
  int64_t threads = t.threads();
  if (threads < 1 || threads > 1024)
    return "a block must have 1 to 1024 threads";
  if (t.tileK % t.vector || t.blockN % t.vector)
    return "vector must divide tile_k and block_n";
  if ((t.blockM * t.tileK) % (t.vector * threads) ||
      (t.blockN * t.tileK) % (t.vector * threads))
    return "each thread must load whole vectors of the A and B tiles";
  auto [aShape, bShape] = t.getSharedTileShapes(o.elemBytes);
  int64_t smem = (ShapedType::getNumElements(aShape) + ShapedType::getNumElements(bShape)) *
                 o.elemBytes;
  if (smem > kMaxSharedBytesOptIn)
    return "the shared-memory tiles exceed the 227 KiB a block may have";
  return "";
}

/// whyNotTiles, and whyNotGpuMatmulMma where the tiles ask for mma.sync or
/// for warpgroup MMA of f32 inputs (TF32 is an opt-in for both; the
/// warpgroup kernel checks its other element types itself).
static std::string whyNotKernel(linalg::LinalgOp op, const MatmulOperands &o,
                                const GpuMatmulTiles &t) {
  if (t.mma == 1 && (t.wgmma == 0 || o.aType.getElementType().isF32()))
    if (std::string why = whyNotGpuMatmulMma(op); !why.empty())
      return why;
  return whyNotTiles(o, t);
}

std::string mlir::dltune::whyNotGpuMatmulKernel(linalg::LinalgOp op,
                                                const GpuMatmulTiles &t) {
  std::string why;
  FailureOr<MatmulOperands> o = getOperands(op, why);
  return failed(o) ? why : whyNotKernel(op, *o, t);
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

namespace {
class KernelBuilder : KernelIndexArith {
public:
  KernelBuilder(OpBuilder &b, Location loc, const MatmulOperands &o, const GpuMatmulTiles &t,
                const MatmulEpilogue *epilogue, const GatheredOperand *gathered)
      : KernelIndexArith(b, loc), o(o), t(t), epilogue(epilogue), gathered(gathered) {
    inType = o.aType.getElementType();
    accType = o.cType.getElementType();
    inBytes = o.aType.getElementTypeBitWidth() / 8;
    accBytes = o.cType.getElementTypeBitWidth() / 8;
  }

  /// Emits the launch; `fillValue` (may be null) starts the accumulators.
  void build(Value fillValue);

private:
  /// Stores the accumulators `v` of C's row `row` from column `col`, or
  /// hands them to the epilogue. Rows past M (the last row of blocks where
  /// block_m does not divide M) are not stored.
  void storeC(Value v, Value row, Value col, int64_t align) {
    auto store = [&] {
      if (epilogue)
        return epilogue->emitStore(b, loc, v, row, col);
      vector::StoreOp::create(b, loc, v, o.c, at(row, col), false, llvm::MaybeAlign(align));
    };
    if (o.m % t.blockM == 0)
      return store();
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, idx(o.m));
    auto guard = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(guard.thenBlock());
    store();
  }
  /// Row `row` of the block's tile as an index into A or C for loads: rows
  /// past M read row M - 1 instead (their results are never stored), so that
  /// no load leaves the operand.
  Value loadRow(Value row) { return clampRow(add(rowBase, row)); }
  /// A row of C (or A) clamped to M - 1, for loads.
  Value clampRow(Value row) {
    if (o.m % t.blockM == 0)
      return row;
    return arith::MinUIOp::create(b, loc, row, idx(o.m - 1));
  }

  SmallVector<Value> at(Value row, Value col) { return o.at(batchIdx, row, col); }

  /// Creates the launch (grid: blocks of C, then the batch; a block of
  /// blockX x blockY threads with the two shared tiles of
  /// GpuMatmulTiles::getSharedTileShapes) and moves the insertion point into
  /// its body, where it sets the block's coordinates and thread ids.
  void beginLaunch(int64_t blockX, int64_t blockY);
  /// Where thread `tid`'s global loads land (aSlots, bSlots) and how
  /// aligned they are.
  void planLoads();
  /// The k loop over shared-memory stages; `store` and `multiply` stage and
  /// consume one tile_k slice.
  SmallVector<Value>
  buildKLoop(SmallVector<Value> acc,
             function_ref<void(Value, ArrayRef<Value>, ArrayRef<Value>)> store,
             function_ref<SmallVector<Value>(Value, ValueRange)> multiply);

  void loadTiles(Value k0, SmallVector<Value> &aRegs, SmallVector<Value> &bRegs);
  /// This thread's vectors of the A slice at `k0`, from global memory or
  /// gathered.
  SmallVector<Value> loadATile(Value k0);
  void storeTiles(Value stage, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs);
  SmallVector<Value> multiply(Value stage, ValueRange acc);

  // Tensor cores.
  void buildMma(Value fillValue);
  /// Issues this thread's cp.async copies of the slice at `k0` into
  /// `stage` as one group; returns its token.
  Value copyTilesAsync(Value k0, Value stage);
  /// The k loop with cp.async copies (stages as in buildKLoop).
  SmallVector<Value> buildAsyncKLoop(SmallVector<Value> acc);
  /// Three or four stages: stages - 1 slices in flight, one barrier a step.
  SmallVector<Value> buildMultiStageAsyncKLoop(SmallVector<Value> acc);
  void storeTilesMma(Value stage, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs);
  void storeATileMma(Value stage, ArrayRef<Value> aRegs);
  SmallVector<Value> multiplyMma(Value stage, ValueRange acc);

  const MatmulOperands &o;
  const GpuMatmulTiles &t;
  /// The element-wise op computed on the accumulators as they are stored
  /// (null: C is stored).
  const MatmulEpilogue *epilogue;
  /// The op whose body the loads of A evaluate (null: A is loaded). With
  /// cp.async, A is copied so too where each vector is one copy of the
  /// gathered buffer (`gatherByCopy`), else staged through registers.
  const GatheredOperand *gathered;
  bool gatherByCopy = false;
  bool stagesGatherInRegisters() const { return gathered && !gatherByCopy; }
  Type inType, accType;
  int64_t inBytes, accBytes;
  // Inside the launch.
  Value batchIdx, rowBase, colBase, tx, ty, tid, aShared, bShared;
  /// With o.bTransposed: B as a view with k innermost (batch, n, k).
  Value bT;
  // Where each of a thread's global loads lands in its tile: A (row, k) and
  // B (k, column), fixed across the k loop.
  SmallVector<std::pair<Value, Value>> aSlots, bSlots;
  int64_t aLoadAlign = 1, bLoadAlign = 1;
  // With mma: a lane's fragment coordinates (PTX ISA, mma.m16n8k8 and
  // m16n8k16 fragment layouts: group = lane / 4, quad = lane % 4), the
  // shared-memory rows of its A fragments (row g and g + 8 of each m16
  // tile of its warp) and columns of its B fragments (column g of each n8
  // tile).
  Value group, quad;
  Value ldRowA, ldColA, ldRowB, ldColB;
  SmallVector<std::pair<Value, Value>> mmaRows;
  SmallVector<Value> mmaCols;
};
} // namespace

SmallVector<Value> KernelBuilder::loadATile(Value k0) {
  auto vecType = VectorType::get({t.vector}, inType);
  SmallVector<Value> regs;
  for (auto [row, k] : aSlots) {
    // k0 and k are multiples of the vector (tile_k and the slots' columns).
    if (gathered)
      regs.push_back(gathered->emitLoad(b, loc, loadRow(row), add(k0, k), t.vector));
    else
      regs.push_back(vector::LoadOp::create(b, loc, vecType, o.a, at(loadRow(row), add(k0, k)),
                                            /*nontemporal=*/false,
                                            llvm::MaybeAlign(aLoadAlign)));
  }
  return regs;
}

void KernelBuilder::loadTiles(Value k0, SmallVector<Value> &aRegs,
                              SmallVector<Value> &bRegs) {
  auto vecType = VectorType::get({t.vector}, inType);
  aRegs = loadATile(k0);
  for (auto [k, col] : bSlots)
    bRegs.push_back(vector::LoadOp::create(
        b, loc, vecType, o.bTransposed ? bT : o.b,
        o.bTransposed ? at(add(colBase, col), add(k0, k)) : at(add(k0, k), add(colBase, col)),
        /*nontemporal=*/false, llvm::MaybeAlign(bLoadAlign)));
}

void KernelBuilder::storeTiles(Value stage, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs) {
  // A goes in k-major (transposed) so that a thread's thread_m values of one
  // k are contiguous: one vector load each in the inner loop.
  for (auto [slot, reg] : llvm::zip(aSlots, aRegs)) {
    auto [row, k] = slot;
    for (int64_t j = 0; j < t.vector; ++j) {
      Value e = vector::ExtractOp::create(b, loc, reg, j);
      memref::StoreOp::create(b, loc, e, aShared, ValueRange{stage, add(k, j), row});
    }
  }
  int64_t bStoreAlign =
      commonAlignment(t.vector * inBytes, {(t.blockN + t.pad) * inBytes,
                                           t.tileK * (t.blockN + t.pad) * inBytes});
  for (auto [slot, reg] : llvm::zip(bSlots, bRegs)) {
    auto [k, col] = slot;
    if (!o.bTransposed) {
      vector::StoreOp::create(b, loc, reg, bShared, ValueRange{stage, k, col},
                              /*nontemporal=*/false, llvm::MaybeAlign(bStoreAlign));
      continue;
    }
    // A vector along k: one element each to consecutive k rows, as A's.
    for (int64_t j = 0; j < t.vector; ++j) {
      Value e = vector::ExtractOp::create(b, loc, reg, j);
      memref::StoreOp::create(b, loc, e, bShared, ValueRange{stage, add(k, j), col});
    }
  }
}

SmallVector<Value> KernelBuilder::multiply(Value stage, ValueRange accIn) {
  SmallVector<Value> acc(accIn.begin(), accIn.end());
  auto aChunkType = VectorType::get({t.rowChunk()}, inType);
  auto bChunkType = VectorType::get({t.colChunk()}, inType);
  auto accVecType = VectorType::get({t.colChunk()}, accType);
  int64_t aStride = t.blockM / t.rowChunks(), bStride = t.blockN / t.colChunks();
  int64_t aAlign = commonAlignment(t.rowChunk() * inBytes,
                                   {(t.blockM + t.pad) * inBytes,
                                    t.tileK * (t.blockM + t.pad) * inBytes, aStride * inBytes});
  int64_t bAlign = commonAlignment(t.colChunk() * inBytes,
                                   {(t.blockN + t.pad) * inBytes,
                                    t.tileK * (t.blockN + t.pad) * inBytes, bStride * inBytes});
  Value aCol = mul(ty, t.rowChunk()), bCol = mul(tx, t.colChunk());
  // The k slice is unrolled: constant shared-memory offsets, and the
  // fragments of one k can be in flight while the previous one multiplies.
  for (int64_t kk = 0; kk < t.tileK; ++kk) {
    Value k = idx(kk);
    SmallVector<Value> aChunks, bChunks;
    for (int64_t r = 0; r < t.rowChunks(); ++r) {
      Value v = vector::LoadOp::create(b, loc, aChunkType, aShared,
                                       ValueRange{stage, k, add(aCol, r * aStride)}, false,
                                       llvm::MaybeAlign(aAlign));
      if (inType != accType)
        v = arith::ExtFOp::create(b, loc, VectorType::get({t.rowChunk()}, accType), v);
      aChunks.push_back(v);
    }
    for (int64_t c = 0; c < t.colChunks(); ++c) {
      Value v = vector::LoadOp::create(b, loc, bChunkType, bShared,
                                       ValueRange{stage, k, add(bCol, c * bStride)}, false,
                                       llvm::MaybeAlign(bAlign));
      if (inType != accType)
        v = arith::ExtFOp::create(b, loc, accVecType, v);
      bChunks.push_back(v);
    }
    for (int64_t i = 0; i < t.threadM; ++i) {
      Value ai = vector::ExtractOp::create(b, loc, aChunks[i / t.rowChunk()], i % t.rowChunk());
      Value splat = vector::BroadcastOp::create(b, loc, accVecType, ai);
      for (int64_t c = 0; c < t.colChunks(); ++c) {
        Value &a = acc[i * t.colChunks() + c];
        a = vector::FMAOp::create(b, loc, splat, bChunks[c], a);
      }
    }
  }
  return acc;
}

void KernelBuilder::beginLaunch(int64_t blockX, int64_t blockY) {
  Attribute workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto [aShape, bShape] = t.getSharedTileShapes(inBytes);
  auto aSharedType = MemRefType::get(aShape, inType, MemRefLayoutAttrInterface(), workgroup);
  auto bSharedType = MemRefType::get(bShape, inType, MemRefLayoutAttrInterface(), workgroup);
  // B's tile starts on a 128-byte boundary after A's (cp.async writes 16
  // bytes at a time; ldmatrix rows need 16-byte alignment).
  int64_t aBytes = llvm::alignTo(ShapedType::getNumElements(aShape) * inBytes, 128);
  int64_t bytes = aBytes + ShapedType::getNumElements(bShape) * inBytes;
  // Up to 48 KiB the tiles are workgroup attributions (static shared
  // memory); above, views of the dynamic shared memory the launch asks for.
  bool dynamic = bytes > kStaticSharedBytes;
  Value dynamicBytes;
  if (dynamic)
    dynamicBytes = arith::ConstantIntOp::create(b, loc, b.getI32Type(), bytes);
  auto launch = gpu::LaunchOp::create(
      b, loc, idx(o.n / t.blockN), idx(llvm::divideCeil(o.m, t.blockM)), idx(o.batch), idx(blockX),
      idx(blockY), idx(1), dynamicBytes, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/ValueRange{},
      dynamic ? TypeRange{} : TypeRange{aSharedType, bSharedType});
  b.setInsertionPointToStart(&launch.getBody().front());
  if (dynamic) {
    auto bytesType =
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface(),
                        workgroup);
    Value base = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
    aShared = memref::ViewOp::create(b, loc, aSharedType, base, idx(0), ValueRange{});
    bShared = memref::ViewOp::create(b, loc, bSharedType, base, idx(aBytes), ValueRange{});
  } else {
    aShared = launch.getWorkgroupAttributions()[0];
    bShared = launch.getWorkgroupAttributions()[1];
  }
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  batchIdx = blockIds.z;
  rowBase = mul(blockIds.y, t.blockM);
  colBase = mul(blockIds.x, t.blockN);
  tx = threadIds.x;
  ty = threadIds.y;
}

void KernelBuilder::planLoads() {
  int64_t threads = t.threads();
  // Thread `tid`'s global loads: consecutive threads read consecutive
  // vectors of a row, so a warp's loads coalesce.
  int64_t aPerRow = t.tileK / t.vector, bPerRow = t.blockN / t.vector;
  for (int64_t i = 0; i < t.blockM * t.tileK / (t.vector * threads); ++i) {
    Value l = add(tid, i * threads);
    Value row = arith::DivUIOp::create(b, loc, l, idx(aPerRow));
    Value k = mul(arith::RemUIOp::create(b, loc, l, idx(aPerRow)), t.vector);
    aSlots.push_back({row, k});
  }
  // A transposed B is read as A is: vectors along k, a column a row of
  // consecutive threads.
  int64_t bTPerCol = t.tileK / t.vector;
  for (int64_t i = 0; i < t.blockN * t.tileK / (t.vector * threads); ++i) {
    Value l = add(tid, i * threads);
    if (o.bTransposed) {
      Value col = arith::DivUIOp::create(b, loc, l, idx(bTPerCol));
      Value k = mul(arith::RemUIOp::create(b, loc, l, idx(bTPerCol)), t.vector);
      bSlots.push_back({k, col});
      continue;
    }
    Value k = arith::DivUIOp::create(b, loc, l, idx(bPerRow));
    Value col = mul(arith::RemUIOp::create(b, loc, l, idx(bPerRow)), t.vector);
    bSlots.push_back({k, col});
  }
  aLoadAlign = commonAlignment(t.vector * inBytes,
                               [&] {
                                 SmallVector<int64_t> m = layoutMultiples(o.aType, inBytes);
                                 m.push_back(t.tileK * inBytes);
                                 return m;
                               }());
  bLoadAlign = commonAlignment(t.vector * inBytes, [&] {
    SmallVector<int64_t> m =
        layoutMultiples(o.bTransposed ? cast<MemRefType>(bT.getType()) : o.bType, inBytes);
    m.push_back((o.bTransposed ? t.tileK : t.blockN) * inBytes);
    return m;
  }());
}

SmallVector<Value> KernelBuilder::buildKLoop(
    SmallVector<Value> acc,
    function_ref<void(Value, ArrayRef<Value>, ArrayRef<Value>)> store,
    function_ref<SmallVector<Value>(Value, ValueRange)> multiply) {
  Value one = idx(1);
  int64_t steps = o.k / t.tileK;
  Value zero = idx(0);
  if (t.stages == 1) {
    auto loop = scf::ForOp::create(
        b, loc, zero, idx(o.k), idx(t.tileK), acc,
        [&](OpBuilder &, Location, Value k0, ValueRange iter) {
          SmallVector<Value> aRegs, bRegs;
          loadTiles(k0, aRegs, bRegs);
          store(zero, aRegs, bRegs);
          gpu::BarrierOp::create(b, loc);
          SmallVector<Value> next = multiply(zero, iter);
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, next);
        });
    acc.assign(loop.getResults().begin(), loop.getResults().end());
  } else {
    // Two buffers: while one is multiplied, the next slice travels from
    // global memory into registers and then into the other buffer; one
    // barrier a step suffices (a buffer is overwritten only after every
    // thread has passed the barrier that follows its last use).
    SmallVector<Value> aRegs, bRegs;
    loadTiles(zero, aRegs, bRegs);
    store(zero, aRegs, bRegs);
    gpu::BarrierOp::create(b, loc);
    auto loop = scf::ForOp::create(
        b, loc, zero, idx(steps - 1), one, acc,
        [&](OpBuilder &, Location, Value step, ValueRange iter) {
          Value stage = arith::RemUIOp::create(b, loc, step, idx(2));
          Value other = arith::SubIOp::create(b, loc, one, stage);
          SmallVector<Value> nextA, nextB;
          loadTiles(mul(add(step, 1), t.tileK), nextA, nextB);
          SmallVector<Value> next = multiply(stage, iter);
          store(other, nextA, nextB);
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, next);
        });
    acc = multiply(idx((steps - 1) % 2), loop.getResults());
  }
  return acc;
}

void KernelBuilder::build(Value fillValue) {
  if (t.wgmma)
    return buildWarpgroupMatmul(b, loc, o, t, epilogue, fillValue);
  if (t.mma)
    return buildMma(fillValue);
  OpBuilder::InsertionGuard guard(b);
  if (o.bTransposed) {
    // (batch, k, n) -> (batch, n, k): k innermost, contiguous.
    bT = memref::TransposeOp::create(
        b, loc, o.b, AffineMapAttr::get(getSwapLastTwoMap(b.getContext(), o.bType.getRank())));
  }
  beginLaunch(t.blockN / t.threadN, t.blockM / t.threadM);
  tid = add(mul(ty, t.blockN / t.threadN), tx);

  planLoads();

  // Accumulators: per row of the thread's tile, one vector per column chunk.
  auto accVecType = VectorType::get({t.colChunk()}, accType);
  int64_t aStride = t.blockM / t.rowChunks(), bStride = t.blockN / t.colChunks();
  int64_t cAlign = commonAlignment(t.colChunk() * accBytes, [&] {
    SmallVector<int64_t> m = layoutMultiples(o.cType, accBytes);
    m.append({t.blockN * accBytes, bStride * accBytes});
    return m;
  }());
  auto cRow = [&](int64_t i) {
    return add(add(rowBase, mul(ty, t.rowChunk())),
               (i / t.rowChunk()) * aStride + i % t.rowChunk());
  };
  auto cCol = [&](int64_t c) { return add(add(colBase, mul(tx, t.colChunk())), c * bStride); };
  SmallVector<Value> acc;
  for (int64_t i = 0; i < t.threadM; ++i)
    for (int64_t c = 0; c < t.colChunks(); ++c) {
      if (fillValue)
        acc.push_back(vector::BroadcastOp::create(b, loc, accVecType, fillValue));
      else
        acc.push_back(vector::LoadOp::create(b, loc, accVecType, o.c, at(clampRow(cRow(i)), cCol(c)),
                                             false, llvm::MaybeAlign(cAlign)));
    }

  acc = buildKLoop(
      acc, [&](Value stage, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs) {
        storeTiles(stage, aRegs, bRegs);
      },
      [&](Value stage, ValueRange iter) { return multiply(stage, iter); });
  for (int64_t i = 0; i < t.threadM; ++i)
    for (int64_t c = 0; c < t.colChunks(); ++c)
      storeC(acc[i * t.colChunks() + c], cRow(i), cCol(c), cAlign);
  gpu::TerminatorOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// The tensor-core kernel
//===----------------------------------------------------------------------===//

void KernelBuilder::storeATileMma(Value stage, ArrayRef<Value> aRegs) {
  // Row-major as in global memory: whole-vector stores.
  int64_t aRow = t.getSharedTileShapes(inBytes).first.back();
  int64_t aAlign = commonAlignment(t.vector * inBytes,
                                   {aRow * inBytes, t.blockM * aRow * inBytes});
  for (auto [slot, reg] : llvm::zip(aSlots, aRegs))
    vector::StoreOp::create(b, loc, reg, aShared, ValueRange{stage, slot.first, slot.second},
                            false, llvm::MaybeAlign(aAlign));
}

void KernelBuilder::storeTilesMma(Value stage, ArrayRef<Value> aRegs,
                                  ArrayRef<Value> bRegs) {
  storeATileMma(stage, aRegs);
  int64_t bRow = t.getSharedTileShapes(inBytes).second.back();
  int64_t bAlign = commonAlignment(t.vector * inBytes,
                                   {bRow * inBytes, t.tileK * bRow * inBytes});
  for (auto [slot, reg] : llvm::zip(bSlots, bRegs))
    vector::StoreOp::create(b, loc, reg, bShared, ValueRange{stage, slot.first, slot.second},
                            false, llvm::MaybeAlign(bAlign));
}

SmallVector<Value> KernelBuilder::multiplyMma(Value stage, ValueRange accIn) {
  SmallVector<Value> acc(accIn.begin(), accIn.end());
  bool tf32 = inType.isF32();
  int64_t mmaK = getMmaK(inType);
  int64_t fragsN = t.warpN / 8;
  // TF32 B fragments hold one k each: quad and quad + 4.
  Value kLane = quad;
  int64_t kHalf = 4;
  int64_t perReg = tf32 ? 1 : 2;
  auto aFragType = VectorType::get({4, perReg}, inType);
  auto bFragType = VectorType::get({2, perReg}, inType);
  for (int64_t kk = 0; kk < t.tileK; kk += mmaK) {
    SmallVector<Value> aFrags, bFrags;
    // A: one ldmatrix.x4 per m16 tile; lane l points at row l % 16 and
    // column (l / 16) x 16 bytes of the tile, and receives exactly the mma's
    // A registers (for f32, each 16-byte row of 8 b16 halves is 4 TF32
    // values: lane l gets row l / 4, column l % 4).
    for (int64_t i = 0; i < static_cast<int64_t>(mmaRows.size()); ++i)
      aFrags.push_back(nvgpu::LdMatrixOp::create(
          b, loc, aFragType, aShared,
          ValueRange{stage, add(ldRowA, 16 * i), add(ldColA, kk)},
          /*transpose=*/false, /*numTiles=*/4));
    if (tf32) {
      for (Value col : mmaCols) {
        // Registers b0, b1: rows quad and quad + 4 of column g (ldmatrix
        // cannot transpose 32-bit elements).
        SmallVector<Value> elems;
        for (Value k : {add(kLane, kk), add(kLane, kk + kHalf)})
          elems.push_back(memref::LoadOp::create(b, loc, bShared, ValueRange{stage, k, col}));
        bFrags.push_back(vector::FromElementsOp::create(b, loc, bFragType, elems));
      }
    } else {
      // f16 B: ldmatrix.trans of the k-major tile gives a lane the pairs
      // (k 2q, 2q + 1) of column g; x4 covers two n8 tiles (lane l points
      // at k row l % 16 of column block l / 16), x2 the last odd one.
      for (int64_t j = 0; j < fragsN; j += 2) {
        int64_t tiles = j + 1 < fragsN ? 4 : 2;
        Value regs = nvgpu::LdMatrixOp::create(
            b, loc, VectorType::get({tiles, 2}, inType), bShared,
            ValueRange{stage, add(ldRowB, kk), add(ldColB, 8 * j)},
            /*transpose=*/true, /*numTiles=*/tiles);
        for (int64_t first = 0; first < tiles; first += 2) {
          Value frag = arith::ConstantOp::create(b, loc, bFragType, b.getZeroAttr(bFragType));
          for (int64_t r = 0; r < 2; ++r)
            frag = vector::InsertOp::create(
                b, loc, vector::ExtractOp::create(b, loc, regs, first + r), frag, r);
          bFrags.push_back(frag);
        }
      }
    }
    for (auto [i, aFrag] : llvm::enumerate(aFrags))
      for (auto [j, bFrag] : llvm::enumerate(bFrags)) {
        Value &c = acc[i * fragsN + j];
        c = nvgpu::MmaSyncOp::create(b, loc, aFrag, bFrag, c,
                                     ArrayRef<int64_t>{16, 8, mmaK}, tf32);
      }
  }
  return acc;
}

Value KernelBuilder::copyTilesAsync(Value k0, Value stage) {
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  // 16-byte copies may bypass L1 (cp.async.cg): each element is read once.
  UnitAttr bypassL1 = t.vector * inBytes == 16 ? b.getUnitAttr() : UnitAttr();
  SmallVector<Value> tokens;
  // A gathered in registers is stored by the k loop instead.
  for (auto [row, k] : stagesGatherInRegisters() ? ArrayRef<std::pair<Value, Value>>() : aSlots) {
    GatheredOperand::CopySource source{o.a, at(loadRow(row), add(k0, k)), Value()};
    // A gathered vector: copied from the gathered buffer, or zero-filled
    // (no bytes read) where the gather reads padding.
    if (gathered)
      source = gathered->emitCopySource(b, loc, loadRow(row), add(k0, k), t.vector);
    Value srcElements;
    if (source.valid)
      srcElements = arith::SelectOp::create(b, loc, source.valid, idx(t.vector), idx(0));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, tokenType, aShared, ValueRange{stage, row, k}, source.buffer, source.indices,
        b.getIndexAttr(t.vector), srcElements, bypassL1));
  }
  for (auto [k, col] : bSlots)
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, tokenType, bShared, ValueRange{stage, k, col}, o.b,
        at(add(k0, k), add(colBase, col)), b.getIndexAttr(t.vector), Value(), bypassL1));
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
}

SmallVector<Value> KernelBuilder::buildAsyncKLoop(SmallVector<Value> acc) {
  Value zero = idx(0), one = idx(1);
  int64_t steps = o.k / t.tileK;
  auto wait = [&](Value token, int64_t pending) {
    nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(pending));
  };
  if (t.stages == 1) {
    auto loop = scf::ForOp::create(
        b, loc, zero, idx(o.k), idx(t.tileK), acc,
        [&](OpBuilder &, Location, Value k0, ValueRange iter) {
          Value token = copyTilesAsync(k0, zero);
          if (stagesGatherInRegisters())
            storeATileMma(zero, loadATile(k0));
          wait(token, 0);
          gpu::BarrierOp::create(b, loc);
          SmallVector<Value> next = multiplyMma(zero, iter);
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, next);
        });
    return SmallVector<Value>(loop.getResults().begin(), loop.getResults().end());
  }
  if (t.stages > 2)
    return buildMultiStageAsyncKLoop(acc);
  // Two buffers: the copies of slice s + 1 are issued before slice s is
  // multiplied; waiting until at most one group is pending then means
  // slice s has landed. The barrier after the multiply keeps the next
  // iteration's copies off the buffer still being read.
  // A gathered goes through registers: slice s + 1 is loaded before slice
  // s is multiplied and stored into the other buffer after it (free since
  // the previous step's last barrier).
  Value first = copyTilesAsync(zero, zero);
  if (stagesGatherInRegisters())
    storeATileMma(zero, loadATile(zero));
  auto loop = scf::ForOp::create(
      b, loc, zero, idx(steps - 1), one, acc,
      [&](OpBuilder &, Location, Value step, ValueRange iter) {
        Value stage = arith::RemUIOp::create(b, loc, step, idx(2));
        Value other = arith::SubIOp::create(b, loc, one, stage);
        Value k1 = mul(add(step, 1), t.tileK);
        wait(copyTilesAsync(k1, other), 1);
        gpu::BarrierOp::create(b, loc);
        SmallVector<Value> aNext;
        if (stagesGatherInRegisters())
          aNext = loadATile(k1);
        SmallVector<Value> next = multiplyMma(stage, iter);
        if (stagesGatherInRegisters())
          storeATileMma(other, aNext);
        gpu::BarrierOp::create(b, loc);
        scf::YieldOp::create(b, loc, next);
      });
  wait(first, 0);
  gpu::BarrierOp::create(b, loc);
  return multiplyMma(idx((steps - 1) % 2), loop.getResults());
}

SmallVector<Value> KernelBuilder::buildMultiStageAsyncKLoop(SmallVector<Value> acc) {
  int64_t stages = t.stages, steps = o.k / t.tileK;
  // Slices 0 .. stages - 2 are in flight before the loop; a K with fewer
  // slices fills only as many buffers.
  int64_t ahead = std::min(stages - 1, steps);
  auto wait = [&](Value token, int64_t pending) {
    nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(pending));
  };
  Value token;
  for (int64_t s = 0; s < ahead; ++s) {
    token = copyTilesAsync(idx(s * t.tileK), idx(s));
    if (stagesGatherInRegisters())
      storeATileMma(idx(s), loadATile(idx(s * t.tileK)));
  }
  // Step s: wait until slice s has landed (at most ahead - 1 younger groups
  // pending), a barrier (every thread's copies are visible, and every thread
  // is done with step s - 1's buffer), then issue slice s + ahead into that
  // buffer, (s - 1) mod stages, and multiply slice s while it flies. A
  // gathered is loaded into registers there and stored into that buffer
  // after the multiply; the barrier at step s + 1 publishes it.
  int64_t loopSteps = steps - ahead;
  if (loopSteps > 0) {
    auto loop = scf::ForOp::create(
        b, loc, idx(0), idx(loopSteps), idx(1), acc,
        [&](OpBuilder &, Location, Value step, ValueRange iter) {
          wait(token, ahead - 1);
          gpu::BarrierOp::create(b, loc);
          Value next = add(step, ahead);
          Value nextStage = remui(next, stages);
          copyTilesAsync(mul(next, t.tileK), nextStage);
          SmallVector<Value> aNext;
          if (stagesGatherInRegisters())
            aNext = loadATile(mul(next, t.tileK));
          SmallVector<Value> out = multiplyMma(remui(step, stages), iter);
          if (stagesGatherInRegisters())
            storeATileMma(nextStage, aNext);
          scf::YieldOp::create(b, loc, out);
        });
    acc.assign(loop.getResults().begin(), loop.getResults().end());
  }
  // The last `ahead` slices: nothing more to issue, one fewer pending each.
  for (int64_t j = 0; j < ahead; ++j) {
    wait(token, ahead - 1 - j);
    gpu::BarrierOp::create(b, loc);
    acc = multiplyMma(idx((loopSteps + j) % stages), acc);
  }
  return acc;
}

void KernelBuilder::buildMma(Value fillValue) {
  int64_t warpsN = t.blockN / t.warpN, warpsM = t.blockM / t.warpM;
  OpBuilder::InsertionGuard guard(b);
  // x: the lanes of the warps of one row of warps; y: rows of warps.
  beginLaunch(32 * warpsN, warpsM);
  tid = add(mul(ty, 32 * warpsN), tx);
  planLoads();

  Value lane = remui(tx, 32);
  group = divui(lane, 4);
  quad = remui(lane, 4);
  Value warpRow = add(mul(ty, t.warpM), group);
  Value warpCol = mul(divui(tx, 32), t.warpN);
  int64_t fragsM = t.warpM / 16, fragsN = t.warpN / 8;
  for (int64_t i = 0; i < fragsM; ++i)
    mmaRows.push_back({add(warpRow, 16 * i), add(warpRow, 16 * i + 8)});
  for (int64_t j = 0; j < fragsN; ++j)
    mmaCols.push_back(add(add(warpCol, group), 8 * j));
  // ldmatrix addresses (multiplyMma): A row lane % 16 of the warp's rows,
  // column (lane / 16) x 16 bytes; B k row lane % 16, column block lane / 16.
  ldRowA = add(mul(ty, t.warpM), remui(lane, 16));
  ldColA = mul(divui(lane, 16), 16 / inBytes);
  ldRowB = remui(lane, 16);
  ldColB = add(warpCol, mul(divui(lane, 16), 8));

  // Accumulator fragment (i, j): rows g and g + 8 of m16 tile i, columns
  // 2 * quad and 2 * quad + 1 of n8 tile j; one vector<2x2xf32> each.
  auto fragType = VectorType::get({2, 2}, accType);
  auto rowType = VectorType::get({2}, accType);
  int64_t cAlign = commonAlignment(2 * accBytes, [&] {
    SmallVector<int64_t> m = layoutMultiples(o.cType, accBytes);
    m.append({t.blockN * accBytes, t.warpN * accBytes, 8 * accBytes});
    return m;
  }());
  Value cColLane = add(add(colBase, warpCol), mul(quad, 2));
  auto cRow = [&](int64_t i, int64_t half) {
    return add(rowBase, half ? mmaRows[i].second : mmaRows[i].first);
  };
  auto cCol = [&](int64_t j) { return add(cColLane, 8 * j); };
  SmallVector<Value> acc;
  for (int64_t i = 0; i < fragsM; ++i)
    for (int64_t j = 0; j < fragsN; ++j) {
      if (fillValue) {
        acc.push_back(vector::BroadcastOp::create(b, loc, fragType, fillValue));
        continue;
      }
      Value frag = arith::ConstantOp::create(b, loc, fragType, b.getZeroAttr(fragType));
      for (int64_t half = 0; half < 2; ++half) {
        Value v = vector::LoadOp::create(b, loc, rowType, o.c,
                                         at(clampRow(cRow(i, half)), cCol(j)), false,
                                         llvm::MaybeAlign(cAlign));
        frag = vector::InsertOp::create(b, loc, v, frag, half);
      }
      acc.push_back(frag);
    }

  if (t.asyncCopy && canCopyAsync(o, t)) {
    gatherByCopy = gathered && gathered->copiesWholeVectors(t.vector);
    acc = buildAsyncKLoop(acc);
  }
  else
    acc = buildKLoop(
        acc, [&](Value stage, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs) {
          storeTilesMma(stage, aRegs, bRegs);
        },
        [&](Value stage, ValueRange iter) { return multiplyMma(stage, iter); });
  for (int64_t i = 0; i < fragsM; ++i)
    for (int64_t j = 0; j < fragsN; ++j)
      for (int64_t half = 0; half < 2; ++half) {
        Value v = vector::ExtractOp::create(b, loc, acc[i * fragsN + j], half);
        storeC(v, cRow(i, half), cCol(j), cAlign);
      }
  gpu::TerminatorOp::create(b, loc);
}

/// A linalg.fill of exactly `op`'s output earlier in its block, with nothing
/// in between touching that buffer (or a view of it): its value can start
/// the accumulators instead.
static linalg::FillOp getAbsorbableFill(linalg::LinalgOp op, Value output) {
  Value buffer = getViewSource(output);
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev);
        fill && fill.hasPureBufferSemantics() && fill.getOutputs()[0] == output)
      return fill;
    // The op's own operands and any use inside its regions (an earlier
    // kernel) count.
    bool touches = false;
    prev->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (isa<BaseMemRefType>(v.getType()) && getViewSource(v) == buffer)
          touches = true;
    });
    if (touches)
      return {};
  }
  return {};
}

LogicalResult mlir::dltune::buildGpuMatmulKernel(RewriterBase &rewriter, linalg::LinalgOp op,
                                                 const GpuMatmulTiles &tiles,
                                                 GpuMatmulFusions fusions) {
  std::string why;
  FailureOr<MatmulOperands> o = getOperands(op, why);
  if (succeeded(o))
    why = whyNotKernel(op, *o, tiles);
  if (!why.empty())
    return op->emitOpError() << "cannot become a GPU matmul kernel: " << why;
  linalg::FillOp fill = getAbsorbableFill(op, o->c);
  Value fillValue;
  if (fill) {
    fillValue = fill.getInputs()[0];
    if (fillValue.getType() != o->cType.getElementType())
      fill = {}, fillValue = {};
  }
  // The tensor-core kernel stores pairs of columns, the SIMT one chunks.
  std::optional<MatmulEpilogue> epilogue;
  if (fusions.epilogues && !o->batched)
    epilogue = MatmulEpilogue::match(op, tiles.wgmma ? 4 : tiles.mma ? 2 : tiles.colChunk());
  // A block writes C and the epilogue's output while other blocks still
  // gather: neither may share memory with what the gather reads. Where the
  // epilogue's output may (bufferization reuses a dead input's buffer),
  // the epilogue stays a kernel of its own: the gather saves more (it
  // reads each input element up to KH x KW times).
  std::optional<GatheredOperand> gathered;
  if (fusions.gathers && !tiles.wgmma && !o->batched)
    gathered = GatheredOperand::match(op);
  if (gathered && gathered->mayRead(getViewSource(o->c)))
    gathered.reset();
  if (gathered && epilogue && gathered->mayRead(epilogue->getOutputBuffer()))
    epilogue.reset();
  if (epilogue)
    epilogue->hoistOperandsBefore(op);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  KernelBuilder(rewriter, op->getLoc(), *o, tiles, epilogue ? &*epilogue : nullptr,
                gathered ? &*gathered : nullptr)
      .build(fillValue);
  rewriter.eraseOp(op);
  if (fill)
    rewriter.eraseOp(fill);
  if (epilogue)
    epilogue->eraseAbsorbed(rewriter);
  if (gathered)
    gathered->eraseAbsorbed(rewriter);
  return success();
}

LogicalResult mlir::dltune::buildGpuMatmulKernels(ModuleOp module, GpuMatmulFusions fusions) {
  SmallVector<linalg::LinalgOp> ops;
  module.walk([&](linalg::LinalgOp op) {
    // Other ops with tiles are window kernels (GpuWindowKernel.h).
    if (op->hasAttr(DLTuneDialect::kGpuKernelAttrName) &&
        isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()))
      ops.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::LinalgOp op : ops) {
    std::optional<GpuMatmulTiles> tiles =
        GpuMatmulTiles::fromAttr(op->getAttrOfType<DictionaryAttr>(DLTuneDialect::kGpuKernelAttrName));
    if (!tiles)
      return op->emitOpError() << DLTuneDialect::kGpuKernelAttrName
                               << " must be a dictionary of the GPU matmul tile sizes";
    if (tiles->splitK != 1 && fusions.splits) {
      // Slices of K as a batch matmul, summed by a window kernel; the op
      // and its tiles checked first, so that errors speak of the matmul.
      if (std::string why = whyNotGpuMatmulKernel(op, *tiles); !why.empty())
        return op->emitOpError() << "cannot become a GPU matmul kernel: " << why;
      FailureOr<linalg::LinalgOp> slices = splitGpuMatmulK(rewriter, op, *tiles);
      if (failed(slices))
        return failure();
      op = *slices;
    }
    tiles->splitK = 1;
    if (failed(buildGpuMatmulKernel(rewriter, op, *tiles, fusions)))
      return failure();
  }
  return success();
}
