//===- DLTuneAttrs.h - dltune attributes ------------------------*- C++ -*-===//
#ifndef DLTUNE_DIALECT_DLTUNEATTRS_H
#define DLTUNE_DIALECT_DLTUNEATTRS_H

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Tuning/Space/SearchSpace.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#define GET_ATTRDEF_CLASSES
#include "dltune/Dialect/DLTuneAttrs.h.inc"

namespace mlir::dltune {
/// Builds a KnobAttr from an MLIR-independent knob.
KnobAttr getKnobAttr(MLIRContext *context, const Knob &knob);
/// Builds a SpaceAttr from an MLIR-independent space.
SpaceAttr getSpaceAttr(MLIRContext *context, const SearchSpace &space);
} // namespace mlir::dltune

#endif // DLTUNE_DIALECT_DLTUNEATTRS_H
