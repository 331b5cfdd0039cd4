//===- NpyFile.h - NumPy .npy files as host buffers --------------*- C++ -*-===//
//
// `dltune run --input/--save-output` exchange tensors with other frameworks
// through NumPy's .npy format (version 1.0-3.0 headers, little-endian, C
// order): f16, f32, f64, i8, i16, i32, i64 arrays.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_NPYFILE_H
#define DLTUNE_EXECUTION_NPYFILE_H

#include "dltune/Execution/HostBuffer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::dltune {

/// Parses the bytes of a .npy file; errors say what is wrong with it.
llvm::Expected<HostBuffer> parseNpy(llvm::StringRef bytes);
llvm::Expected<HostBuffer> readNpyFile(const std::string &path);
/// The bytes of a .npy file (version 1.0) holding `buffer`; bf16 has no
/// NumPy type and is refused.
llvm::Expected<std::string> serializeNpy(const HostBuffer &buffer);
llvm::Error writeNpyFile(const std::string &path, const HostBuffer &buffer);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_NPYFILE_H
