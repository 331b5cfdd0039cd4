//===- Winograd.cpp - 3x3 convolutions by Winograd's minimal filtering ----===//
//
// A 3x3 stride-1 convolution becomes input transform + batched matmul +
// output transform (see the pass description in Passes.td). The matmul is
// left as a linalg op so that annotate, the tuner and the constant-pack
// folding treat it like any matmul; the two transforms are memory-bound
// and emitted directly as vector code, since linalg has no vectorizable
// form for their strided windows.
//
//===----------------------------------------------------------------------===//

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/ConstantData.h"
#include "dltune/Transforms/EpilogueFusion.h"
#include "dltune/Transforms/Passes.h"
#include "dltune/Transforms/SchedulePlan.h"
#include "dltune/Transforms/WinogradMatrices.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/STLExtras.h"

#include <cstring>
#include <functional>

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEWINOGRAD
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {

/// The f32 elements of a constant tensor (dense or dense resource).
static std::optional<std::vector<float>> getConstantFloats(Value value) {
  Attribute attr;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.getElementType().isF32() || !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  int64_t count = type.getNumElements();
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr); dense && dense.isSplat())
    return std::vector<float>(count, dense.getSplatValue<float>());
  std::optional<ArrayRef<char>> bytes = getDenseConstantBytes(attr);
  if (!bytes || static_cast<int64_t>(bytes->size()) != count * 4)
    return std::nullopt;
  std::vector<float> values(count);
  std::memcpy(values.data(), bytes->data(), count * 4);
  return values;
}

/// U[xi * alpha + nu][c][f] = (G g[:, :, c, f] G^T)[xi][nu] for an HWCF
/// 3x3 filter, computed in double.
static std::vector<float> transformFilter(const WinogradMatrices &w,
                                          const std::vector<float> &filter, int64_t channels,
                                          int64_t filters) {
  int a = w.alpha, r = w.filterSize;
  int64_t cf = channels * filters;
  std::vector<float> result(static_cast<size_t>(a * a) * cf);
  std::vector<double> rows(static_cast<size_t>(a * r)); // (G g)[xi][j]
  for (int64_t e = 0; e < cf; ++e) {
    for (int xi = 0; xi < a; ++xi)
      for (int j = 0; j < r; ++j) {
        double sum = 0;
        for (int i = 0; i < r; ++i)
          sum += w.g(xi, i) * filter[(i * r + j) * cf + e];
        rows[xi * r + j] = sum;
      }
    for (int xi = 0; xi < a; ++xi)
      for (int nu = 0; nu < a; ++nu) {
        double sum = 0;
        for (int j = 0; j < r; ++j)
          sum += rows[xi * r + j] * w.g(nu, j);
        result[(xi * a + nu) * cf + e] = static_cast<float>(sum);
      }
  }
  return result;
}

/// Emits sum_k coefficients[k] * terms[k], skipping zero coefficients and
/// using adds and subtracts for +-1 (most of B^T's and A^T's entries).
static Value emitCombination(ImplicitLocOpBuilder &b, ArrayRef<double> coefficients,
                             ArrayRef<Value> terms) {
  auto type = cast<VectorType>(terms.front().getType());
  auto splat = [&](double c) {
    return arith::ConstantOp::create(
               b, DenseElementsAttr::get(type, b.getF32FloatAttr(static_cast<float>(c))))
        .getResult();
  };
  // Start from a +1 term where there is one (no negation needed).
  size_t first = llvm::find(coefficients, 1.0) - coefficients.begin();
  Value sum = first < terms.size() ? terms[first] : Value();
  for (auto [i, c, term] : llvm::enumerate(coefficients, terms)) {
    if (c == 0 || i == first)
      continue;
    if (!sum)
      sum = c == 1    ? term
            : c == -1 ? arith::NegFOp::create(b, term).getResult()
                      : arith::MulFOp::create(b, splat(c), term).getResult();
    else if (c == 1)
      sum = arith::AddFOp::create(b, sum, term);
    else if (c == -1)
      sum = arith::SubFOp::create(b, sum, term);
    else
      sum = vector::FMAOp::create(b, splat(c), term, sum);
  }
  return sum ? sum : splat(0);
}

/// Left-multiplies the alpha x alpha (or m x alpha) tile `tile` (row-major
/// vectors) by `matrix` (rows x alpha) and right-multiplies by `matrix`^T:
/// matrix * tile * matrix^T, the shape of both transforms.
static SmallVector<Value> emitSandwich(ImplicitLocOpBuilder &b, int rows, int alpha,
                                       function_ref<double(int, int)> matrix,
                                       ArrayRef<Value> tile) {
  SmallVector<Value> left(rows * alpha); // (matrix * tile)[row][col]
  SmallVector<double> coefficients(alpha);
  SmallVector<Value> terms(alpha);
  for (int row = 0; row < rows; ++row)
    for (int col = 0; col < alpha; ++col) {
      for (int k = 0; k < alpha; ++k) {
        coefficients[k] = matrix(row, k);
        terms[k] = tile[k * alpha + col];
      }
      left[row * alpha + col] = emitCombination(b, coefficients, terms);
    }
  SmallVector<Value> result(rows * rows);
  for (int row = 0; row < rows; ++row)
    for (int col = 0; col < rows; ++col) {
      for (int k = 0; k < alpha; ++k)
        coefficients[k] = matrix(col, k);
      result[row * rows + col] =
          emitCombination(b, coefficients, ArrayRef<Value>(left).slice(row * alpha, alpha));
    }
  return result;
}

struct ConvShape {
  int64_t n, inH, inW, c, outH, outW, f;
  int64_t tilesH, tilesW, tiles, paddedTiles;
};

/// scf.for nest over [0, bounds[d]) with `steps`, threading `init` through;
/// `body` gets the induction variables and the carried tensor and returns
/// the tensor to yield.
static Value
emitLoopNest(ImplicitLocOpBuilder &b, ArrayRef<int64_t> bounds, ArrayRef<int64_t> steps, Value init,
             function_ref<Value(ImplicitLocOpBuilder &, ArrayRef<Value>, Value)> body) {
  SmallVector<Value> ivs;
  std::function<Value(size_t, Value)> build = [&](size_t depth, Value carried) -> Value {
    if (depth == bounds.size())
      return body(b, ivs, carried);
    Value lb = arith::ConstantIndexOp::create(b, 0);
    Value ub = arith::ConstantIndexOp::create(b, bounds[depth]);
    Value step = arith::ConstantIndexOp::create(b, steps[depth]);
    auto loop = scf::ForOp::create(b, lb, ub, step, ValueRange{carried});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ivs.push_back(loop.getInductionVar());
    Value yielded = build(depth + 1, loop.getRegionIterArgs().front());
    ivs.pop_back();
    scf::YieldOp::create(b, yielded);
    return loop.getResult(0);
  };
  return build(0, init);
}

static Value affineIndex(ImplicitLocOpBuilder &b, Value iv, int64_t scale, int64_t offset) {
  Value v = iv;
  if (scale != 1)
    v = arith::MulIOp::create(b, v, arith::ConstantIndexOp::create(b, scale));
  if (offset != 0)
    v = arith::AddIOp::create(b, v, arith::ConstantIndexOp::create(b, offset));
  return v;
}

/// The index of tile row (n, ty): n * tilesH + ty.
static Value rowIndex(ImplicitLocOpBuilder &b, const ConvShape &s, Value n, Value ty) {
  return arith::AddIOp::create(b, affineIndex(b, n, s.tilesH, 0), ty);
}

/// p = (n * tilesH + ty) * tilesW + tx.
static Value tileIndex(ImplicitLocOpBuilder &b, const ConvShape &s, Value n, Value ty, Value tx) {
  return arith::AddIOp::create(b, affineIndex(b, rowIndex(b, s, n, ty), s.tilesW, 0), tx);
}

static SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); });
}

/// One iteration of the transforms' loops: a tile and a vector of channels
/// (input channels or filters), `whole` unless the vector runs past them.
/// The carried tensor is either the whole result (one thread) or the slice
/// of one tile row (n, ty) that a thread of the scf.forall owns:
/// `carriedN`/`carriedTy` are then 0 and `carriedTile` is tx, else they are
/// n, ty and the tile's index in the whole result.
struct TileIteration {
  Value n, ty, tx, channel;
  Value carriedN, carriedTy, carriedTile;
  VectorType vectorType;
  bool whole;
};

/// Where a tile row's slice lies in the result the loops build.
struct RowSlice {
  /// Offsets of row (n, ty).
  function_ref<SmallVector<OpFoldResult>(ImplicitLocOpBuilder &, Value n, Value ty)> offsets;
  SmallVector<int64_t> sizes;
};

/// Loops over every tile and over `channels` in vectors of up to `lanes`.
/// With `threads` > 1 the tile rows (n x tilesH of them) are an scf.forall
/// run by that many threads (dltune.num_threads), each writing its row's
/// slice of the result; the tiles of a row and the channels stay scf.for.
static Value
emitTileLoops(ImplicitLocOpBuilder &b, const ConvShape &s, int64_t channels, int64_t lanes,
              int64_t threads, const RowSlice &row, Value init,
              function_ref<Value(ImplicitLocOpBuilder &, const TileIteration &, Value)> body) {
  auto vectorType = VectorType::get({std::min(lanes, channels)}, b.getF32Type());
  int64_t step = vectorType.getDimSize(0);
  bool whole = channels % step == 0;
  int64_t rows = s.n * s.tilesH;
  if (threads <= 1 || rows < 2)
    return emitLoopNest(b, {s.n, s.tilesH, s.tilesW, channels}, {1, 1, 1, step}, init,
                        [&](ImplicitLocOpBuilder &b, ArrayRef<Value> ivs, Value carried) {
                          TileIteration it{ivs[0], ivs[1], ivs[2], ivs[3], ivs[0], ivs[1],
                                           tileIndex(b, s, ivs[0], ivs[1], ivs[2]), vectorType,
                                           whole};
                          return body(b, it, carried);
                        });
  // One flat dimension over the rows: a unit batch dimension would be folded
  // away by canonicalization, and the team size with it.
  auto forall = scf::ForallOp::create(b, ArrayRef<OpFoldResult>{b.getIndexAttr(rows)},
                                      ValueRange{init}, std::nullopt);
  forall->setAttr(DLTuneDialect::kNumThreadsAttrName,
                  b.getI64IntegerAttr(std::min(threads, rows)));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  Value r = forall.getInductionVars().front();
  Value tilesH = arith::ConstantIndexOp::create(b, s.tilesH);
  Value n = arith::DivUIOp::create(b, r, tilesH);
  Value ty = arith::RemUIOp::create(b, r, tilesH);
  Value shared = forall.getRegionIterArgs().front();
  SmallVector<OpFoldResult> offsets = row.offsets(b, n, ty);
  SmallVector<OpFoldResult> sizes = indexAttrs(b, row.sizes);
  SmallVector<OpFoldResult> strides(row.sizes.size(), b.getIndexAttr(1));
  Value slice = tensor::ExtractSliceOp::create(b, shared, offsets, sizes, strides);
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value updated = emitLoopNest(b, {s.tilesW, channels}, {1, step}, slice,
                               [&](ImplicitLocOpBuilder &b, ArrayRef<Value> ivs, Value carried) {
                                 TileIteration it{n,    ty,   ivs[0], ivs[1],    zero,
                                                  zero, ivs[0], vectorType, whole};
                                 return body(b, it, carried);
                               });
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, updated, shared, offsets, sizes, strides);
  return forall.getResult(0);
}

/// Is `value` a linalg.fill of +0.0 into a tensor.empty (an init whose
/// contents need not be read)?
static bool isZeroFilledEmpty(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.value(), m_PosZeroFloat()) &&
         fill.output().getDefiningOp<tensor::EmptyOp>();
}

/// Can `epilogue` (the conv's fusable elementwise consumer) be evaluated in
/// the output transform: every body op elementwise-mappable, no
/// linalg.index, its init not read, and every other input indexed by the
/// filter dimension last or not at all (a vector read or a broadcast)?
static bool canEmitEpilogue(linalg::GenericOp epilogue) {
  Block &body = epilogue.getRegion().front();
  if (!body.getArgument(body.getNumArguments() - 1).use_empty())
    return false;
  for (Operation &op : body.without_terminator())
    if (!OpTrait::hasElementwiseMappableTraits(&op) && !isa<arith::ConstantOp>(op))
      return false;
  // The yielded value must come from the body (a captured one is not mapped).
  Value yielded = body.getTerminator()->getOperand(0);
  if (yielded.getParentBlock() != &body)
    return false;
  unsigned filterDim = epilogue.getNumLoops() - 1;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !type.hasStaticShape())
      return false;
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    for (unsigned r = 0; r + 1 < map.getNumResults(); ++r)
      if (map.getDimPosition(r) == filterDim)
        return false;
  }
  return true;
}

/// The epilogue's body on vectors at output position `at` (n, h, w, f):
/// `convValue` for the conv's result, other inputs read through their
/// maps (indices clamped into the operand, since padded tiles run past
/// the output), scalars and constants broadcast.
static Value emitEpilogue(ImplicitLocOpBuilder &b, linalg::GenericOp epilogue, Value convResult,
                          Value convValue, ArrayRef<Value> at, VectorType vectorType, bool whole) {
  Block &body = epilogue.getRegion().front();
  IRMapping mapping;
  unsigned filterDim = epilogue.getNumLoops() - 1;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    BlockArgument arg = body.getArgument(input->getOperandNumber());
    if (input->get() == convResult) {
      mapping.map(arg, convValue);
      continue;
    }
    auto type = cast<RankedTensorType>(input->get().getType());
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    SmallVector<Value> indices;
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      Value last = arith::ConstantIndexOp::create(b, type.getDimSize(r) - 1);
      indices.push_back(arith::MinSIOp::create(b, at[map.getDimPosition(r)], last));
    }
    bool vectorRead = map.getNumResults() > 0 &&
                      map.getDimPosition(map.getNumResults() - 1) == filterDim;
    Type element = type.getElementType();
    auto vectorOf = VectorType::get(vectorType.getShape(), element);
    Value value;
    if (vectorRead) {
      indices.back() = at[filterDim];
      Value padding = arith::ConstantOp::create(b, b.getZeroAttr(element));
      value = vector::TransferReadOp::create(b, vectorOf, input->get(), indices, padding,
                                             ArrayRef<bool>{whole});
    } else {
      value = vector::BroadcastOp::create(
          b, vectorOf, tensor::ExtractOp::create(b, input->get(), indices));
    }
    mapping.map(arg, value);
  }
  for (Operation &op : body.without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto splatType = VectorType::get(vectorType.getShape(), constant.getType());
      mapping.map(constant.getResult(),
                  arith::ConstantOp::create(
                      b, splatType,
                      DenseElementsAttr::get(splatType, cast<TypedAttr>(constant.getValue())))
                      .getResult());
      continue;
    }
    for (Value operand : op.getOperands())
      if (!mapping.contains(operand))
        mapping.map(operand, vector::BroadcastOp::create(
                                 b, VectorType::get(vectorType.getShape(), operand.getType()),
                                 operand)
                                 .getResult());
    Operation *clone = b.clone(op, mapping);
    for (OpResult result : clone->getResults())
      result.setType(VectorType::get(vectorType.getShape(), result.getType()));
  }
  return mapping.lookup(body.getTerminator()->getOperand(0));
}

static LogicalResult rewriteConv(linalg::Conv2DNhwcHwcfOp conv, const WinogradMatrices &w,
                                 int64_t lanes, int64_t threads, int64_t minChannels,
                                 int64_t minTiles, bool fuseEpilogue, std::string &whyNot) {
  // A space, config, target or upstream schedule on the conv is the user's
  // choice for the direct conv; the rewrite would drop it.
  for (StringRef name : {DLTuneDialect::kSpaceAttrName, DLTuneDialect::kConfigAttrName,
                         DLTuneDialect::kTargetAttrName, DLTuneDialect::kScheduleAttrName})
    if (conv->hasAttr(name)) {
      whyNot = "the conv carries " + name.str();
      return failure();
    }
  auto inputType = dyn_cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto filterType = dyn_cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto outputType = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
  if (!conv.hasPureTensorSemantics() || !inputType || !filterType || !outputType ||
      !inputType.hasStaticShape() || !filterType.hasStaticShape() || !outputType.hasStaticShape()) {
    whyNot = "not a convolution of static tensors";
    return failure();
  }
  if (!inputType.getElementType().isF32() || !filterType.getElementType().isF32() ||
      !outputType.getElementType().isF32()) {
    whyNot = "elements are not f32";
    return failure();
  }
  if (!llvm::all_of(conv.getStrides().getValues<int64_t>(), [](int64_t v) { return v == 1; }) ||
      !llvm::all_of(conv.getDilations().getValues<int64_t>(), [](int64_t v) { return v == 1; })) {
    whyNot = "strides or dilations are not 1";
    return failure();
  }
  ArrayRef<int64_t> fs = filterType.getShape();
  if (fs[0] != w.filterSize || fs[1] != w.filterSize) {
    whyNot = "the filter is not 3x3";
    return failure();
  }
  ConvShape s;
  s.n = inputType.getDimSize(0);
  s.inH = inputType.getDimSize(1);
  s.inW = inputType.getDimSize(2);
  s.c = inputType.getDimSize(3);
  s.outH = outputType.getDimSize(1);
  s.outW = outputType.getDimSize(2);
  s.f = outputType.getDimSize(3);
  if (s.c < minChannels || s.f < minChannels) {
    whyNot = "fewer than " + std::to_string(minChannels) + " channels";
    return failure();
  }
  int m = w.outputTile, a = w.alpha;
  s.tilesH = llvm::divideCeil(s.outH, m);
  s.tilesW = llvm::divideCeil(s.outW, m);
  s.tiles = s.n * s.tilesH * s.tilesW;
  if (s.tiles < minTiles) {
    whyNot = std::to_string(s.tiles) + " tiles, fewer than " + std::to_string(minTiles);
    return failure();
  }
  // Rows of V and M in whole register tiles of the matmul.
  s.paddedTiles = llvm::alignTo(s.tiles, 8);
  std::optional<std::vector<float>> filter = getConstantFloats(conv.getInputs()[1]);
  if (!filter) {
    whyNot = "the filter is not a constant";
    return failure();
  }

  Value convResult = conv->getResult(0);
  // The bias, ReLU, residual add that follow are computed on each output
  // vector as it is written (the conv's epilogue fusion, carried over).
  // Everything is then built at the epilogue, where its other inputs (a
  // residual computed after the conv) exist too.
  linalg::GenericOp epilogue = fuseEpilogue ? getFusableEpilogue(conv) : nullptr;
  if (epilogue && !canEmitEpilogue(epilogue))
    epilogue = nullptr;
  ImplicitLocOpBuilder b(conv.getLoc(),
                         epilogue ? epilogue.getOperation() : conv.getOperation());
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, b.getF32FloatAttr(0));

  // 1. U = G g G^T, a constant.
  auto uType = RankedTensorType::get({a * a, s.c, s.f}, f32);
  std::vector<float> u = transformFilter(w, *filter, s.c, s.f);
  Value filterTransformed = arith::ConstantOp::create(
      b, uType,
      getDenseResourceAttr(uType, "dltune_winograd_filter",
                           ArrayRef<char>(reinterpret_cast<const char *>(u.data()),
                                          u.size() * sizeof(float))));

  // 2. V = B^T d B per tile and channel vector. The input is padded (high)
  // so that every tile's window lies inside it.
  Value input = conv.getInputs()[0];
  int64_t needH = s.tilesH * m + w.filterSize - 1, needW = s.tilesW * m + w.filterSize - 1;
  if (needH > s.inH || needW > s.inW) {
    // An input larger than the windows need (linalg allows it) keeps its size.
    int64_t padH = std::max<int64_t>(0, needH - s.inH), padW = std::max<int64_t>(0, needW - s.inW);
    SmallVector<OpFoldResult> low(4, b.getIndexAttr(0));
    SmallVector<OpFoldResult> high = {b.getIndexAttr(0), b.getIndexAttr(padH),
                                      b.getIndexAttr(padW), b.getIndexAttr(0)};
    auto paddedType = RankedTensorType::get({s.n, s.inH + padH, s.inW + padW, s.c}, f32);
    input = tensor::PadOp::create(b, paddedType, input, low, high, zero);
  }
  auto vType = RankedTensorType::get({a * a, s.paddedTiles, s.c}, f32);
  Value transformedInput = tensor::EmptyOp::create(b, vType.getShape(), f32);
  if (s.paddedTiles > s.tiles) {
    Value tail =
        tensor::EmptyOp::create(b, ArrayRef<int64_t>{a * a, s.paddedTiles - s.tiles, s.c}, f32);
    tail = linalg::FillOp::create(b, zero, tail).getResult(0);
    transformedInput = tensor::InsertSliceOp::create(
        b, tail, transformedInput, indexAttrs(b, {0, s.tiles, 0}),
        indexAttrs(b, {a * a, s.paddedTiles - s.tiles, s.c}), indexAttrs(b, {1, 1, 1}));
  }
  auto inputRow = [&](ImplicitLocOpBuilder &b, Value n, Value ty) -> SmallVector<OpFoldResult> {
    return {b.getIndexAttr(0), affineIndex(b, rowIndex(b, s, n, ty), s.tilesW, 0),
            b.getIndexAttr(0)};
  };
  transformedInput =
      emitTileLoops(b, s, s.c, lanes, threads, RowSlice{inputRow, {a * a, s.tilesW, s.c}},
                    transformedInput,
                    [&](ImplicitLocOpBuilder &b, const TileIteration &it, Value v) -> Value {
                      SmallVector<Value> window(a * a);
                      for (int i = 0; i < a; ++i) {
                        Value h = affineIndex(b, it.ty, m, i);
                        for (int j = 0; j < a; ++j)
                          window[i * a + j] = vector::TransferReadOp::create(
                              b, it.vectorType, input,
                              ValueRange{it.n, h, affineIndex(b, it.tx, m, j), it.channel}, zero,
                              ArrayRef<bool>{it.whole});
                      }
                      SmallVector<Value> transformed = emitSandwich(
                          b, a, a, [&](int r, int k) { return w.bt(r, k); }, window);
                      for (int k = 0; k < a * a; ++k)
                        v = vector::TransferWriteOp::create(
                                b, transformed[k], v,
                                ValueRange{arith::ConstantIndexOp::create(b, k), it.carriedTile,
                                           it.channel},
                                ArrayRef<bool>{it.whole})
                                .getResult();
                      return v;
                    });

  // 3. M = V x U, alpha^2 independent matmuls.
  auto mType = RankedTensorType::get({a * a, s.paddedTiles, s.f}, f32);
  Value products = tensor::EmptyOp::create(b, mType.getShape(), f32);
  products = linalg::FillOp::create(b, zero, products).getResult(0);
  products = linalg::BatchMatmulOp::create(b, TypeRange{mType},
                                           ValueRange{transformedInput, filterTransformed},
                                           ValueRange{products})
                 .getResult(0);

  // 4. Y = init + A^T M A per tile and filter vector, into an output padded
  // to whole tiles.
  Value init = conv.getDpsInits()[0];
  bool accumulate = !isZeroFilledEmpty(init);
  int64_t paddedH = s.tilesH * m, paddedW = s.tilesW * m;
  bool padOutput = paddedH != s.outH || paddedW != s.outW;
  auto yType = RankedTensorType::get({s.n, paddedH, paddedW, s.f}, f32);
  Value output;
  if (!accumulate)
    output = tensor::EmptyOp::create(b, yType.getShape(), f32);
  else if (padOutput)
    output = tensor::PadOp::create(
        b, yType, init, SmallVector<OpFoldResult>(4, b.getIndexAttr(0)),
        SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(paddedH - s.outH),
                                  b.getIndexAttr(paddedW - s.outW), b.getIndexAttr(0)},
        zero);
  else
    output = init;
  auto outputRow = [&](ImplicitLocOpBuilder &b, Value n,
                       Value ty) -> SmallVector<OpFoldResult> {
    return {n, affineIndex(b, ty, m, 0), b.getIndexAttr(0), b.getIndexAttr(0)};
  };
  output = emitTileLoops(
      b, s, s.f, lanes, threads, RowSlice{outputRow, {1, m, paddedW, s.f}}, output,
      [&](ImplicitLocOpBuilder &b, const TileIteration &it, Value y) -> Value {
        Value p = tileIndex(b, s, it.n, it.ty, it.tx);
        SmallVector<Value> tile(a * a);
        for (int k = 0; k < a * a; ++k)
          tile[k] = vector::TransferReadOp::create(
              b, it.vectorType, products,
              ValueRange{arith::ConstantIndexOp::create(b, k), p, it.channel}, zero,
              ArrayRef<bool>{it.whole});
        SmallVector<Value> result = emitSandwich(
            b, m, a, [&](int r, int k) { return w.at(r, k); }, tile);
        for (int i = 0; i < m; ++i) {
          Value h = affineIndex(b, it.ty, m, i);
          Value hCarried = affineIndex(b, it.carriedTy, m, i);
          for (int j = 0; j < m; ++j) {
            Value x = affineIndex(b, it.tx, m, j);
            SmallVector<Value> at = {it.n, h, x, it.channel};
            SmallVector<Value> atCarried = {it.carriedN, hCarried, x, it.channel};
            Value value = result[i * m + j];
            if (accumulate)
              value = arith::AddFOp::create(
                  b,
                  vector::TransferReadOp::create(b, it.vectorType, y, atCarried, zero,
                                                 ArrayRef<bool>{it.whole}),
                  value);
            if (epilogue)
              value = emitEpilogue(b, epilogue, convResult, value, at, it.vectorType, it.whole);
            y = vector::TransferWriteOp::create(b, value, y, atCarried, ArrayRef<bool>{it.whole})
                    .getResult();
          }
        }
        return y;
      });
  if (padOutput)
    output = tensor::ExtractSliceOp::create(b, outputType, output, indexAttrs(b, {0, 0, 0, 0}),
                                            indexAttrs(b, {s.n, s.outH, s.outW, s.f}),
                                            indexAttrs(b, {1, 1, 1, 1}));
  if (epilogue) {
    epilogue->getResult(0).replaceAllUsesWith(output);
    epilogue->erase();
  } else {
    convResult.replaceAllUsesWith(output);
  }
  conv->erase();
  return success();
}

/// m of F(m x m, 3 x 3) for `conv` when the pass chooses: 4 where the
/// output holds at least `largeTileMinTiles` tiles of 4 x 4, else 2. m = 4
/// halves the matmul's FLOPs and shrinks V and M (2.25 against 4 values per
/// output), but its U is 2.25x m = 2's, which only pays where enough tiles
/// reuse it (ResNet-18, paired in-process, one thread: m = 4 for the
/// layers with 49 or more tiles 1.08-1.11x over m = 2 everywhere, for
/// those with 16 or more 1.08x, for 196 or more 1.06x; 2026-11-26, 5b00af0).
static int64_t chooseOutputTile(linalg::Conv2DNhwcHwcfOp conv, int64_t largeTileMinTiles) {
  auto outputType = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
  if (!outputType || !outputType.hasStaticShape())
    return 2; // rewriteConv refuses it with its reason
  int64_t tiles = outputType.getDimSize(0) * llvm::divideCeil(outputType.getDimSize(1), 4) *
                  llvm::divideCeil(outputType.getDimSize(2), 4);
  return tiles >= largeTileMinTiles ? 4 : 2;
}

struct WinogradPass : public dltune::impl::DLTuneWinogradBase<WinogradPass> {
  using DLTuneWinogradBase::DLTuneWinogradBase;

  void runOnOperation() override {
    if (outputTile != 0 && !WinogradMatrices::getForFilter3(outputTile)) {
      getOperation().emitError() << "dltune-winograd: output-tile must be 0 (per "
                                    "convolution), 2 or 4, got "
                                 << static_cast<int64_t>(outputTile);
      return signalPassFailure();
    }
    if (lanes < 0 || minChannels < 0 || minTiles < 0 || threads < 0 || largeTileMinTiles < 0) {
      getOperation().emitError() << "dltune-winograd: lanes, threads, min-channels, "
                                    "min-tiles and large-tile-min-tiles must not be negative";
      return signalPassFailure();
    }
    int64_t vectorLanes = lanes > 0 ? lanes : CpuTarget::getHost(1).lanes;
    int64_t transformThreads = CpuTarget::resolveThreads(threads);
    // One elementwise generic per conv epilogue (bias, ReLU, residual add),
    // as --dltune-annotate makes them.
    if (fuseEpilogues && failed(mergeElementwiseChains(getOperation())))
      getOperation().emitRemark() << "dltune-winograd: merging elementwise chains did not "
                                     "converge; some epilogues stay separate";
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp op) { convs.push_back(op); });
    for (linalg::Conv2DNhwcHwcfOp conv : convs) {
      std::string whyNot;
      Location loc = conv.getLoc();
      const WinogradMatrices *matrices = WinogradMatrices::getForFilter3(
          outputTile != 0 ? outputTile : chooseOutputTile(conv, largeTileMinTiles));
      if (failed(rewriteConv(conv, *matrices, vectorLanes, transformThreads, minChannels,
                             minTiles, fuseEpilogues, whyNot)))
        emitRemark(loc) << "dltune-winograd: left alone: " << whyNot;
    }
  }
};

} // namespace
