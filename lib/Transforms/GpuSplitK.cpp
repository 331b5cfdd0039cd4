//===- GpuSplitK.cpp - A GPU matmul's K in slices --------------------------===//

#include "GpuSplitK.h"

#include "dltune/Transforms/GpuWindowKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace mlir::dltune;

FailureOr<linalg::LinalgOp> mlir::dltune::splitGpuMatmulK(RewriterBase &rewriter,
                                                          linalg::LinalgOp matmul,
                                                          const GpuMatmulTiles &tiles) {
  auto fail = [&](const Twine &why) -> FailureOr<linalg::LinalgOp> {
    return matmul->emitOpError() << "cannot split K (split_k = " << tiles.splitK << "): " << why;
  };
  if (!isa<linalg::MatmulOp>(matmul.getOperation()) || !matmul.hasPureBufferSemantics())
    return fail("only a linalg.matmul on buffers is split");
  if (tiles.wgmma)
    return fail("not with wgmma");
  Value a = matmul.getDpsInputs()[0], b = matmul.getDpsInputs()[1], c = matmul.getDpsInits()[0];
  auto aType = dyn_cast<MemRefType>(a.getType());
  auto bType = dyn_cast<MemRefType>(b.getType());
  auto cType = dyn_cast<MemRefType>(c.getType());
  if (!aType || !bType || !cType || !aType.hasStaticShape() || !bType.hasStaticShape() ||
      !cType.hasStaticShape())
    return fail("operand shapes must be static");
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1), k = aType.getDimSize(1);
  int64_t slices = tiles.splitK;
  if (slices < 1 || tiles.tileK < 1 || k % (slices * tiles.tileK) != 0)
    return fail("K = " + Twine(k) + " must be slices of whole tile_k (" + Twine(tiles.tileK) +
                ")");
  int64_t slice = k / slices;
  Location loc = matmul.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(matmul);

  // A as [slices, M, slice] and B as [slices, slice, N]: views.
  FailureOr<MemRefType> aExpandedType =
      memref::ExpandShapeOp::computeExpandedType(aType, {m, slices, slice}, {{0}, {1, 2}});
  if (failed(aExpandedType))
    return fail("A cannot be viewed in slices");
  Value aExpanded = memref::ExpandShapeOp::create(rewriter, loc, *aExpandedType, a,
                                                  ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  AffineMap sliceFirst = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0, 2},
                                                      rewriter.getContext());
  Value aSlices = memref::TransposeOp::create(rewriter, loc, aExpanded,
                                              AffineMapAttr::get(sliceFirst));
  FailureOr<MemRefType> bExpandedType =
      memref::ExpandShapeOp::computeExpandedType(bType, {slices, slice, n}, {{0, 1}, {2}});
  if (failed(bExpandedType))
    return fail("B cannot be viewed in slices");
  Value bSlices = memref::ExpandShapeOp::create(rewriter, loc, *bExpandedType, b,
                                                ArrayRef<ReassociationIndices>{{0, 1}, {2}});

  // The partial products, each from zero (the batch kernel absorbs the
  // fill).
  Type elementType = cType.getElementType();
  auto partialType = MemRefType::get({slices, m, n}, elementType);
  // Aligned as a device allocation is (the kernel's vector stores rely on
  // it; the CPU emulation's malloc would give 16 bytes).
  Value partial =
      memref::AllocOp::create(rewriter, loc, partialType, rewriter.getI64IntegerAttr(256));
  Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elementType));
  linalg::FillOp::create(rewriter, loc, ValueRange{zero}, ValueRange{partial});
  auto batch = linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{},
                                             ValueRange{aSlices, bSlices}, ValueRange{partial});
  // The matmul's attributes (the TF32 opt-in among them) go with it.
  batch->setDiscardableAttrs(matmul->getDiscardableAttrDictionary());
  GpuMatmulTiles sliceTiles = tiles;
  sliceTiles.splitK = 1;
  batch->setAttr(DLTuneDialect::kGpuKernelAttrName, sliceTiles.toAttr(rewriter.getContext()));

  // C += the partials, slice by slice: a column reduction (slices
  // outermost), as a window kernel.
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr s = getAffineDimExpr(0, ctx), i = getAffineDimExpr(1, ctx),
             j = getAffineDimExpr(2, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {s, i, j}, ctx),
                                 AffineMap::get(3, 0, {i, j}, ctx)};
  SmallVector<utils::IteratorType> iterators = {utils::IteratorType::reduction,
                                                utils::IteratorType::parallel,
                                                utils::IteratorType::parallel};
  bool isFloat = isa<FloatType>(elementType);
  auto sum = linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, ValueRange{partial}, ValueRange{c}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value total = isFloat ? arith::AddFOp::create(nb, nl, args[1], args[0]).getResult()
                              : arith::AddIOp::create(nb, nl, args[1], args[0]).getResult();
        linalg::YieldOp::create(nb, nl, total);
      });
  GpuWindowTiles sumTiles;
  int64_t elemBytes = std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  for (int64_t v : {4, 2, 1})
    if (n % v == 0 && v * elemBytes <= 16) {
      sumTiles.vector = v;
      break;
    }
  sum->setAttr(DLTuneDialect::kGpuKernelAttrName, sumTiles.toAttr(ctx));
  rewriter.eraseOp(matmul);
  return linalg::LinalgOp(batch.getOperation());
}
