//===- ConstantData.cpp - The bytes behind a constant tensor --------------===//

#include "dltune/Transforms/ConstantData.h"

#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstddef>

using namespace mlir;

std::optional<ArrayRef<char>> mlir::dltune::getDenseConstantBytes(Attribute attr) {
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(attr)) {
    if (dense.isSplat())
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return std::nullopt;
}

DenseResourceElementsAttr mlir::dltune::getDenseResourceAttr(ShapedType type, StringRef name,
                                                             ArrayRef<char> bytes) {
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(std::max_align_t));
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}
