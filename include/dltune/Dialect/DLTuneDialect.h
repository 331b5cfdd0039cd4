//===- DLTuneDialect.h - dltune dialect -------------------------*- C++ -*-===//
#ifndef DLTUNE_DIALECT_DLTUNEDIALECT_H
#define DLTUNE_DIALECT_DLTUNEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dltune/Dialect/DLTuneDialect.h.inc"

#endif // DLTUNE_DIALECT_DLTUNEDIALECT_H
