//===- PoolingOps.cpp - ONNX MaxPool, AveragePool, GlobalAveragePool ------===//
//
// Pooling windows as linalg pooling ops, NHWC with channelsLast or NCHW;
// AveragePool divides by a constant of window sizes (padding counted with
// count_include_pad), GlobalAveragePool is a mean over H and W.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

llvm::Error importPool(ImportContext &im, const onnx::NodeProto &node) {
  bool isMax = node.op_type() == "MaxPool";
  if (node.output_size() > 1 && !node.output(1).empty())
    return im.nodeError(node, "the Indices output is not supported");
  // NHWC with the option: the pooling window runs over contiguous channels.
  bool nhwc = im.options.channelsLast;
  if (nhwc) {
    llvm::Expected<Value> stored = im.getAsStored(node.input(0));
    if (!stored)
      return stored.takeError();
    nhwc = typeOf(*stored).getRank() == 4;
  }
  llvm::Expected<Value> x = nhwc ? im.getChannelsLast(node.input(0)) : im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() != 4)
    return im.nodeError(node, "only 2-D pooling (NCHW) is supported");
  std::vector<int64_t> k = intsAttr(node, "kernel_shape");
  std::vector<int64_t> strides = intsAttr(node, "strides", {1, 1});
  std::vector<int64_t> pads = intsAttr(node, "pads", {0, 0, 0, 0});
  std::vector<int64_t> dilations = intsAttr(node, "dilations", {1, 1});
  bool ceil = intAttr(node, "ceil_mode", 0);
  bool countPad = intAttr(node, "count_include_pad", 0);
  std::string autoPad = stringAttr(node, "auto_pad", "NOTSET");
  if (k.size() != 2 || strides.size() != 2 || pads.size() != 4 || dilations.size() != 2)
    return im.nodeError(node, "kernel_shape, strides, pads and dilations must describe 2 dims");
  if (llvm::Error e = im.checkWindow(node, k, strides, dilations, pads))
    return e;
  if (autoPad != "NOTSET" && autoPad != "VALID")
    return im.nodeError(node, "auto_pad '" + autoPad + "' is not supported");
  if (!isMax && (dilations[0] != 1 || dilations[1] != 1))
    return im.nodeError(node, "dilated average pooling is not supported");
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(nhwc ? 3 : 1);
  int64_t in[2] = {xt.getDimSize(nhwc ? 1 : 2), xt.getDimSize(nhwc ? 2 : 3)}, out[2], extra[2];
  for (int d = 0; d < 2; ++d) {
    int64_t span = in[d] + pads[d] + pads[d + 2] - dilations[d] * (k[d] - 1) - 1;
    if (span < 0)
      return im.nodeError(node, "the kernel does not fit the padded input");
    out[d] = (ceil ? (span + strides[d] - 1) / strides[d] : span / strides[d]) + 1;
    // ceil_mode: a last window may start inside the input and run past it.
    if (ceil && (out[d] - 1) * strides[d] >= in[d] + pads[d])
      --out[d];
    extra[d] = std::max<int64_t>(
        0, (out[d] - 1) * strides[d] + dilations[d] * (k[d] - 1) + 1 - (in[d] + pads[d] + pads[d + 2]));
  }
  Type elem = xt.getElementType();
  double padValue = isMax ? -INFINITY : 0.0;
  Value input = nhwc ? im.padded(*x, {0, pads[0], pads[1], 0},
                                 {0, pads[2] + extra[0], pads[3] + extra[1], 0}, padValue)
                     : im.padded(*x, {0, 0, pads[0], pads[1]},
                                 {0, 0, pads[2] + extra[0], pads[3] + extra[1]}, padValue);
  Value window = im.emptyTensor(k, elem);
  Value acc = nhwc ? im.filled({n, out[0], out[1], c}, elem, padValue)
                   : im.filled({n, c, out[0], out[1]}, elem, padValue);
  auto defineResult = [&](Value v) { im.defineIn(nhwc, node.output(0), v); };
  if (isMax) {
    defineResult(
        nhwc ? im.windowed<linalg::PoolingNhwcMaxOp>(input, window, acc, strides, dilations)
             : im.windowed<linalg::PoolingNchwMaxOp>(input, window, acc, strides, dilations));
    return llvm::Error::success();
  }
  Value r = nhwc ? im.windowed<linalg::PoolingNhwcSumOp>(input, window, acc, strides, dilations)
                 : im.windowed<linalg::PoolingNchwSumOp>(input, window, acc, strides, dilations);
  // Divisors per output position: the window size, or the part of it
  // inside the input (count_include_pad=0); computed here, a constant.
  KnownTensor div;
  div.shape = {out[0], out[1]};
  if (nhwc)
    div.shape.push_back(1); // broadcast along the channels
  for (int64_t i = 0; i < out[0]; ++i)
    for (int64_t j = 0; j < out[1]; ++j) {
      auto inside = [&](int d, int64_t o) {
        int64_t lo = o * strides[d] - pads[d], hi = lo + k[d];
        if (countPad)
          // Padding counts, the ceil_mode overhang does not.
          return std::min(hi, in[d] + pads[d + 2]) - std::max(lo, -pads[d]);
        return std::min(hi, in[d]) - std::max<int64_t>(lo, 0);
      };
      div.f.push_back(double(inside(0, i) * inside(1, j)));
    }
  bool uniform = llvm::all_of(div.f, [&](double v) { return v == div.f[0]; });
  if (uniform) {
    double d = div.f[0];
    llvm::Expected<Value> y =
        im.elementwise(node, {r}, elem, [&](ImplicitLocOpBuilder &ib, ValueRange v) {
          return arith::DivFOp::create(ib, v[0], im.constantScalar(elem, d));
        });
    if (!y)
      return y.takeError();
    defineResult(*y);
  } else {
    Value dv = im.materialize(div, elem);
    llvm::Expected<Value> y =
        im.elementwise(node, {r, dv}, elem, [](ImplicitLocOpBuilder &ib, ValueRange v) {
          return arith::DivFOp::create(ib, v[0], v[1]);
        });
    if (!y)
      return y.takeError();
    defineResult(*y);
  }
  return llvm::Error::success();
}

llvm::Error importGlobalAveragePool(ImportContext &im, const onnx::NodeProto &node) {
  if (im.isChannelsLast(node.input(0))) {
    // Mean over H and W of the NHWC value is N x C; as N x C x 1 x 1 it is
    // the model's layout again.
    llvm::Expected<Value> x = im.getChannelsLast(node.input(0));
    if (!x)
      return x.takeError();
    RankedTensorType xt = typeOf(*x);
    llvm::Expected<Value> y = im.mean(node, *x, {1, 2}, /*keepDims=*/false);
    if (!y)
      return y.takeError();
    im.define(node, 0, im.reshaped(*y, {xt.getDimSize(0), xt.getDimSize(3), 1, 1}));
    return llvm::Error::success();
  }
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() < 3)
    return im.nodeError(node, "input must be N x C x spatial");
  std::vector<int64_t> axes;
  for (int64_t d = 2; d < xt.getRank(); ++d)
    axes.push_back(d);
  llvm::Expected<Value> y = im.mean(node, *x, axes, /*keepDims=*/true);
  if (!y)
    return y.takeError();
  im.define(node, 0, *y);
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerPoolingOps(OpTable &table) {
  table.add("MaxPool", {importPool, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("AveragePool", {importPool, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
  table.add("GlobalAveragePool",
            {importGlobalAveragePool, 1, /*floatOnly=*/true, /*takesEmpty=*/false});
}
