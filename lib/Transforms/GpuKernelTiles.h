//===- GpuKernelTiles.h - Reading a kernel's tiles dictionary ---*- C++ -*-===//
//
// Private to lib/Transforms: what the window and row kernels' tiles
// (DLTuneDialect::kGpuKernelAttrName) share when read back.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_GPUKERNELTILES_H
#define DLTUNE_LIB_TRANSFORMS_GPUKERNELTILES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <optional>
#include <string>

namespace mlir::dltune {

/// The entries of `attr` by name where each is a positive integer named in
/// `names`; nullopt otherwise (and for a null `attr`).
inline std::optional<std::map<std::string, int64_t>>
readPositiveTileEntries(DictionaryAttr attr, ArrayRef<StringRef> names) {
  if (!attr)
    return std::nullopt;
  std::map<std::string, int64_t> values;
  for (NamedAttribute entry : attr.getValue()) {
    auto value = dyn_cast<IntegerAttr>(entry.getValue());
    StringRef name = entry.getName().getValue();
    if (!value || value.getInt() < 1 || !llvm::is_contained(names, name))
      return std::nullopt;
    values[name.str()] = value.getInt();
  }
  return values;
}

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_GPUKERNELTILES_H
