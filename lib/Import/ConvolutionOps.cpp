//===- ConvolutionOps.cpp - ONNX Conv -------------------------------------===//
//
// 2-D convolutions (dense, depthwise, grouped) in NHWC or NCHW, with
// padding, strides and dilations; a BatchNormalization that follows a Conv
// with constant weights is folded into its weights and bias here.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

bool foldBatchNormInto(ImportContext &im, const onnx::NodeProto &conv, KnownTensor &weight,
                                 KnownTensor &bias, std::string &outputName) {
  if (im.uses[conv.output(0)] != 1)
    return false;
  const onnx::GraphProto &g = im.model.graph();
  for (int k = im.nodeIndex + 1; k < g.node_size(); ++k) {
    const onnx::NodeProto &n = g.node(k);
    if (!llvm::is_contained(n.input(), conv.output(0)))
      continue;
    if (n.op_type() != "BatchNormalization" || n.input(0) != conv.output(0) ||
        n.input_size() < 5 || n.output_size() > 1)
      return false;
    const KnownTensor *scale = im.known(n.input(1)), *beta = im.known(n.input(2)),
                      *mean = im.known(n.input(3)), *var = im.known(n.input(4));
    int64_t f = weight.shape[0];
    if (!scale || !beta || !mean || !var || scale->size() != f || beta->size() != f ||
        mean->size() != f || var->size() != f)
      return false;
    double eps = floatAttr(n, "epsilon", 1e-5f);
    int64_t per = weight.size() / f;
    for (int64_t o = 0; o < f; ++o) {
      double s = scale->at(o) / std::sqrt(var->at(o) + eps);
      for (int64_t j = 0; j < per; ++j)
        weight.f[o * per + j] *= s;
      bias.f[o] = (bias.f[o] - mean->at(o)) * s + beta->at(o);
    }
    im.folded.insert(k);
    outputName = n.output(0);
    return true;
  }
  return false;
}

llvm::Error importConv(ImportContext &im, const onnx::NodeProto &node) {
  // The input's NCHW shape, without transposing an NHWC one back.
  llvm::Expected<Value> x =
      im.isChannelsLast(node.input(0)) ? im.getChannelsLast(node.input(0)) : im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  if (xt.getRank() != 4)
    return im.nodeError(node, "only 2-D convolutions (NCHW inputs) are supported, got input " +
                                  shapeString(xt.getShape()));
  Type elem = xt.getElementType();
  bool inputIsNhwc = im.isChannelsLast(node.input(0));
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(inputIsNhwc ? 3 : 1),
          h = xt.getDimSize(inputIsNhwc ? 1 : 2), w = xt.getDimSize(inputIsNhwc ? 2 : 3);
  int64_t group = intAttr(node, "group", 1);
  std::string outputName = node.output(0);

  // Weights and bias: folded with a following BatchNormalization when both
  // are constants.
  const KnownTensor *wk = im.known(node.input(1));
  std::optional<KnownTensor> foldedWeight, foldedBias;
  if (wk && elem.isF32()) {
    KnownTensor wcopy = *wk, bcopy;
    bcopy.shape = {wk->shape[0]};
    bcopy.f.assign(wk->shape[0], 0.0);
    const KnownTensor *bk = hasInput(node, 2) ? im.known(node.input(2)) : nullptr;
    if (!hasInput(node, 2) || bk) {
      if (bk)
        for (int64_t o = 0; o < bk->size(); ++o)
          bcopy.f[o] = bk->at(o);
      if (foldBatchNormInto(im, node, wcopy, bcopy, outputName)) {
        foldedWeight = std::move(wcopy);
        foldedBias = std::move(bcopy);
      }
    }
  }
  // NHWC for ungrouped, depthwise and grouped convolutions: constant
  // weights are transposed here, at import. A grouped convolution becomes
  // a loop over its groups of one NHWC convolution on the group's slice of
  // the channels, a conv task with dltune's space (the NCHW grouped op has none
  // and ran as scalar loops: RegNet-Y-400MF took 4x ONNX Runtime's time,
  // three quarters of it in its 16 grouped convs). Past
  // kMaxGroupsAsConvs groups (convs of one or two channels each, not
  // measured) they stay NCHW.
  constexpr int64_t kMaxGroupsAsConvs = 64;
  int64_t wf = wk && wk->shape.size() == 4 ? wk->shape[0] : 0;
  bool depthwise = wk && wk->shape.size() == 4 && group == c && wf == c && wk->shape[1] == 1;
  bool grouped = wk && wk->shape.size() == 4 && group > 1 && !depthwise &&
                 group <= kMaxGroupsAsConvs && wf % group == 0 && wk->shape[1] * group == c &&
                 wk->isFloat;
  bool nhwc = im.options.channelsLast && wk && wk->shape.size() == 4 &&
              (group == 1 || depthwise || grouped);
  const KnownTensor *weightData = foldedWeight ? &*foldedWeight : nullptr;
  if (nhwc && !weightData && wk->size() > 0 && (wk->isFloat ? wk->f.size() : wk->i.size()))
    weightData = wk;
  if (nhwc && !weightData)
    nhwc = false; // weights as arguments: keep NCHW rather than transpose per call
  Value weight;
  if (nhwc && grouped) {
    // [G, KH, KW, Cg, Fg]: group g's HWCF weights are slice g. The FCHW
    // weights are [G, Fg, Cg, KH, KW] read as five dimensions.
    KnownTensor t = *weightData;
    t.shape = {group, wf / group, weightData->shape[1], weightData->shape[2],
               weightData->shape[3]};
    weight = im.materialize(permutedKnown(t, {0, 3, 4, 2, 1}), elem);
  } else if (nhwc) {
    KnownTensor t = group == 1 ? permutedKnown(*weightData, {2, 3, 1, 0}) // HWCF
                               : permutedKnown(*weightData, {2, 3, 0, 1}); // HW C 1
    if (group != 1)
      t.shape.pop_back();
    weight = im.materialize(t, elem);
  } else if (foldedWeight) {
    weight = im.materialize(*foldedWeight, elem);
  } else {
    llvm::Expected<Value> wv = im.get(node.input(1));
    if (!wv)
      return wv.takeError();
    weight = *wv;
  }
  RankedTensorType wt = typeOf(weight);
  if (!nhwc && wt.getRank() != 4)
    return im.nodeError(node, "weight must be 4-D, got " + shapeString(wt.getShape()));
  // The model's FCHW weight shape.
  SmallVector<int64_t> wShape =
      nhwc ? SmallVector<int64_t>(weightData->shape.begin(), weightData->shape.end())
           : SmallVector<int64_t>(wt.getShape());
  int64_t f = wShape[0], kh = wShape[2], kw = wShape[3];
  if (group < 1 || c % group || f % group || wShape[1] * group != c)
    return im.nodeError(node, llvm::formatv("group {0} does not fit {1} input channels and "
                                            "weight {2}",
                                            group, c, shapeString(wShape))
                                  .str());
  std::vector<int64_t> strides = intsAttr(node, "strides", {1, 1});
  std::vector<int64_t> dilations = intsAttr(node, "dilations", {1, 1});
  std::vector<int64_t> pads = intsAttr(node, "pads", {0, 0, 0, 0});
  std::string autoPad = stringAttr(node, "auto_pad", "NOTSET");
  if (strides.size() != 2 || dilations.size() != 2 || pads.size() != 4)
    return im.nodeError(node, "strides, dilations and pads must describe 2 spatial dims");
  if (llvm::Error e = im.checkWindow(node, {kh, kw}, strides, dilations, pads))
    return e;
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int d = 0; d < 2; ++d) {
      int64_t in = d ? w : h, k = d ? kw : kh;
      int64_t out = (in + strides[d] - 1) / strides[d];
      int64_t total =
          std::max<int64_t>(0, (out - 1) * strides[d] + (k - 1) * dilations[d] + 1 - in);
      int64_t small = total / 2, big = total - small;
      pads[d] = autoPad == "SAME_UPPER" ? small : big;
      pads[d + 2] = autoPad == "SAME_UPPER" ? big : small;
    }
  } else if (autoPad == "VALID") {
    pads = {0, 0, 0, 0};
  } else if (autoPad != "NOTSET") {
    return im.nodeError(node, "auto_pad '" + autoPad + "' is not supported");
  }
  int64_t hp = h + pads[0] + pads[2], wp = w + pads[1] + pads[3];
  int64_t oh = (hp - dilations[0] * (kh - 1) - 1) / strides[0] + 1;
  int64_t ow = (wp - dilations[1] * (kw - 1) - 1) / strides[1] + 1;
  if (oh < 1 || ow < 1)
    return im.nodeError(node, "the kernel does not fit the padded input");
  Value result;
  if (nhwc) {
    llvm::Expected<Value> xl = im.getChannelsLast(node.input(0));
    if (!xl)
      return xl.takeError();
    Value input = im.padded(*xl, {0, pads[0], pads[1], 0}, {0, pads[2], pads[3], 0}, 0.0);
    if (grouped) {
      // A loop over the groups, each a convolution of its channels written
      // into its channels of the result: one conv op (one task) for all
      // groups, where unrolled groups made RegNet-Y-400MF 600 convs that
      // took over 15 minutes to compile.
      int64_t cg = c / group, fg = f / group;
      auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(im.b, v).getResult(); };
      auto loop = scf::ForOp::create(im.b, index(0), index(group), index(1),
                                     ValueRange{im.emptyTensor({n, oh, ow, f}, elem)});
      {
        OpBuilder::InsertionGuard guard(im.b);
        im.b.setInsertionPointToStart(loop.getBody());
        Value g = loop.getInductionVar();
        Value inChannel = arith::MulIOp::create(im.b, g, index(cg));
        Value outChannel = arith::MulIOp::create(im.b, g, index(fg));
        auto attrs = [&](ArrayRef<int64_t> values) {
          SmallVector<OpFoldResult> r;
          for (int64_t v : values)
            r.push_back(im.b.getIndexAttr(v));
          return r;
        };
        SmallVector<OpFoldResult> xOffsets = attrs({0, 0, 0, 0});
        xOffsets[3] = inChannel;
        Value slice = tensor::ExtractSliceOp::create(
            im.b, RankedTensorType::get({n, hp, wp, cg}, elem), input, xOffsets,
            attrs({n, hp, wp, cg}), attrs({1, 1, 1, 1}));
        SmallVector<OpFoldResult> wOffsets = attrs({0, 0, 0, 0, 0});
        wOffsets[0] = g;
        Value groupWeight = tensor::ExtractSliceOp::create(
            im.b, RankedTensorType::get({kh, kw, cg, fg}, elem), weight, wOffsets,
            attrs({1, kh, kw, cg, fg}), attrs({1, 1, 1, 1, 1}));
        Value acc = im.filled({n, oh, ow, fg}, elem, 0.0);
        Value conv = im.windowed<linalg::Conv2DNhwcHwcfOp>(slice, groupWeight, acc, strides,
                                                           dilations);
        SmallVector<OpFoldResult> outOffsets = attrs({0, 0, 0, 0});
        outOffsets[3] = outChannel;
        Value written = tensor::InsertSliceOp::create(im.b, conv, loop.getRegionIterArgs()[0],
                                                      outOffsets, attrs({n, oh, ow, fg}),
                                                      attrs({1, 1, 1, 1}));
        scf::YieldOp::create(im.b, written);
      }
      result = loop.getResult(0);
    } else {
      Value acc = im.filled({n, oh, ow, f}, elem, 0.0);
      result = group == 1 ? im.windowed<linalg::Conv2DNhwcHwcfOp>(input, weight, acc, strides,
                                                                  dilations)
                          : im.windowed<linalg::DepthwiseConv2DNhwcHwcOp>(input, weight, acc,
                                                                          strides, dilations);
    }
  } else {
    if (inputIsNhwc) {
      llvm::Expected<Value> xn = im.get(node.input(0));
      if (!xn)
        return xn.takeError();
      x = *xn;
    }
    Value input = im.padded(*x, {0, 0, pads[0], pads[1]}, {0, 0, pads[2], pads[3]}, 0.0);
    if (group == 1) {
      Value acc = im.filled({n, f, oh, ow}, elem, 0.0);
      result = im.windowed<linalg::Conv2DNchwFchwOp>(input, weight, acc, strides, dilations);
    } else if (group == c && f == c) {
      // Depthwise: one filter per channel.
      Value w3 = im.reshaped(weight, {c, kh, kw});
      Value acc = im.filled({n, c, oh, ow}, elem, 0.0);
      result = im.windowed<linalg::DepthwiseConv2DNchwChwOp>(input, w3, acc, strides, dilations);
    } else {
      int64_t cg = c / group, fg = f / group;
      Value in5 = im.reshaped(input, {n, group, cg, hp, wp});
      Value w5 = im.reshaped(weight, {group, fg, cg, kh, kw});
      Value acc = im.filled({n, group, fg, oh, ow}, elem, 0.0);
      Value r5 = im.windowed<linalg::Conv2DNgchwGfchwOp>(in5, w5, acc, strides, dilations);
      result = im.reshaped(r5, {n, f, oh, ow});
    }
  }
  Value bias;
  if (foldedBias) {
    bias = im.materialize(*foldedBias, elem);
  } else if (hasInput(node, 2)) {
    llvm::Expected<Value> bv = im.get(node.input(2));
    if (!bv)
      return bv.takeError();
    bias = *bv;
  }
  if (bias && nhwc) {
    // The bias runs along the last (channel) dimension.
    llvm::Expected<Value> sum =
        im.elementwise(node, {result, bias}, elem, [](ImplicitLocOpBuilder &ib, ValueRange a) {
          return arith::AddFOp::create(ib, a[0], a[1]);
        });
    if (!sum)
      return sum.takeError();
    result = *sum;
  } else if (bias) {
    Value b4 = im.reshaped(bias, {f, 1, 1});
    llvm::Expected<Value> sum =
        im.elementwise(node, {result, b4}, elem, [](ImplicitLocOpBuilder &ib, ValueRange a) {
          return arith::AddFOp::create(ib, a[0], a[1]);
        });
    if (!sum)
      return sum.takeError();
    result = *sum;
  }
  im.defineIn(nhwc, outputName, result);
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerConvolutionOps(OpTable &table) {
  table.add("Conv", {importConv, 2, /*floatOnly=*/true, /*takesEmpty=*/false});
}
