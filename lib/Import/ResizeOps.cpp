//===- ResizeOps.cpp - ONNX Resize ----------------------------------------===//
//
// Resize of the H and W dimensions of a 4-D input, `nearest` (the four
// nearest_mode roundings) or `linear`, with the half_pixel,
// pytorch_half_pixel, align_corners and asymmetric coordinate transforms,
// from constant scales or sizes. The shapes are static, so where each
// output row and column reads from is computed here, once, into small
// constant tables (as offsets into the flattened input); one linalg.generic
// over the output reads them along its H and W loops and gathers its one
// (nearest) or four (linear) input elements with a tensor.extract from the
// flattened input (one index: the vectorizer makes it a vector.gather,
// which it does not for a 4-D extract). An NHWC input stays NHWC.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

/// A scale as the diagnostics print it: "2", "1.5".
std::string scaleString(double scale) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", scale);
  return text;
}

/// "1x1x2x1.5".
std::string scalesString(ArrayRef<double> scales) {
  std::string s;
  for (size_t k = 0; k < scales.size(); ++k)
    s += (k ? "x" : "") + scaleString(scales[k]);
  return s;
}

/// Where output coordinate `x` of an axis of `in` input and `out` output
/// elements lies in the input (ONNX's coordinate_transformation_mode);
/// `length` is the output length before rounding down (in * scale, from
/// scales; the size, from sizes).
double sourceCoordinate(StringRef mode, int64_t x, int64_t in, int64_t out, double scale,
                        double length) {
  if (mode == "asymmetric")
    return x / scale;
  // The output length as rounded down, as ONNX Runtime divides (with a
  // non-integer in * scale the unrounded length moved outputs by up to 0.8).
  if (mode == "align_corners")
    return out == 1 ? 0.0 : x * double(in - 1) / double(out - 1);
  if (mode == "pytorch_half_pixel" && out <= 1)
    return 0.0;
  return (x + 0.5) / scale - 0.5; // half_pixel, pytorch_half_pixel
}

/// The input element a nearest-mode output element reads (nearest_mode).
int64_t nearestIndex(StringRef mode, double x, int64_t in) {
  double r = mode == "floor"               ? std::floor(x)
             : mode == "ceil"              ? std::ceil(x)
             : mode == "round_prefer_ceil" ? std::floor(x + 0.5)
                                           : std::ceil(x - 0.5); // round_prefer_floor
  return std::clamp<int64_t>(int64_t(r), 0, in - 1);
}

/// One axis's tables: the two input elements each output element reads
/// (clamped to the input: the spec pads with the edge values) and the
/// weight of the second; nearest mode uses the first only.
struct AxisTables {
  KnownTensor first, second, weight;
};

AxisTables axisTables(bool linear, StringRef coordMode, StringRef nearestMode, int64_t in,
                      int64_t out, double scale, double length) {
  AxisTables t;
  for (KnownTensor *k : {&t.first, &t.second})
    k->isFloat = false;
  for (int64_t x = 0; x < out; ++x) {
    double src = sourceCoordinate(coordMode, x, in, out, scale, length);
    if (!linear) {
      t.first.i.push_back(nearestIndex(nearestMode, src, in));
      continue;
    }
    double lo = std::floor(src);
    t.first.i.push_back(std::clamp<int64_t>(int64_t(lo), 0, in - 1));
    t.second.i.push_back(std::clamp<int64_t>(int64_t(lo) + 1, 0, in - 1));
    t.weight.f.push_back(src - lo);
  }
  return t;
}

llvm::Error importResize(ImportContext &im, const onnx::NodeProto &node) {
  std::string mode = stringAttr(node, "mode", "nearest");
  std::string coordMode = stringAttr(node, "coordinate_transformation_mode", "half_pixel");
  std::string nearestMode = stringAttr(node, "nearest_mode", "round_prefer_floor");
  if (mode != "nearest" && mode != "linear")
    return im.nodeError(node, "mode '" + mode + "' is not supported (nearest or linear)");
  if (coordMode != "half_pixel" && coordMode != "pytorch_half_pixel" &&
      coordMode != "align_corners" && coordMode != "asymmetric")
    return im.nodeError(node, "coordinate_transformation_mode '" + coordMode +
                                  "' is not supported (half_pixel, pytorch_half_pixel, "
                                  "align_corners or asymmetric)");
  if (mode == "nearest" && nearestMode != "round_prefer_floor" &&
      nearestMode != "round_prefer_ceil" && nearestMode != "floor" && nearestMode != "ceil")
    return im.nodeError(node, "nearest_mode '" + nearestMode + "' is not supported");
  if (intAttr(node, "antialias", 0))
    return im.nodeError(node, "antialias is not supported");

  bool nhwc = im.isChannelsLast(node.input(0));
  llvm::Expected<Value> x = im.getAsStored(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() != 4)
    return im.nodeError(node, "only 4-D (NCHW) inputs are supported, got " +
                                  shapeString(xt.getShape()));
  Type elem = xt.getElementType();
  if (!isa<FloatType>(elem))
    return im.nodeError(node, "only floating-point inputs are supported");
  // The model's N x C x H x W.
  std::vector<int64_t> in(xt.getShape().begin(), xt.getShape().end());
  if (nhwc)
    in = {in[0], in[3], in[1], in[2]};

  // scales or sizes, constants, for `axes` (opset 18; all by default).
  std::vector<int64_t> axes = {0, 1, 2, 3};
  if (attr(node, "axes")) {
    llvm::Expected<std::vector<int64_t>> a =
        im.normalizeDistinctAxes(node, intsAttr(node, "axes"), 4);
    if (!a)
      return a.takeError();
    axes = *a;
  }
  const KnownTensor *scalesT = nullptr, *sizesT = nullptr;
  for (int k : {2, 3}) {
    if (!hasInput(node, k))
      continue;
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, k);
    if (!t)
      return t.takeError();
    if ((*t)->size() > 0) // opset 11 passes an empty scales next to sizes
      (k == 2 ? scalesT : sizesT) = *t;
  }
  if (scalesT && sizesT)
    return im.nodeError(node, "has both scales and sizes; only one may be given");
  if (!scalesT && !sizesT)
    return im.nodeError(node, "has neither scales nor sizes");
  const KnownTensor *given = scalesT ? scalesT : sizesT;
  if (given->size() != int64_t(axes.size()))
    return im.nodeError(node, std::string(scalesT ? "scales" : "sizes") + " has " +
                                  std::to_string(given->size()) + " values for " +
                                  std::to_string(axes.size()) + " axes");
  if (sizesT && sizesT->isFloat)
    return im.nodeError(node, "sizes must be integers");
  if (sizesT && stringAttr(node, "keep_aspect_ratio_policy", "stretch") != "stretch")
    return im.nodeError(node, "keep_aspect_ratio_policy '" +
                                  stringAttr(node, "keep_aspect_ratio_policy", "") +
                                  "' is not supported (only stretch)");
  // Per dimension: the output size, the scale and the unrounded length.
  std::vector<int64_t> out = in;
  std::vector<double> scale(4, 1.0), length(in.begin(), in.end());
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t d = axes[k];
    if (scalesT) {
      double s = scalesT->at(k);
      if (!(s > 0.0) || !std::isfinite(s) || double(in[d]) * s >= double(kMaxElements))
        return im.nodeError(node, "scale " + scaleString(s) +
                                      " must be positive and finite, and keep the dimension "
                                      "below 2^31");
      scale[d] = s;
      length[d] = double(in[d]) * s;
      out[d] = int64_t(std::floor(length[d]));
    } else {
      int64_t n = sizesT->i[k];
      if (n < 1 || n > kMaxElements)
        return im.nodeError(node, "size " + std::to_string(n) + " must be between 1 and " +
                                      std::to_string(kMaxElements));
      out[d] = n;
      length[d] = double(n);
      scale[d] = double(n) / double(in[d]);
    }
  }
  if (out[0] != in[0] || out[1] != in[1] || scale[0] != 1.0 || scale[1] != 1.0)
    return im.nodeError(node, "only H and W of a 4-D input may be resized; the scales are " +
                                  scalesString(scale) + " (N and C must be 1)");
  if (out[2] < 1 || out[3] < 1)
    return im.nodeError(node, "the result " + shapeString(out) + " has no elements");
  if (int64_t n = getElementCount(out); n > kMaxElements)
    return im.nodeError(node, "the result has " + describeTooManyElements(n));

  bool linear = mode == "linear";
  AxisTables h = axisTables(linear, coordMode, nearestMode, in[2], out[2], scale[2], length[2]);
  AxisTables w = axisTables(linear, coordMode, nearestMode, in[3], out[3], scale[3], length[3]);
  // Strides of the input as stored: element (n, c, h, w) is at n * sN +
  // c * sC + h * sH + w * sW of the flattened input; the tables hold h * sH
  // and w * sW.
  int64_t sW = nhwc ? in[1] : 1, sH = in[3] * sW, sC = nhwc ? 1 : in[2] * in[3],
          sN = in[1] * in[2] * in[3];
  // The result's loops as stored, and the H and W ones the tables follow.
  std::vector<int64_t> resultShape =
      nhwc ? std::vector<int64_t>{out[0], out[2], out[3], out[1]} : out;
  int64_t hLoop = nhwc ? 1 : 2, wLoop = hLoop + 1, cLoop = nhwc ? 3 : 1;
  SmallVector<Value> tables;
  SmallVector<AffineMap> maps;
  auto addTable = [&](KnownTensor &t, int64_t loop, int64_t stride) {
    t.shape = {resultShape[loop]};
    for (int64_t &v : t.i)
      v *= stride;
    tables.push_back(im.materialize(t, t.isFloat ? elem : Type(im.b.getI64Type())));
    maps.push_back(AffineMap::get(4, 0, {im.b.getAffineDimExpr(loop)}, &im.ctx));
  };
  addTable(h.first, hLoop, sH);
  if (linear) {
    addTable(h.second, hLoop, sH);
    addTable(h.weight, hLoop, 1);
  }
  addTable(w.first, wLoop, sW);
  if (linear) {
    addTable(w.second, wLoop, sW);
    addTable(w.weight, wLoop, 1);
  }
  maps.push_back(im.b.getMultiDimIdentityMap(4));
  Value input = im.reshaped(*x, {getElementCount(in)});
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  auto op = linalg::GenericOp::create(
      im.b, TypeRange{RankedTensorType::get(resultShape, elem)}, tables,
      ValueRange{im.emptyTensor(resultShape, elem)}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange t) {
        ImplicitLocOpBuilder ib(loc, nested);
        auto strided = [&](int64_t loop, int64_t stride) -> Value {
          Value i = linalg::IndexOp::create(ib, loop);
          if (stride == 1)
            return i;
          return arith::MulIOp::create(ib, i,
                                       arith::ConstantOp::create(ib, ib.getIndexAttr(stride)));
        };
        Value nOffset = strided(0, sN);
        Value base = arith::AddIOp::create(ib, nOffset, strided(cLoop, sC));
        auto load = [&](Value hOffset, Value wOffset) -> Value {
          Value offset = arith::AddIOp::create(ib, hOffset, wOffset);
          Value at = arith::AddIOp::create(
              ib, base, arith::IndexCastOp::create(ib, ib.getIndexType(), offset));
          return tensor::ExtractOp::create(ib, input, ValueRange{at});
        };
        Value r;
        if (!linear) {
          r = load(t[0], t[1]);
        } else {
          // (1 - a) p + a q along W on rows h0 and h1, then along H.
          Value one = arith::ConstantOp::create(ib, ib.getFloatAttr(elem, 1.0));
          auto lerp = [&](Value p, Value q, Value a) -> Value {
            Value wp = arith::MulFOp::create(ib, arith::SubFOp::create(ib, one, a), p);
            return arith::AddFOp::create(ib, wp, arith::MulFOp::create(ib, a, q));
          };
          Value h0 = t[0], h1 = t[1], ha = t[2], w0 = t[3], w1 = t[4], wa = t[5];
          Value p00 = load(h0, w0), p01 = load(h0, w1), p10 = load(h1, w0), p11 = load(h1, w1);
          Value top = lerp(p00, p01, wa);
          Value bottom = lerp(p10, p11, wa);
          r = lerp(top, bottom, ha);
        }
        linalg::YieldOp::create(ib, r);
      });
  im.defineIn(nhwc, node.output(0), op.getResult(0));
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerResizeOps(OpTable &table) {
  table.add("Resize", {importResize, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
}
