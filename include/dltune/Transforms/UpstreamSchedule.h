//===- UpstreamSchedule.h - transform.tune.knob interop ---------*- C++ -*-===//
//
// An op may name an upstream transform sequence as its schedule template
// (`dltune.schedule = @seq`). The `transform.tune.knob` ops of that sequence
// define the op's space; a configuration fills their `selected` values.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_UPSTREAMSCHEDULE_H
#define DLTUNE_TRANSFORMS_UPSTREAMSCHEDULE_H

#include "dltune/Tuning/Space/SearchSpace.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>

namespace mlir::dltune {

/// Finds the transform.named_sequence `name` anywhere in `module`; emits an
/// error at `user` if there is none.
FailureOr<transform::NamedSequenceOp>
lookupScheduleSequence(ModuleOp module, FlatSymbolRefAttr name, Operation *user);

/// The space formed by the sequence's tune knobs (integer options only).
FailureOr<SearchSpace> getUpstreamScheduleSpace(ModuleOp module,
                                                FlatSymbolRefAttr name,
                                                Operation *user);

/// Clones the sequence into a fresh transform module, with each knob's
/// `selected` set from `values`. Emits an error at `user` when a knob has
/// no value or the value is not one of its options.
FailureOr<OwningOpRef<ModuleOp>>
instantiateUpstreamSchedule(ModuleOp module, FlatSymbolRefAttr name,
                            const std::map<std::string, int64_t> &values,
                            Operation *user);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_UPSTREAMSCHEDULE_H
