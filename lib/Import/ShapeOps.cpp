//===- ShapeOps.cpp - ONNX reshapes, slices, Constant, Shape --------------===//
//
// Shapes and data movement: Flatten, Reshape, Transpose, Concat, Slice,
// Split, Gather, Squeeze, Unsqueeze, Expand, Pad, Identity and Dropout, and
// the values known at import (Constant, Shape). On known tensors they fold,
// so shape subgraphs leave no IR behind.
//
//===----------------------------------------------------------------------===//

#include "ImportContext.h"
#include "OpTable.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

namespace {

/// Defines output 0 of `node` as its input (known `kx` or run-time `xv`) in
/// `shape`: a known tensor stays known, a run-time one is reshaped.
llvm::Error defineReshaped(ImportContext &im, const onnx::NodeProto &node, const KnownTensor *kx,
                           Value xv, const std::vector<int64_t> &shape) {
  if (kx) {
    KnownTensor r = *kx;
    r.shape = shape;
    im.knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  im.define(node, 0, im.reshaped(xv, shape));
  return llvm::Error::success();
}

llvm::Error importFlatten(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  ArrayRef<int64_t> s = typeOf(*x).getShape();
  int64_t axis = intAttr(node, "axis", 1);
  if (axis < 0)
    axis += s.size();
  if (axis < 0 || axis > int64_t(s.size()))
    return im.nodeError(node, "axis out of range");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < int64_t(s.size()); ++d)
    (d < axis ? outer : inner) *= s[d];
  im.define(node, 0, im.reshaped(*x, {outer, inner}));
  return llvm::Error::success();
}

llvm::Error importReshape(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<const KnownTensor *> shapeT = im.requireKnown(node, 1);
  if (!shapeT)
    return shapeT.takeError();
  bool allowZero = intAttr(node, "allowzero", 0);
  llvm::Expected<Operand> input = im.operand(node.input(0));
  if (!input)
    return input.takeError();
  const KnownTensor *kx = input->known;
  Value xv = input->value;
  const std::vector<int64_t> &in = input->shape;
  int64_t total = getElementCount(in);
  std::vector<int64_t> shape = (*shapeT)->i;
  int64_t inferred = -1, product = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0 && !allowZero) {
      if (d >= in.size())
        return im.nodeError(node, "shape entry 0 copies a dimension the input does not have");
      shape[d] = in[d];
    }
    if (shape[d] == -1) {
      if (inferred >= 0)
        return im.nodeError(node, "more than one -1 in the target shape");
      inferred = d;
      continue;
    }
    if (shape[d] < 0)
      return im.nodeError(node, "negative dimension in the target shape");
    if (llvm::MulOverflow(product, shape[d], product))
      return im.nodeError(node, "the target shape " + shapeString(shape) + " is too large");
  }
  if (inferred >= 0) {
    if (product == 0 || total % product)
      return im.nodeError(node, "cannot infer the -1 dimension");
    shape[inferred] = total / product;
    product *= shape[inferred];
  }
  if (product != total)
    return im.nodeError(node, "cannot reshape " + shapeString(in) + " (" + std::to_string(total) +
                                  " elements) to " + shapeString(shape));
  return defineReshaped(im, node, kx, xv, shape);
}

llvm::Error importTranspose(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  int64_t rank = typeOf(*x).getRank();
  std::vector<int64_t> perm = intsAttr(node, "perm");
  if (perm.empty())
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t d = 0; d < rank; ++d)
    if (int64_t(sorted.size()) != rank || sorted[d] != d)
      return im.nodeError(node, "perm is not a permutation of the input's dimensions");
  im.define(node, 0, im.transposed(*x, perm));
  return llvm::Error::success();
}

llvm::Error importConcat(ImportContext &im, const onnx::NodeProto &node) {
  int64_t axis = intAttr(node, "axis", 0);
  bool allKnown = llvm::all_of(node.input(), [&](const std::string &n) { return im.known(n); });
  if (allKnown) {
    // Shape vectors: 1-D concatenation of constants.
    KnownTensor r;
    r.isFloat = im.known(node.input(0))->isFloat;
    for (const std::string &n : node.input()) {
      const KnownTensor *k = im.known(n);
      if (k->shape.size() > 1 || k->isFloat != r.isFloat)
        allKnown = false;
      r.f.insert(r.f.end(), k->f.begin(), k->f.end());
      r.i.insert(r.i.end(), k->i.begin(), k->i.end());
    }
    if (allKnown) {
      r.shape = {int64_t(r.isFloat ? r.f.size() : r.i.size())};
      im.knownValues[node.output(0)] = std::move(r);
      return llvm::Error::success();
    }
  }
  // Channel concatenation of NHWC values (SqueezeNet's fire modules) stays
  // in NHWC, along the last dimension.
  bool nhwc =
      llvm::any_of(node.input(), [&](const std::string &n) { return im.isChannelsLast(n); });
  if (nhwc && (axis == 1 || axis == -3)) {
    for (const std::string &n : node.input()) {
      llvm::Expected<Value> v = im.getAsStored(n);
      if (!v)
        return v.takeError();
      nhwc &= typeOf(*v).getRank() == 4;
    }
  } else {
    nhwc = false;
  }
  SmallVector<Value> ins;
  for (const std::string &n : node.input()) {
    llvm::Expected<Value> v = nhwc ? im.getChannelsLast(n) : im.get(n);
    if (!v)
      return v.takeError();
    ins.push_back(*v);
  }
  RankedTensorType t0 = typeOf(ins[0]);
  int64_t rank = t0.getRank();
  llvm::Expected<std::vector<int64_t>> a = im.normalizeAxes(node, {axis}, rank);
  if (!a)
    return a.takeError();
  axis = nhwc ? 3 : (*a)[0];
  SmallVector<int64_t> shape(t0.getShape());
  shape[axis] = 0;
  for (Value v : ins) {
    RankedTensorType t = typeOf(v);
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && (t.getRank() != rank || t.getDimSize(d) != t0.getDimSize(d)))
        return im.nodeError(node, "inputs differ outside the concatenation axis");
    shape[axis] += t.getDimSize(axis);
  }
  Value result = im.emptyTensor(shape, t0.getElementType());
  int64_t offset = 0;
  for (Value v : ins) {
    RankedTensorType t = typeOf(v);
    // Nothing to insert (and no offset the verifier would take for it).
    if (llvm::is_contained(t.getShape(), 0))
      continue;
    SmallVector<OpFoldResult> offsets(rank, im.b.getIndexAttr(0)), sizes,
        strides(rank, im.b.getIndexAttr(1));
    offsets[axis] = im.b.getIndexAttr(offset);
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(im.b.getIndexAttr(t.getDimSize(d)));
    result = tensor::InsertSliceOp::create(im.b, v, result, offsets, sizes, strides);
    offset += t.getDimSize(axis);
  }
  im.defineIn(nhwc, node.output(0), result);
  return llvm::Error::success();
}

llvm::Error importSlice(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<const KnownTensor *> starts = im.requireKnown(node, 1);
  if (!starts)
    return starts.takeError();
  llvm::Expected<const KnownTensor *> ends = im.requireKnown(node, 2);
  if (!ends)
    return ends.takeError();
  std::vector<int64_t> axes, steps;
  if (hasInput(node, 3)) {
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, 3);
    if (!t)
      return t.takeError();
    axes = (*t)->i;
  }
  if (hasInput(node, 4)) {
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, 4);
    if (!t)
      return t.takeError();
    steps = (*t)->i;
  }
  llvm::Expected<Operand> input = im.operand(node.input(0));
  if (!input)
    return input.takeError();
  const KnownTensor *kx = input->known;
  Value xv = input->value;
  const std::vector<int64_t> &in = input->shape;
  int64_t rank = in.size();
  size_t count = (*starts)->i.size();
  if (axes.empty())
    for (size_t k = 0; k < count; ++k)
      axes.push_back(k);
  if (steps.empty())
    steps.assign(count, 1);
  if ((*ends)->i.size() != count || axes.size() != count || steps.size() != count)
    return im.nodeError(node, "starts, ends, axes and steps differ in length");
  llvm::Expected<std::vector<int64_t>> na = im.normalizeDistinctAxes(node, axes, rank);
  if (!na)
    return na.takeError();
  std::vector<int64_t> offset(rank, 0), size = in, stride(rank, 1);
  for (size_t k = 0; k < count; ++k) {
    int64_t d = (*na)[k], dim = in[d], st = steps[k];
    if (st <= 0)
      return im.nodeError(node, "only positive steps are supported");
    int64_t s = (*starts)->i[k], e = (*ends)->i[k];
    if (s < 0)
      s += dim;
    if (e < 0)
      e += dim;
    s = std::clamp<int64_t>(s, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
    offset[d] = s;
    stride[d] = st;
    size[d] = e > s ? (e - s + st - 1) / st : 0;
  }
  if (kx) {
    if (rank != 1 || kx->isFloat)
      return im.nodeError(node, "slicing a constant is supported for 1-D integer shapes only");
    KnownTensor r;
    r.isFloat = false;
    for (int64_t j = 0; j < size[0]; ++j)
      r.i.push_back(kx->i[offset[0] + j * stride[0]]);
    r.shape = {size[0]};
    im.knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  im.define(node, 0, im.extractSlice(xv, offset, size, stride));
  return llvm::Error::success();
}

llvm::Error importSplit(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  int64_t rank = xt.getRank();
  llvm::Expected<std::vector<int64_t>> a = im.normalizeAxes(node, {intAttr(node, "axis", 0)}, rank);
  if (!a)
    return a.takeError();
  int64_t axis = (*a)[0], dim = xt.getDimSize(axis), parts = node.output_size();
  std::vector<int64_t> sizes = intsAttr(node, "split"); // before opset 13
  if (hasInput(node, 1)) {
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, 1);
    if (!t)
      return t.takeError();
    sizes = (*t)->i;
  }
  if (sizes.empty()) {
    // Equal parts; with num_outputs (opset 18) the last may be smaller.
    int64_t each = (dim + parts - 1) / parts;
    for (int64_t k = 0; k < parts; ++k)
      sizes.push_back(std::min(each, dim - k * each));
  }
  if (int64_t(sizes.size()) != parts || llvm::any_of(sizes, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(sizes, [&](int64_t v) { return v > dim; }) ||
      std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != dim)
    return im.nodeError(node, "split sizes do not add up to dimension " + std::to_string(axis) +
                                  " (" + std::to_string(dim) + ") over " + std::to_string(parts) +
                                  " outputs");
  int64_t offset = 0;
  for (int64_t k = 0; k < parts; ++k) {
    SmallVector<int64_t> offsets(rank, 0), shape(xt.getShape()), strides(rank, 1);
    offsets[axis] = offset;
    shape[axis] = sizes[k];
    offset += sizes[k];
    if (node.output(k).empty())
      continue;
    im.define(node, k, im.extractSlice(*x, offsets, shape, strides));
  }
  return llvm::Error::success();
}

llvm::Error importGather(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<const KnownTensor *> data = im.requireKnown(node, 0);
  if (!data)
    return data.takeError();
  llvm::Expected<const KnownTensor *> idx = im.requireKnown(node, 1);
  if (!idx)
    return idx.takeError();
  const KnownTensor &d = **data, &ix = **idx;
  int64_t rank = d.shape.size();
  llvm::Expected<std::vector<int64_t>> a = im.normalizeAxes(node, {intAttr(node, "axis", 0)}, rank);
  if (!a)
    return a.takeError();
  int64_t axis = (*a)[0];
  int64_t outer = 1, inner = 1, dim = d.shape[axis];
  for (int64_t k = 0; k < axis; ++k)
    outer *= d.shape[k];
  for (int64_t k = axis + 1; k < rank; ++k)
    inner *= d.shape[k];
  KnownTensor r;
  r.isFloat = d.isFloat;
  r.shape.assign(d.shape.begin(), d.shape.begin() + axis);
  r.shape.insert(r.shape.end(), ix.shape.begin(), ix.shape.end());
  r.shape.insert(r.shape.end(), d.shape.begin() + axis + 1, d.shape.end());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < ix.size(); ++j) {
      int64_t i = ix.intAt(j);
      if (i < 0)
        i += dim;
      if (i < 0 || i >= dim)
        return im.nodeError(node, "index " + std::to_string(ix.intAt(j)) + " is out of range");
      for (int64_t q = 0; q < inner; ++q) {
        int64_t src = (o * dim + i) * inner + q;
        if (d.isFloat)
          r.f.push_back(d.f[src]);
        else
          r.i.push_back(d.i[src]);
      }
    }
  im.knownValues[node.output(0)] = std::move(r);
  return llvm::Error::success();
}

llvm::Error importSqueezeUnsqueeze(ImportContext &im, const onnx::NodeProto &node) {
  bool squeeze = node.op_type() == "Squeeze";
  std::vector<int64_t> axes = intsAttr(node, "axes");
  if (hasInput(node, 1)) { // opset 13 moved axes to an input
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, 1);
    if (!t)
      return t.takeError();
    axes = (*t)->i;
  }
  llvm::Expected<Operand> input = im.operand(node.input(0));
  if (!input)
    return input.takeError();
  const KnownTensor *kx = input->known;
  Value xv = input->value;
  const std::vector<int64_t> &in = input->shape;
  std::vector<int64_t> shape;
  if (squeeze) {
    if (axes.empty())
      for (int64_t d = 0; d < int64_t(in.size()); ++d)
        if (in[d] == 1)
          axes.push_back(d);
    llvm::Expected<std::vector<int64_t>> na = im.normalizeDistinctAxes(node, axes, in.size());
    if (!na)
      return na.takeError();
    for (int64_t d = 0; d < int64_t(in.size()); ++d) {
      if (!llvm::is_contained(*na, d)) {
        shape.push_back(in[d]);
      } else if (in[d] != 1) {
        return im.nodeError(node, "cannot squeeze dimension " + std::to_string(d) + " of size " +
                                      std::to_string(in[d]));
      }
    }
  } else {
    // Each axis is a new dimension: named twice, the shape would take more
    // of the input's dimensions than it has.
    int64_t rank = in.size() + axes.size();
    llvm::Expected<std::vector<int64_t>> na = im.normalizeDistinctAxes(node, axes, rank);
    if (!na)
      return na.takeError();
    size_t next = 0;
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(llvm::is_contained(*na, d) ? 1 : in[next++]);
  }
  return defineReshaped(im, node, kx, xv, shape);
}

llvm::Error importIdentity(ImportContext &im, const onnx::NodeProto &node) {
  if (const KnownTensor *k = im.known(node.input(0))) {
    im.knownValues[node.output(0)] = *k;
    return llvm::Error::success();
  }
  llvm::Expected<Value> x = im.getAsStored(node.input(0));
  if (!x)
    return x.takeError();
  im.defineLike(node, 0, node.input(0), *x);
  return llvm::Error::success();
}

/// Dropout in inference is the identity. Its `training_mode` input (opset
/// 12+, a BOOL constant in models exported in training mode) must be a
/// constant: false, or true with a constant ratio of 0 (nothing dropped,
/// scale 1/(1 - 0)); any other training-mode Dropout is refused. The mask
/// output, where asked for, is all true.
llvm::Error importDropout(ImportContext &im, const onnx::NodeProto &node) {
  if (hasInput(node, 2)) {
    llvm::Expected<const KnownTensor *> mode = im.requireKnown(node, 2);
    if (!mode)
      return mode.takeError();
    const KnownTensor &m = **mode;
    if (m.size() != 1)
      return im.nodeError(node, "training_mode must be one value, not " + shapeString(m.shape));
    if (m.at(0) != 0) {
      // The ratio defaults to 0.5.
      const KnownTensor *ratio = hasInput(node, 1) ? im.known(node.input(1)) : nullptr;
      bool dropsNothing = ratio && ratio->size() == 1 && ratio->at(0) == 0;
      if (!dropsNothing)
        return im.nodeError(node, "training-mode Dropout is not supported (training_mode is "
                                  "true and the ratio is not a constant 0)");
    }
  }
  if (llvm::Error e = importIdentity(im, node))
    return e;
  if (node.output_size() < 2 || node.output(1).empty())
    return llvm::Error::success();
  llvm::Expected<Operand> x = im.operand(node.input(0));
  if (!x)
    return x.takeError();
  Type i1 = im.b.getI1Type();
  im.define(node, 1,
            getElementCount(x->shape) == 0 ? im.emptyTensor(x->shape, i1)
                                           : im.filled(x->shape, i1, 1.0));
  return llvm::Error::success();
}

/// Expand: numpy broadcasting of the input to a constant shape.
llvm::Error importExpand(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<const KnownTensor *> shapeT = im.requireKnown(node, 1);
  if (!shapeT)
    return shapeT.takeError();
  const KnownTensor &st = **shapeT;
  if (st.isFloat || st.shape.size() != 1)
    return im.nodeError(node, "the shape must be a 1-D integer tensor");
  if (llvm::any_of(st.i, [](int64_t d) { return d < 1; }))
    return im.nodeError(node, "the shape " + shapeString(st.i) +
                                  " has a dimension below 1, which is not supported");
  llvm::Expected<Operand> input = im.operand(node.input(0));
  if (!input)
    return input.takeError();
  auto shape = broadcastShapes(input->shape, st.i);
  if (!shape)
    return im.nodeError(node, "the input's shape " + shapeString(input->shape) +
                                  " does not broadcast to " + shapeString(st.i));
  if (int64_t n = getElementCount(*shape); n > kMaxElements)
    return im.nodeError(node, "the result has " + describeTooManyElements(n));
  // Small constants (shape tensors, masks) stay known.
  if (const KnownTensor *k = input->known; k && getElementCount(*shape) <= 64) {
    KnownTensor r;
    r.isFloat = k->isFloat;
    r.isBool = k->isBool;
    r.shape = *shape;
    for (int64_t j = 0; j < r.size(); ++j) {
      int64_t src = broadcastIndex(r.shape, k->shape, j);
      if (k->isFloat)
        r.f.push_back(k->f[src]);
      else
        r.i.push_back(k->i[src]);
    }
    im.knownValues[node.output(0)] = std::move(r);
    return llvm::Error::success();
  }
  llvm::Expected<Value> x = im.get(node.input(0));
  if (!x)
    return x.takeError();
  llvm::Expected<Value> r = im.elementwise(
      node, {*x}, typeOf(*x).getElementType(),
      [](ImplicitLocOpBuilder &, ValueRange v) { return v[0]; }, *shape);
  if (!r)
    return r.takeError();
  im.define(node, 0, *r);
  return llvm::Error::success();
}

/// Pad in constant mode with constant pads (negative ones crop): a
/// tensor.pad, then an extract_slice where a side is cropped. An NHWC input
/// stays NHWC.
llvm::Error importPad(ImportContext &im, const onnx::NodeProto &node) {
  std::string mode = stringAttr(node, "mode", "constant");
  if (mode != "constant")
    return im.nodeError(node, "mode '" + mode + "' is not supported (only constant)");
  llvm::Expected<const KnownTensor *> padsT = im.requireKnown(node, 1);
  if (!padsT)
    return padsT.takeError();
  if ((*padsT)->isFloat)
    return im.nodeError(node, "pads must be integers");
  std::vector<int64_t> pads = (*padsT)->i;
  double value = 0.0;
  if (hasInput(node, 2)) {
    llvm::Expected<const KnownTensor *> v = im.requireKnown(node, 2);
    if (!v)
      return v.takeError();
    if ((*v)->size() != 1)
      return im.nodeError(node, "constant_value must be one value, not " +
                                    shapeString((*v)->shape));
    value = (*v)->at(0);
  }
  bool nhwc = im.isChannelsLast(node.input(0));
  llvm::Expected<Value> x = im.getAsStored(node.input(0));
  if (!x)
    return x.takeError();
  RankedTensorType xt = typeOf(*x);
  int64_t rank = xt.getRank();
  std::vector<int64_t> axes;
  if (hasInput(node, 3)) { // opset 18
    llvm::Expected<const KnownTensor *> t = im.requireKnown(node, 3);
    if (!t)
      return t.takeError();
    llvm::Expected<std::vector<int64_t>> na = im.normalizeDistinctAxes(node, (*t)->i, rank);
    if (!na)
      return na.takeError();
    axes = *na;
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (pads.size() != 2 * axes.size())
    return im.nodeError(node, "pads has " + std::to_string(pads.size()) + " values for " +
                                  std::to_string(axes.size()) + " axes (needs " +
                                  std::to_string(2 * axes.size()) + ")");
  // Begin and end pads per dimension of the model's layout.
  std::vector<int64_t> lo(rank, 0), hi(rank, 0);
  constexpr int64_t kMaxPad = int64_t(1) << 20;
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t d = axes[k], b = pads[k], e = pads[k + axes.size()];
    if (b < -kMaxPad || b > kMaxPad || e < -kMaxPad || e > kMaxPad)
      return im.nodeError(node, "pads " + shapeString(pads) + " must be between -" +
                                    std::to_string(kMaxPad) + " and " + std::to_string(kMaxPad));
    lo[d] += b;
    hi[d] += e;
  }
  if (nhwc) {
    lo = {lo[0], lo[2], lo[3], lo[1]};
    hi = {hi[0], hi[2], hi[3], hi[1]};
  }
  std::vector<int64_t> growLo, growHi, offsets, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = xt.getDimSize(d) + lo[d] + hi[d];
    if (size < 1)
      return im.nodeError(node, "pads " + shapeString(pads) + " leave no element of dimension " +
                                    std::to_string(d) + " (" +
                                    std::to_string(xt.getDimSize(d)) + ")");
    growLo.push_back(std::max<int64_t>(lo[d], 0));
    growHi.push_back(std::max<int64_t>(hi[d], 0));
    offsets.push_back(std::max<int64_t>(-lo[d], 0));
    sizes.push_back(size);
  }
  if (int64_t n = getElementCount(sizes); n > kMaxElements)
    return im.nodeError(node, "the result has " + describeTooManyElements(n));
  Value r = im.padded(*x, growLo, growHi, value);
  if (typeOf(r).getShape() != ArrayRef<int64_t>(sizes))
    r = im.extractSlice(r, offsets, sizes, std::vector<int64_t>(rank, 1));
  im.defineIn(nhwc, node.output(0), r);
  return llvm::Error::success();
}

llvm::Error importConstant(ImportContext &im, const onnx::NodeProto &node) {
  KnownTensor k;
  if (const onnx::AttributeProto *a = attr(node, "value")) {
    llvm::Expected<KnownTensor> t = im.readTensor(a->t());
    if (!t)
      return im.nodeError(node, llvm::toString(t.takeError()));
    k = std::move(*t);
  } else if (const onnx::AttributeProto *a = attr(node, "value_float")) {
    k.f = {a->f()};
  } else if (const onnx::AttributeProto *a = attr(node, "value_floats")) {
    k.f.assign(a->floats().begin(), a->floats().end());
    k.shape = {int64_t(k.f.size())};
  } else if (const onnx::AttributeProto *a = attr(node, "value_int")) {
    k.isFloat = false;
    k.i = {a->i()};
  } else if (const onnx::AttributeProto *a = attr(node, "value_ints")) {
    k.isFloat = false;
    k.i.assign(a->ints().begin(), a->ints().end());
    k.shape = {int64_t(k.i.size())};
  } else {
    return im.nodeError(node, "no supported value attribute (sparse and string constants are not "
                              "supported)");
  }
  im.knownValues[node.output(0)] = std::move(k);
  return llvm::Error::success();
}

llvm::Error importShape(ImportContext &im, const onnx::NodeProto &node) {
  llvm::Expected<Operand> input = im.operand(node.input(0));
  if (!input)
    return input.takeError();
  const std::vector<int64_t> &in = input->shape;
  int64_t rank = in.size();
  int64_t start = intAttr(node, "start", 0), end = intAttr(node, "end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  KnownTensor r;
  r.isFloat = false;
  r.i.assign(in.begin() + start, in.begin() + end);
  r.shape = {end - start};
  im.knownValues[node.output(0)] = std::move(r);
  return llvm::Error::success();
}

} // namespace

void onnx_import::registerShapeOps(OpTable &table) {
  table.add("Flatten", {importFlatten, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Reshape", {importReshape, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Transpose", {importTranspose, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Concat", {importConcat, 1, /*floatOnly=*/false, /*takesEmpty=*/true});
  table.add("Slice", {importSlice, 3, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Split", {importSplit, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Gather", {importGather, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Squeeze", {importSqueezeUnsqueeze, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Unsqueeze", {importSqueezeUnsqueeze, 1, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Identity", {importIdentity, 1, /*floatOnly=*/false, /*takesEmpty=*/true});
  table.add("Dropout", {importDropout, 1, /*floatOnly=*/false, /*takesEmpty=*/true});
  table.add("Expand", {importExpand, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Pad", {importPad, 2, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Constant", {importConstant, 0, /*floatOnly=*/false, /*takesEmpty=*/false});
  table.add("Shape", {importShape, 1, /*floatOnly=*/false, /*takesEmpty=*/true});
}
