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

std::optional<SmallVector<char, 8>> mlir::dltune::getScalarElementBytes(Attribute attr) {
  APInt bits;
  if (auto f = dyn_cast<FloatAttr>(attr))
    bits = f.getValue().bitcastToAPInt();
  else if (auto i = dyn_cast<IntegerAttr>(attr))
    bits = i.getValue();
  else
    return std::nullopt;
  if (bits.getBitWidth() % 8 != 0)
    return std::nullopt;
  SmallVector<char, 8> bytes(bits.getBitWidth() / 8);
  for (unsigned b = 0; b < bytes.size(); ++b)
    bytes[b] = static_cast<char>(bits.extractBitsAsZExtValue(8, b * 8));
  return bytes;
}

DenseResourceElementsAttr mlir::dltune::getDenseResourceAttr(ShapedType type, StringRef name,
                                                             ArrayRef<char> bytes) {
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(std::max_align_t));
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}
