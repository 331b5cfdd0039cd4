//===- ContractionOps.cpp - ONNX MatMul, Gemm and Einsum ------------------===//
//
// Matrix products: Gemm (transA/transB, a constant operand transposed at
// import; alpha, beta and C) as linalg.matmul; MatMul of 2-D or batched
// operands (batch dimensions broadcast) as one linalg.matmul or one
// linalg.batch_matmul; Einsum of one or two operands as one linalg.generic
// (a transpose, a sum, or a contraction into a zero-filled output).
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <map>

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

/// Einsum of one or two operands: every index letter is a loop, those of
/// the output parallel (in the output's order), the others summed
/// (reduction loops, in order of first appearance); each operand is read
/// through the map of its letters. One operand and nothing summed is a
/// linalg.transpose; otherwise one linalg.generic, a product (mulf)
/// accumulated (addf) into a zero-filled output where letters are summed.
/// Refused: ellipses, a letter twice in one operand (diagonals), more than
/// two operands.
llvm::Error importEinsum(ImportContext &im, const onnx::NodeProto &node) {
  std::string equation;
  for (char ch : stringAttr(node, "equation", ""))
    if (ch != ' ')
      equation += ch;
  if (equation.find("...") != std::string::npos || equation.find('.') != std::string::npos)
    return im.nodeError(node, "equation '" + equation +
                                  "' has an ellipsis ('...'), which is not supported");
  if (node.input_size() > 2)
    return im.nodeError(node, "has " + std::to_string(node.input_size()) +
                                  " operands; only one or two are supported");
  StringRef eq(equation);
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (int(terms.size()) != node.input_size())
    return im.nodeError(node, "equation '" + equation + "' has " +
                                  std::to_string(terms.size()) + " operand term(s) for " +
                                  std::to_string(node.input_size()) + " input(s)");
  auto isLetter = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); };
  // Letters in order of first appearance, with their sizes.
  std::string letters;
  std::map<char, int64_t> sizes;
  SmallVector<Value> operands;
  for (size_t t = 0; t < terms.size(); ++t) {
    llvm::Expected<Value> v = im.get(node.input(t));
    if (!v)
      return v.takeError();
    operands.push_back(*v);
    ArrayRef<int64_t> shape = typeOf(*v).getShape();
    StringRef term = terms[t];
    if (term.size() != shape.size())
      return im.nodeError(node, "term '" + term.str() + "' has " + std::to_string(term.size()) +
                                    " indices but input '" + node.input(t) + "' is " +
                                    shapeString(shape));
    for (size_t k = 0; k < term.size(); ++k) {
      char ch = term[k];
      if (!isLetter(ch))
        return im.nodeError(node, "equation '" + equation + "' has '" + std::string(1, ch) +
                                      "', which is not an index letter");
      if (term.find(ch) != k)
        return im.nodeError(node, "index '" + std::string(1, ch) + "' appears twice in term '" +
                                      term.str() +
                                      "' (a diagonal), which is not supported");
      auto [it, fresh] = sizes.try_emplace(ch, shape[k]);
      if (fresh)
        letters += ch;
      else if (it->second != shape[k])
        return im.nodeError(node, "index '" + std::string(1, ch) + "' has sizes " +
                                      std::to_string(it->second) + " and " +
                                      std::to_string(shape[k]));
    }
  }
  // The output: given, or (implicit mode) the letters that appear once, in
  // alphabetical order.
  std::string out;
  if (explicitOutput) {
    out = rhs.str();
    for (size_t k = 0; k < out.size(); ++k) {
      if (!isLetter(out[k]) || !sizes.count(out[k]))
        return im.nodeError(node, "output index '" + std::string(1, out[k]) +
                                      "' is not an index of the inputs");
      if (out.find(out[k]) != k)
        return im.nodeError(node, "output index '" + std::string(1, out[k]) +
                                      "' appears twice");
    }
  } else {
    // (std::map is in ASCII order: upper case first, as in numpy.)
    for (const auto &[ch, size] : sizes)
      if (llvm::count(lhs, ch) == 1)
        out += ch;
  }
  std::string loops = out;
  for (char ch : letters)
    if (out.find(ch) == std::string::npos)
      loops += ch;
  int64_t numLoops = loops.size(), numParallel = out.size();
  std::vector<int64_t> outShape;
  for (char ch : out)
    outShape.push_back(sizes[ch]);
  if (int64_t n = getElementCount(outShape); n > kMaxElements)
    return im.nodeError(node, "the result has " + describeTooManyElements(n));
  Type elem = typeOf(operands[0]).getElementType();
  for (Value v : operands)
    if (typeOf(v).getElementType() != elem)
      return im.nodeError(node, "operands have different element types");
  bool sums = numLoops > numParallel;
  if (operands.size() == 1 && !sums) {
    // A permutation: result dim d is input dim perm[d].
    SmallVector<int64_t> perm;
    for (char ch : out)
      perm.push_back(terms[0].find(ch));
    im.define(node, 0, im.transposed(operands[0], perm));
    return llvm::Error::success();
  }
  SmallVector<AffineMap> maps;
  for (StringRef term : terms) {
    SmallVector<AffineExpr> exprs;
    for (char ch : term)
      exprs.push_back(im.b.getAffineDimExpr(loops.find(ch)));
    maps.push_back(AffineMap::get(numLoops, 0, exprs, &im.ctx));
  }
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < numParallel; ++d)
    outExprs.push_back(im.b.getAffineDimExpr(d));
  maps.push_back(AffineMap::get(numLoops, 0, outExprs, &im.ctx));
  SmallVector<utils::IteratorType> iterators(numParallel, utils::IteratorType::parallel);
  iterators.append(numLoops - numParallel, utils::IteratorType::reduction);
  Value acc = sums ? im.filled(outShape, elem, 0.0) : im.emptyTensor(outShape, elem);
  auto op = linalg::GenericOp::create(
      im.b, TypeRange{acc.getType()}, operands, ValueRange{acc}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        ImplicitLocOpBuilder ib(loc, nested);
        Value r = args[0];
        if (operands.size() == 2)
          r = arith::MulFOp::create(ib, r, args[1]);
        if (sums)
          r = arith::AddFOp::create(ib, r, args.back());
        linalg::YieldOp::create(ib, r);
      });
  im.define(node, 0, op.getResult(0));
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerContractionOps(OpTable &table) {
  table.add("Gemm", {importGemm, 2, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("MatMul", {importMatMul, 2, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("Einsum", {importEinsum, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
}
