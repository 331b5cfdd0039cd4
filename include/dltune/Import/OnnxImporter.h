//===- OnnxImporter.h - ONNX models to linalg on tensors ---------*- C++ -*-===//
//
// Reads a static-shape ONNX model (opsets 13-17) and builds one
// `func.func @main` on tensors in linalg/tensor/arith/math: one argument per
// graph input (and per initializer with weightsAsArguments), one result per
// graph output. Node names become locations, so diagnostics point at the
// ONNX node. Shape computations on constants (Shape, Gather, Unsqueeze,
// Concat, ...) are folded at import; a BatchNormalization that follows a
// Conv with constant weights is folded into the Conv's weights and bias.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_IMPORT_ONNXIMPORTER_H
#define DLTUNE_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::dltune {

struct OnnxImportOptions {
  /// Initializers become trailing arguments of @main instead of constants.
  bool weightsAsArguments = false;
  /// Initializers without data (a model exported without weights) get
  /// deterministic random values from this seed.
  uint64_t randomWeightSeed = 0;
  /// Name of the function; it also names the file in locations.
  std::string functionName = "main";
  /// Convolutions, pooling and the elementwise ops between them work on
  /// NHWC tensors (the CPU schedules vectorize along channels there); the
  /// function's arguments and results keep the model's NCHW, and values
  /// other ops read are transposed back where they need it.
  bool channelsLast = true;
};

/// Imports the serialized ModelProto `bytes`; `sourceName` (the file) goes
/// into locations and messages. Errors name the node and its op type.
llvm::Expected<OwningOpRef<ModuleOp>> importOnnxModel(llvm::StringRef bytes,
                                                      llvm::StringRef sourceName,
                                                      MLIRContext &context,
                                                      const OnnxImportOptions &options = {});

/// The dialects an imported module uses (load them before importing).
void loadOnnxImportDialects(MLIRContext &context);

} // namespace mlir::dltune

#endif // DLTUNE_IMPORT_ONNXIMPORTER_H
