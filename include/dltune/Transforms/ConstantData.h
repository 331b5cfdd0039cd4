//===- ConstantData.h - The bytes behind a constant tensor ------*- C++ -*-===//
//
// Passes that compute with constant weights at compile time (packing
// panels, Winograd's filter transform) read the elements of a dense or
// dense-resource constant the same way, and store their results as dense
// resources the same way; these are those two pieces.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_CONSTANTDATA_H
#define DLTUNE_TRANSFORMS_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::dltune {

/// The row-major element bytes of a dense attribute that is not a splat,
/// or of a dense resource whose blob is loaded; nullopt otherwise (callers
/// check the size against the type they expect).
std::optional<ArrayRef<char>> getDenseConstantBytes(Attribute attr);

/// The bytes of a float or integer constant (`attr`) as a dense constant's
/// row-major data stores the element (least significant byte first);
/// nullopt for other attributes and widths that are not whole bytes.
std::optional<SmallVector<char, 8>> getScalarElementBytes(Attribute attr);

/// A dense resource of `type` holding a copy of `bytes` (row-major elements),
/// for a constant computed at compile time; `name` is the resource key's
/// prefix (made unique by the context).
DenseResourceElementsAttr getDenseResourceAttr(ShapedType type, StringRef name,
                                               ArrayRef<char> bytes);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_CONSTANTDATA_H
