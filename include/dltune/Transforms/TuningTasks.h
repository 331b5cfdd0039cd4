//===- TuningTasks.h - Grouping annotated ops into tuning tasks -*- C++ -*-===//
//
// Ops with the same kind, operand shapes and types, target and space form
// one task: they share measurements and get the same configuration. Each
// task carries a standalone kernel module (the op and its fused epilogue in
// a function whose arguments are their non-constant operands; on the CPU the
// first occurrence's constant weights are cloned in, so that they are packed
// at compile time as in the model) that builders compile and runners time.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TRANSFORMS_TUNINGTASKS_H
#define DLTUNE_TRANSFORMS_TUNINGTASKS_H

#include "dltune/Tuning/Database/Database.h"
#include "dltune/Tuning/Space/SearchSpace.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::dltune {

inline constexpr llvm::StringLiteral kTaskEntryName = "dltune_task";

struct TuningTask {
  TaskDescriptor descriptor;
  SearchSpace space;
  TaskRecord record;               // hash and description for the database
  OwningOpRef<ModuleOp> kernel;    // func @dltune_task
  SmallVector<Operation *> ops;    // the instances in the payload module
  double flops = 0;
  /// How often the task's kernel runs per call of the model: its instances,
  /// each counted as often as the loops around it run it.
  int64_t executionsPerCall = 0;
  int64_t getWeight() const { return executionsPerCall; }
};

/// How many times `op` runs each time its function is called: the product
/// of the constant trip counts of the scf.for loops around it (an imported
/// grouped convolution is one conv in a loop over its groups); a loop whose
/// trip count is not constant counts once.
int64_t getExecutionsPerCall(Operation *op);

/// Groups every op carrying dltune.space (and no dltune.schedule) into
/// tasks, in order of first appearance. Ops whose kernel cannot be
/// extracted get a remark and are skipped.
std::vector<TuningTask> collectTuningTasks(ModuleOp module);

/// "gpu" when the kernel's op was annotated for the GPU, else "cpu".
std::string getKernelTarget(ModuleOp kernel);

/// Sets `config` (a "knob=value,..." string) as the dltune.config of the
/// op of a task kernel; fails with a message when it is not valid for the
/// op's space.
llvm::Error setKernelConfig(ModuleOp kernel, llvm::StringRef config);

} // namespace mlir::dltune

#endif // DLTUNE_TRANSFORMS_TUNINGTASKS_H
