//===- ForallToOpenMP.cpp - scf.forall to OpenMP with a team size --------===//
//
// Upstream's convert-scf-to-openmp takes one thread count for the whole
// module; dltune's `threads` knob is per op. The knob reaches the bufferized
// scf.forall as `dltune.num_threads`; scf-forall-to-parallel and
// convert-scf-to-openmp drop discardable attributes, so the counts are
// carried across the conversion by position: the conversion replaces each
// outermost scf.parallel by one outermost omp.parallel in place, so the
// n-th of one list is the n-th of the other (checked by count).
//
//===----------------------------------------------------------------------===//

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEFORALLTOOPENMP
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;


/// Ops of type OpTy with no ancestor of the same type, in pre-order.
template <typename OpTy>
static SmallVector<OpTy> getOutermost(ModuleOp module) {
  SmallVector<OpTy> out;
  module.walk<WalkOrder::PreOrder>([&](OpTy op) {
    if (!op->template getParentOfType<OpTy>())
      out.push_back(op);
  });
  return out;
}

namespace {
struct ForallToOpenMPPass
    : public dltune::impl::DLTuneForallToOpenMPBase<ForallToOpenMPPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    SmallVector<scf::ForallOp> foralls;
    module.walk([&](scf::ForallOp op) { foralls.push_back(op); });
    // Innermost first (post-order walk), so that no converted op is visited.
    for (scf::ForallOp forall : foralls) {
      IntegerAttr threads = forall->getAttrOfType<IntegerAttr>(DLTuneDialect::kNumThreadsAttrName);
      rewriter.setInsertionPoint(forall);
      scf::ParallelOp parallel;
      if (failed(scf::forallToParallelLoop(rewriter, forall, &parallel))) {
        forall.emitError("dltune-forall-to-openmp: cannot convert this loop");
        return signalPassFailure();
      }
      if (threads)
        parallel->setAttr(DLTuneDialect::kNumThreadsAttrName, threads);
    }
    SmallVector<int64_t> teamSizes;
    for (scf::ParallelOp p : getOutermost<scf::ParallelOp>(module)) {
      auto threads = p->getAttrOfType<IntegerAttr>(DLTuneDialect::kNumThreadsAttrName);
      teamSizes.push_back(threads ? threads.getInt() : 0);
    }
    OpPassManager pm("builtin.module");
    pm.addPass(createConvertSCFToOpenMPPass());
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
    SmallVector<omp::ParallelOp> regions = getOutermost<omp::ParallelOp>(module);
    if (regions.size() != teamSizes.size()) {
      module.emitError() << "dltune-forall-to-openmp: " << teamSizes.size()
                         << " parallel loops became " << regions.size()
                         << " OpenMP regions; cannot assign their team sizes";
      return signalPassFailure();
    }
    for (auto [region, size] : llvm::zip(regions, teamSizes)) {
      if (size <= 0)
        continue;
      rewriter.setInsertionPoint(region);
      Value n = arith::ConstantIntOp::create(rewriter, region.getLoc(), size, 32);
      region.getNumThreadsMutable().assign(n);
    }
  }
};
} // namespace
