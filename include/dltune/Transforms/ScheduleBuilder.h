//===- ScheduleBuilder.h - Transform IR for a SchedulePlan ------*- C++ -*-===//
//
// Builds the Transform-dialect schedule of a SchedulePlan with the dialect's
// op builders: tiling for threads (or GPU blocks and threads), cache and
// register tiles, operand packing, epilogue fusion, vectorization and the
// clean-up patterns that follow it. The ops it creates belong to the
// Transform dialect's extensions that registerScheduleExtensions adds; the
// context must have the Transform, GPU and Vector dialects loaded.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_SCHEDULEBUILDER_H
#define DLTUNE_TRANSFORMS_SCHEDULEBUILDER_H

#include "dltune/Transforms/SchedulePlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>

namespace mlir::dltune {

/// An elementwise consumer fused into the scheduled op's loops (CPU only).
struct FusedEpilogue {
  /// For each loop of the epilogue, the loop of the scheduled op it iterates.
  SmallVector<int64_t> rootLoopOfDim;
  /// The op's output is initialised by a fill, which is fused too.
  bool fuseFill = false;
};

/// Builds, at `b`'s insertion point inside a transform sequence, the ops
/// that schedule the payload op bound to handle `op` (in payload root
/// `root`) according to `values` (knob name -> value). With `fused`, the
/// elementwise epilogue bound to `epilogue` (and, if `fused->fuseFill`, the
/// fill bound to `fill`) is fused into the op's loops; otherwise both may be
/// null. Fails, creating nothing, when a knob the plan needs is missing or
/// the tile sizes do not fit the loops; `error` then says why.
LogicalResult buildSchedule(OpBuilder &b, Location loc, Value root, Value op,
                            Value epilogue, Value fill,
                            const SchedulePlan &plan,
                            const std::map<std::string, int64_t> &values,
                            std::string &error,
                            const FusedEpilogue *fused = nullptr);

/// The unit attributes that mark the payload ops a schedule module matches.
struct ScheduleMarkers {
  StringRef op, epilogue, fill;
};

/// A whole transform module, `module attributes
/// {transform.with_named_sequence}` holding the entry sequence
/// `@__transform_main(%root: !transform.any_op {transform.readonly})`: it
/// matches the ops marked with `markers` (the epilogue and the fill only
/// where `fused` asks for them), schedules them with buildSchedule and
/// yields. Fails as buildSchedule does, or when the context lacks the
/// dialects and transform extensions the schedule uses.
FailureOr<OwningOpRef<ModuleOp>>
buildScheduleModule(MLIRContext *ctx, Location loc, const SchedulePlan &plan,
                    const std::map<std::string, int64_t> &values,
                    const ScheduleMarkers &markers, std::string &error,
                    const FusedEpilogue *fused = nullptr);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_SCHEDULEBUILDER_H
