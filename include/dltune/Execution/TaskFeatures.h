//===- TaskFeatures.h - Cost-model features of tasks and their history -*- C++ -*-===//
//
// What a cost model sees of a configuration in a live run: its knobs, the
// op's loops tiled by them (footprints against the caches, tile counts,
// vector length, threads against cores) and the device. A transfer source
// from a database is featurised the same way with its own task's op, which
// is rebuilt from the task record (op name, strides and dilations, operand
// shapes and element types), and the device it was measured on: rows of a
// 56x56 conv measured on another machine say what they are instead of
// posing as rows of the target's 7x7 conv on this one.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_TASKFEATURES_H
#define DLTUNE_EXECUTION_TASKFEATURES_H

#include "dltune/Execution/DeviceInfo.h"
#include "dltune/Tuning/FeatureExtractor/FeatureExtractor.h"
#include "dltune/Tuning/Transfer/DatabaseHistory.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::dltune {

/// Knob, op, schedule and device features of `op`'s configurations in
/// `space` (which must outlive the extractor); knob features alone when the
/// op has no dltune schedule plan. `target` is "cpu" or "gpu"; `flops` of
/// one call of the task.
std::shared_ptr<const FeatureExtractor> makeTaskFeatures(linalg::LinalgOp op,
                                                         const SearchSpace &space,
                                                         const std::string &target,
                                                         const DeviceInfo &device, double flops);

/// A module holding one function with the op a task record describes (a
/// linalg named op dltune schedules: matmul, batch_matmul, the NHWC/NCHW
/// convolutions, depthwise conv, pooling), its operands the function's
/// arguments. Fails, saying why, for generic ops, ops with user-defined
/// indexing maps and records whose shapes the op does not accept.
llvm::Expected<OwningOpRef<ModuleOp>> rebuildTaskOp(MLIRContext &context,
                                                    const TaskRecord &task);

/// The features of `source`'s rows for a target task: `targetSpace`'s knobs
/// (the rows are matched to them by name), the source task's own op and the
/// device it was measured on. Fails, saying why, where the op cannot be
/// rebuilt, has no schedule plan, or gives other columns than
/// `targetFeatures` (the caller then falls back to the target's features).
llvm::Expected<std::shared_ptr<const FeatureExtractor>>
makeHistorySourceFeatures(MLIRContext &context, const TaskHistorySource &source,
                          const SearchSpace &targetSpace,
                          const FeatureExtractor &targetFeatures);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_TASKFEATURES_H
