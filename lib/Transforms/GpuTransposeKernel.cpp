//===- GpuTransposeKernel.cpp - Tiled transposes of the last two dims -----===//
//
// The kernel, for an input [.., R, C] and its output [.., C, R]:
//
//   blocks (C / 32, R / 32, the leading dimensions' product), rounded up;
//   threads (32, 8)
//   tile[ty + 8i][tx]  = in[.., r0 + ty + 8i, c0 + tx]     i < 4, inside
//   barrier
//   out[.., c0 + ty + 8i, r0 + tx] = tile[tx][ty + 8i]      i < 4, inside
//
//===----------------------------------------------------------------------===//

#include "GpuTransposeKernel.h"

#include "GpuMatmulOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dltune;

/// A tile's side; rows of 8 threads move 4 of its rows each.
static constexpr int64_t kTile = 32, kTileRowsPerPass = 8;
/// The most blocks a grid has along y or z.
static constexpr int64_t kMaxGridYZ = 65535;

/// The product of the leading (batch) dimensions of `type`.
static int64_t getLeadingPoints(MemRefType type) {
  return ShapedType::getNumElements(type.getShape().drop_back(2));
}

std::string mlir::dltune::whyNotGpuTransposeKernel(linalg::TransposeOp op) {
  if (!op.hasPureBufferSemantics())
    return "it must be on buffers";
  auto in = dyn_cast<MemRefType>(op.getInput().getType());
  auto out = dyn_cast<MemRefType>(op.getInit().getType());
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() || in.getRank() < 2)
    return "its operands must be memrefs of static shapes, rank 2 or more";
  int64_t rank = in.getRank();
  if (op.getPermutation() != ArrayRef(swapLastTwo(llvm::to_vector(llvm::seq<int64_t>(0, rank)))))
    return "it must swap the last two dimensions and keep the others in order";
  Type elem = in.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 ||
      elem.getIntOrFloatBitWidth() > 64)
    return "its elements must be 1 to 8 bytes";
  // The grid's y (row tiles) and z (the leading dimensions) stop at 65535
  // blocks; the loops of a leftover op take one dimension of any size.
  if (getLeadingPoints(in) > kMaxGridYZ ||
      llvm::divideCeil(in.getDimSize(rank - 2), kTile) > kMaxGridYZ)
    return "its tiles would exceed the 65535 blocks a grid's y and z take";
  return "";
}

namespace {
class TransposeKernelBuilder : KernelIndexArith {
public:
  TransposeKernelBuilder(OpBuilder &b, linalg::TransposeOp op)
      : KernelIndexArith(b, op.getLoc()), input(op.getInput()), output(op.getInit()),
        inType(cast<MemRefType>(input.getType())) {}

  void build();

private:
  /// Indices of the leading dimensions' point, then `row`, `col`.
  SmallVector<Value> at(Value row, Value col) {
    SmallVector<Value> i(leading);
    i.append({row, col});
    return i;
  }
  /// `body` at the insertion point, run where row < rowBound and col <
  /// colBound.
  void guarded(Value row, int64_t rowBound, Value col, int64_t colBound,
               function_ref<void()> body);

  Value input, output;
  MemRefType inType;
  SmallVector<Value> leading; // inside the launch
};
} // namespace

void TransposeKernelBuilder::guarded(Value row, int64_t rowBound, Value col, int64_t colBound,
                                     function_ref<void()> body) {
  auto below = [&](Value v, int64_t bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v, idx(bound));
  };
  Value inside = arith::AndIOp::create(b, loc, below(row, rowBound), below(col, colBound));
  auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard inner(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

void TransposeKernelBuilder::build() {
  int64_t rank = inType.getRank();
  ArrayRef<int64_t> shape = inType.getShape();
  int64_t rows = shape[rank - 2], cols = shape[rank - 1];
  Attribute workgroup = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto tileType = MemRefType::get({kTile, kTile + 1}, inType.getElementType(),
                                  MemRefLayoutAttrInterface(), workgroup);
  auto launch = gpu::LaunchOp::create(
      b, loc, idx(llvm::divideCeil(cols, kTile)), idx(llvm::divideCeil(rows, kTile)),
      idx(getLeadingPoints(inType)), idx(kTile), idx(kTileRowsPerPass), idx(1),
      /*dynamicSharedMemorySize=*/Value(), /*asyncTokenType=*/nullptr, ValueRange{},
      TypeRange{tileType});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tile = launch.getWorkgroupAttributions()[0];
  gpu::KernelDim3 blocks = launch.getBlockIds(), threads = launch.getThreadIds();
  Value r0 = mul(blocks.y, kTile), c0 = mul(blocks.x, kTile);
  // The leading indices, the last fastest.
  leading.resize(rank - 2);
  Value rest = blocks.z;
  for (int64_t d = rank - 3; d >= 0; --d) {
    leading[d] = remui(rest, shape[d]);
    rest = divui(rest, shape[d]);
  }
  for (int64_t i = 0; i < kTile / kTileRowsPerPass; ++i) {
    Value tileRow = add(threads.y, i * kTileRowsPerPass);
    Value row = add(r0, tileRow), col = add(c0, threads.x);
    guarded(row, rows, col, cols, [&] {
      Value v = memref::LoadOp::create(b, loc, input, at(row, col));
      memref::StoreOp::create(b, loc, v, tile, ValueRange{tileRow, threads.x});
    });
  }
  gpu::BarrierOp::create(b, loc);
  for (int64_t i = 0; i < kTile / kTileRowsPerPass; ++i) {
    Value tileCol = add(threads.y, i * kTileRowsPerPass);
    Value outRow = add(c0, tileCol), outCol = add(r0, threads.x);
    guarded(outRow, cols, outCol, rows, [&] {
      Value v = memref::LoadOp::create(b, loc, tile, ValueRange{threads.x, tileCol});
      memref::StoreOp::create(b, loc, v, output, at(outRow, outCol));
    });
  }
  gpu::TerminatorOp::create(b, loc);
}

void mlir::dltune::buildGpuTransposeKernel(RewriterBase &rewriter, linalg::TransposeOp op) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  TransposeKernelBuilder(rewriter, op).build();
  rewriter.eraseOp(op);
}

int64_t mlir::dltune::buildGpuTransposeKernels(ModuleOp module) {
  SmallVector<linalg::TransposeOp> transposes;
  module.walk([&](linalg::TransposeOp op) {
    if (!op->getParentOfType<gpu::LaunchOp>() && whyNotGpuTransposeKernel(op).empty())
      transposes.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::TransposeOp op : transposes)
    buildGpuTransposeKernel(rewriter, op);
  return static_cast<int64_t>(transposes.size());
}
