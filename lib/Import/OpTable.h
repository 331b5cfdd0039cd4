//===- OpTable.h - ONNX op type to handler -----------------------*- C++ -*-===//
//
// Private to lib/Import. The graph walk looks every node's op type up in one
// OpTable; each op family file fills its part through its register function
// (ConvolutionOps.cpp: registerConvolutionOps, ...). An op type missing from
// the table is not supported.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_IMPORT_OPTABLE_H
#define DLTUNE_LIB_IMPORT_OPTABLE_H

#include "ImportContext.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::dltune::onnx_import {

/// Imports one node: defines its outputs in the context or fails with a
/// diagnostic (errors that do not name the node get its name prepended).
using OpHandler = llvm::Error (*)(ImportContext &, const onnx::NodeProto &);

/// One op type: its handler and what the graph walk checks before calling
/// it, so that handlers read these inputs unchecked.
struct OpInfo {
  OpHandler handler = nullptr;
  /// Inputs the ONNX spec requires.
  int requiredInputs = 1;
  /// Computes in floating point only: an integer input would build IR that
  /// does not verify (LayerNormalization on int64, found by the onnx_import
  /// fuzzer).
  bool floatOnly = false;
  /// Takes tensors without elements: linalg ops over a zero-size loop do
  /// not verify (a Softmax of a Slice with no element, found by the fuzzer);
  /// only ops that move no data take them.
  bool takesEmpty = false;
};

class OpTable {
public:
  /// Registers `opType`; each op type is registered once.
  void add(StringRef opType, OpInfo info);
  /// The entry of `opType`, or null when the op is not supported.
  const OpInfo *lookup(StringRef opType) const;

private:
  llvm::StringMap<OpInfo> ops;
};

/// The table of every supported op, filled once on first use.
const OpTable &getOpTable();

// One per op family file.
void registerContractionOps(OpTable &table);
void registerConvolutionOps(OpTable &table);
void registerElementwiseOps(OpTable &table);
void registerNormalizationOps(OpTable &table);
void registerPoolingOps(OpTable &table);
void registerReductionOps(OpTable &table);
void registerResizeOps(OpTable &table);
void registerShapeOps(OpTable &table);

} // namespace mlir::dltune::onnx_import

#endif // DLTUNE_LIB_IMPORT_OPTABLE_H
