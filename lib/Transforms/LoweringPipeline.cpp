//===- LoweringPipeline.cpp - The pass lists of the lowering passes -------===//
//
// Built from pass constructors, not parsed from text: a pipeline string
// needs every upstream pass in the global registry, which a downstream tool
// that registers only dltune's passes does not have.
//
//===----------------------------------------------------------------------===//

#include "LoweringPipeline.h"

#include "dltune/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// A slice of a tensor.empty becomes an empty tensor of the slice's shape
/// (upstream tensor::populateFoldTensorEmptyPatterns). A fused schedule
/// fills and accumulates each register tile in such a slice: left a slice
/// of the whole op's empty result, bufferization may place every tile in a
/// buffer of the whole result (4.8 MB for MobileNet-v2's first expand
/// conv), written and read back through memory, where a tile-sized buffer
/// stays in L1.
struct FoldEmptySlicesPass
    : public PassWrapper<FoldEmptySlicesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FoldEmptySlicesPass)
  StringRef getArgument() const override { return "dltune-fold-empty-slices"; }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns, /*foldSingleUseOnly=*/false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

/// A tensor linalg.fill with several uses becomes one fill per use. CSE
/// merges the identical zero fills of a model's equally shaped outputs;
/// bufferized, that is one filled buffer copied into each user's output (a
/// kernel a copy on the GPU), and the GPU matmul kernel cannot absorb a fill
/// that is not of its own output.
struct FillPerUsePass : public PassWrapper<FillPerUsePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FillPerUsePass)
  StringRef getArgument() const override { return "dltune-fill-per-use"; }
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->getResult(0).hasOneUse())
        fills.push_back(fill);
    });
    OpBuilder b(&getContext());
    for (linalg::FillOp fill : fills) {
      // Only outputs of linalg ops get their own fill: a slice taken from
      // the filled tensor and inserted back stays one buffer.
      SmallVector<OpOperand *> outputs;
      for (OpOperand &use : fill->getResult(0).getUses())
        if (auto op = dyn_cast<linalg::LinalgOp>(use.getOwner()); op && op.isDpsInit(&use))
          outputs.push_back(&use);
      bool othersRemain = outputs.size() < static_cast<size_t>(std::distance(
                                               fill->getResult(0).use_begin(),
                                               fill->getResult(0).use_end()));
      for (OpOperand *use : othersRemain ? ArrayRef<OpOperand *>(outputs)
                                         : ArrayRef<OpOperand *>(outputs).drop_front()) {
        b.setInsertionPoint(fill);
        use->set(b.clone(*fill)->getResult(0));
      }
    }
  }
};
} // namespace

void mlir::dltune::addBufferization(OpPassManager &pm, bool deallocate, bool fillPerUse) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(std::make_unique<FoldEmptySlicesPass>());
  pm.addPass(createCSEPass());
  if (fillPerUse)
    pm.addPass(std::make_unique<FillPerUsePass>());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion = bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  // Every buffer bufferization allocates is freed after its last use (a
  // model's intermediates, a fused kernel's per-tile buffers): without it
  // each call leaked them, and the next call page-faulted fresh memory in
  // (MobileNet-v2: 15,500 page faults, ~60 MB, per call). Not on the GPU
  // path: its workgroup-memory buffers are not heap memory.
  if (deallocate) {
    bufferization::buildBufferDeallocationPipeline(pm);
    // The ownership-based pipeline frees every buffer at the end of its
    // block, so a model's intermediates all lived until it returned
    // (MobileNet-v2: ~100 activation buffers, more than the L3, each layer
    // writing memory no cache held). Each dealloc now follows its buffer's
    // last use, and malloc hands the freed, cache-warm memory to the next
    // layers.
    pm.addNestedPass<func::FuncOp>(bufferization::createOptimizeAllocationLivenessPass());
  }
  pm.addPass(createConvertBufferizationToMemRefPass());
}

void mlir::dltune::buildCpuLoweringPipeline(OpPassManager &pm, bool openmp,
                                            bool foldConstantPacks, bool padInPlace) {
  // Before anything folds or CSEs the packing loops' index arithmetic.
  if (foldConstantPacks)
    pm.addPass(createDLTuneFoldConstantPacks());
  // Before CSE merges the producers' empty destinations.
  if (padInPlace)
    pm.addPass(createDLTunePadInPlace());
  pm.addPass(createDLTuneApproximateMath());
  addBufferization(pm, /*deallocate=*/true);
  addCpuLoweringToLLVM(pm, openmp, openmp);
}

void mlir::dltune::addCpuLoweringToLLVM(OpPassManager &pm, bool forallToOpenMP,
                                        bool lowerOpenMP) {
  pm.addPass(createDLTuneStridedCopyToLoops());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertVectorToSCFPass(VectorTransferToSCFOptions().enableFullUnroll()));
  // dltune's own forall lowering gives each loop the team size its
  // `threads` knob chose (num_threads), not the runtime's default.
  if (forallToOpenMP)
    pm.addPass(createDLTuneForallToOpenMP());
  else
    pm.addPass(createForallToParallelLoopPass());
  // Order matters: scf->openmp wraps bodies in memref.alloca_scope, which
  // must become LLVM before scf->cf makes those bodies multi-block.
  pm.addPass(createLowerAffinePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  // What LLVM has no intrinsic for (erf, ...) becomes a libm call, which the
  // JIT and the candidates' shared objects resolve against the process.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  if (lowerOpenMP)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
