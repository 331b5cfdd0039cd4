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

std::string mlir::dltune::whyNotGpuTransposeKernel(linalg::TransposeOp op) {
  if (!op.hasPureBufferSemantics())
    return "it must be on buffers";
  auto in = dyn_cast<MemRefType>(op.getInput().getType());
  auto out = dyn_cast<MemRefType>(op.getInit().getType());
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() || in.getRank() < 2)
    return "its operands must be memrefs of static shapes, rank 2 or more";
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = in.getRank();
  for (int64_t d = 0; d < rank - 2; ++d)
    if (perm[d] != d)
      return "it must keep the leading dimensions in order";
  if (perm[rank - 2] != rank - 1 || perm[rank - 1] != rank - 2)
    return "it must swap the last two dimensions";
  Type elem = in.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 ||
      elem.getIntOrFloatBitWidth() > 64)
    return "its elements must be 1 to 8 bytes";
  // The grid's y (row tiles) and z (the leading dimensions) stop at 65535
  // blocks; the loops of a leftover op take one dimension of any size.
  int64_t batch = 1;
  for (int64_t d = 0; d < rank - 2; ++d)
    batch *= in.getDimSize(d);
  if (batch > kMaxGridYZ || llvm::divideCeil(in.getDimSize(rank - 2), kTile) > kMaxGridYZ)
    return "its tiles would exceed the 65535 blocks a grid's y and z take";
  return "";
}

void mlir::dltune::buildGpuTransposeKernel(RewriterBase &rewriter, linalg::TransposeOp op) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  OpBuilder &b = rewriter;
  Location loc = op.getLoc();
  Value input = op.getInput(), output = op.getInit();
  auto inType = cast<MemRefType>(input.getType());
  int64_t rank = inType.getRank();
  ArrayRef<int64_t> shape = inType.getShape();
  int64_t rows = shape[rank - 2], cols = shape[rank - 1];
  int64_t batch = 1;
  for (int64_t d = 0; d < rank - 2; ++d)
    batch *= shape[d];
  auto idx = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };

  Attribute workgroup = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto tileType = MemRefType::get({kTile, kTile + 1}, inType.getElementType(),
                                  MemRefLayoutAttrInterface(), workgroup);
  auto launch = gpu::LaunchOp::create(
      b, loc, idx(llvm::divideCeil(cols, kTile)), idx(llvm::divideCeil(rows, kTile)), idx(batch),
      idx(kTile), idx(kTileRowsPerPass), idx(1), /*dynamicSharedMemorySize=*/Value(),
      /*asyncTokenType=*/nullptr, ValueRange{}, TypeRange{tileType});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tile = launch.getWorkgroupAttributions()[0];
  gpu::KernelDim3 blocks = launch.getBlockIds(), threads = launch.getThreadIds();
  Value r0 = arith::MulIOp::create(b, loc, blocks.y, idx(kTile));
  Value c0 = arith::MulIOp::create(b, loc, blocks.x, idx(kTile));
  // The leading indices, the last fastest.
  SmallVector<Value> leading(rank - 2);
  Value rest = blocks.z;
  for (int64_t d = rank - 3; d >= 0; --d) {
    leading[d] = arith::RemUIOp::create(b, loc, rest, idx(shape[d]));
    rest = arith::DivUIOp::create(b, loc, rest, idx(shape[d]));
  }
  auto indices = [&](Value row, Value col) {
    SmallVector<Value> i(leading);
    i.append({row, col});
    return i;
  };
  // `body` runs where row < rowBound and col < colBound.
  auto guarded = [&](Value row, int64_t rowBound, Value col, int64_t colBound,
                     function_ref<void()> body) {
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, idx(rowBound)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, idx(colBound)));
    auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  };
  for (int64_t i = 0; i < kTile / kTileRowsPerPass; ++i) {
    Value tileRow = arith::AddIOp::create(b, loc, threads.y, idx(i * kTileRowsPerPass));
    Value row = arith::AddIOp::create(b, loc, r0, tileRow);
    Value col = arith::AddIOp::create(b, loc, c0, threads.x);
    guarded(row, rows, col, cols, [&] {
      Value v = memref::LoadOp::create(b, loc, input, indices(row, col));
      memref::StoreOp::create(b, loc, v, tile, ValueRange{tileRow, threads.x});
    });
  }
  gpu::BarrierOp::create(b, loc);
  for (int64_t i = 0; i < kTile / kTileRowsPerPass; ++i) {
    Value tileCol = arith::AddIOp::create(b, loc, threads.y, idx(i * kTileRowsPerPass));
    Value outRow = arith::AddIOp::create(b, loc, c0, tileCol);
    Value outCol = arith::AddIOp::create(b, loc, r0, threads.x);
    guarded(outRow, cols, outCol, rows, [&] {
      Value v = memref::LoadOp::create(b, loc, tile, ValueRange{threads.x, tileCol});
      memref::StoreOp::create(b, loc, v, output, indices(outRow, outCol));
    });
  }
  gpu::TerminatorOp::create(b, loc);
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
