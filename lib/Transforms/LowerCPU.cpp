//===- LowerCPU.cpp - --dltune-lower-cpu ----------------------------------===//

#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNELOWERCPU
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {
struct LowerCPUPass : public dltune::impl::DLTuneLowerCPUBase<LowerCPUPass> {
  using DLTuneLowerCPUBase::DLTuneLowerCPUBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm("builtin.module");
    buildCpuLoweringPipeline(pm, openmp, foldConstantPacks, padInPlace);
    pm.getDependentDialects(registry);
    registry.insert<LLVM::LLVMDialect, omp::OpenMPDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Leftover transform scripts are not payload.
    SmallVector<Operation *> scripts;
    for (Operation &op : module.getBody()->getOperations())
      if (isa<transform::TransformOpInterface>(op) ||
          (isa<ModuleOp>(op) &&
           op.hasAttr(transform::TransformDialect::kWithNamedSequenceAttrName)))
        scripts.push_back(&op);
    for (Operation *op : scripts)
      op->erase();
    OpPassManager pm("builtin.module");
    buildCpuLoweringPipeline(pm, openmp, foldConstantPacks, padInPlace);
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};
} // namespace
