//===- ContractionOps.cpp - ONNX MatMul and Gemm --------------------------===//
//
// Matrix products: Gemm (transA/transB, a constant operand transposed at
// import; alpha, beta and C) as linalg.matmul; MatMul of 2-D or batched
// operands (batch dimensions broadcast) as one linalg.matmul or one
// linalg.batch_matmul.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

llvm::Error importGemm(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Value> a = im.get(node.input(0));
  if (!a)
    return a.takeError();
  llvm::Expected<Value> bm = im.get(node.input(1));
  if (!bm)
    return bm.takeError();
  Value av = *a, bv = *bm;
  if (typeOf(av).getRank() != 2 || typeOf(bv).getRank() != 2)
    return im.nodeError(node, "A and B must be 2-D");
  // A constant operand (the usual transposed FC weight) is transposed here,
  // once, rather than by a linalg.transpose on every call.
  auto transposedInput = [&](int input, Value v) {
    const KnownTensor *k = im.known(node.input(input));
    if (k && k->size() > 0 && (k->isFloat ? k->f.size() : k->i.size()) == size_t(k->size()))
      return im.materialize(permutedKnown(*k, {1, 0}), typeOf(v).getElementType());
    return im.transposed(v, {1, 0});
  };
  if (intAttr(node, "transA", 0))
    av = transposedInput(0, av);
  if (intAttr(node, "transB", 0))
    bv = transposedInput(1, bv);
  int64_t m = typeOf(av).getDimSize(0), k = typeOf(av).getDimSize(1),
          n = typeOf(bv).getDimSize(1);
  if (typeOf(bv).getDimSize(0) != k)
    return im.nodeError(node, "inner dimensions differ: " + shapeString(typeOf(av).getShape()) +
                                  " and " + shapeString(typeOf(bv).getShape()));
  Type elem = typeOf(av).getElementType();
  Value acc = im.filled({m, n}, elem, 0.0);
  Value y =
      linalg::MatmulOp::create(im.b, TypeRange{acc.getType()}, ValueRange{av, bv}, ValueRange{acc})
          .getResult(0);
  double alpha = floatAttr(node, "alpha", 1.0f), beta = floatAttr(node, "beta", 1.0f);
  Value c;
  if (hasInput(node, 2)) {
    llvm::Expected<Value> cv = im.get(node.input(2));
    if (!cv)
      return cv.takeError();
    c = *cv;
  }
  if (alpha != 1.0 || (c && beta != 0.0)) {
    SmallVector<Value> ins = {y};
    if (c && beta != 0.0)
      ins.push_back(c);
    llvm::Expected<Value> r =
        im.elementwise(node, ins, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
          Value r = v[0];
          if (alpha != 1.0)
            r = arith::MulFOp::create(ib, r, im.constantScalar(elem, alpha));
          if (v.size() > 1) {
            Value cc = v[1];
            if (beta != 1.0)
              cc = arith::MulFOp::create(ib, cc, im.constantScalar(elem, beta));
            r = arith::AddFOp::create(ib, r, cc);
          }
          return r;
        });
    if (!r)
      return r.takeError();
    y = *r;
  }
  im.define(node, 0, y);
  return llvm::Error::success();
}

llvm::Error importMatMul(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Value> a = im.get(node.input(0));
  if (!a)
    return a.takeError();
  llvm::Expected<Value> bm = im.get(node.input(1));
  if (!bm)
    return bm.takeError();
  Value av = *a, bv = *bm;
  ArrayRef<int64_t> as = typeOf(av).getShape(), bs = typeOf(bv).getShape();
  if (as.size() < 2 || bs.size() < 2)
    return im.nodeError(node, "1-D operands are not supported, got " + shapeString(as) + " and " +
                                  shapeString(bs));
  int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    return im.nodeError(node,
                        "inner dimensions differ: " + shapeString(as) + " and " + shapeString(bs));
  Type elem = typeOf(av).getElementType();
  std::vector<int64_t> batchA(as.begin(), as.end() - 2), batchB(bs.begin(), bs.end() - 2);
  auto batch = broadcastShapes(batchA, batchB);
  if (!batch)
    return im.nodeError(node, "batch dimensions do not broadcast");
  int64_t batchSize = getElementCount(*batch);
  if (batchSize > kMaxElements)
    return im.nodeError(node, "batch dimensions " + shapeString(*batch) + " are too large");
  std::vector<int64_t> outShape = *batch;
  outShape.push_back(m);
  outShape.push_back(n);
  Value y;
  if (batchB.empty() || batchSize == 1) {
    // A's batch folds into its rows: one matmul.
    Value a2 = im.reshaped(av, {batchSize * m, k});
    Value b2 = im.reshaped(bv, {k, n});
    Value acc = im.filled({batchSize * m, n}, elem, 0.0);
    y = linalg::MatmulOp::create(im.b, TypeRange{acc.getType()}, ValueRange{a2, b2},
                                 ValueRange{acc})
            .getResult(0);
  } else {
    // Broadcast both to the full batch, then one batch_matmul.
    auto expand = [&](Value v, ArrayRef<int64_t> vb, int64_t rows, int64_t cols) -> Value {
      std::vector<int64_t> full = *batch;
      full.push_back(rows);
      full.push_back(cols);
      if (vb == ArrayRef<int64_t>(*batch))
        return im.reshaped(v, {batchSize, rows, cols});
      llvm::Expected<Value> e =
          im.elementwise(node, {v, im.emptyTensor(full, elem)}, elem,
                         [](ImplicitLocOpBuilder &, ValueRange args) { return args[0]; });
      return im.reshaped(*e, {batchSize, rows, cols});
    };
    Value a3 = expand(av, batchA, m, k), b3 = expand(bv, batchB, k, n);
    Value acc = im.filled({batchSize, m, n}, elem, 0.0);
    y = linalg::BatchMatmulOp::create(im.b, TypeRange{acc.getType()}, ValueRange{a3, b3},
                                      ValueRange{acc})
            .getResult(0);
  }
  im.define(node, 0, im.reshaped(y, outShape));
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerContractionOps(OpTable &table) {
  table.add("Gemm", {importGemm, 2, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("MatMul", {importMatMul, 2, /*floatOnly=*/true, /*takesEmpty=*/false});
}
