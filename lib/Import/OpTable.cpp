//===- OpTable.cpp - ONNX op type to handler ------------------------------===//

#include "OpTable.h"

#include <cassert>

using namespace mlir;
using namespace mlir::dltune;
using namespace mlir::dltune::onnx_import;

void OpTable::add(StringRef opType, OpInfo info) {
  assert(info.handler && "an op needs a handler");
  [[maybe_unused]] bool fresh = ops.try_emplace(opType, info).second;
  assert(fresh && "op type registered twice");
}

const OpInfo *OpTable::lookup(StringRef opType) const {
  auto it = ops.find(opType);
  return it == ops.end() ? nullptr : &it->second;
}

const OpTable &onnx_import::getOpTable() {
  static const OpTable table = [] {
    OpTable t;
    registerContractionOps(t);
    registerConvolutionOps(t);
    registerElementwiseOps(t);
    registerNormalizationOps(t);
    registerPoolingOps(t);
    registerReductionOps(t);
    registerResizeOps(t);
    registerShapeOps(t);
    return t;
  }();
  return table;
}
