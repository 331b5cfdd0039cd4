//===- ApplyBest.cpp - --dltune-apply-best --------------------------------===//

#include "dltune/Execution/ModuleTuner.h"
#include "dltune/Transforms/AutotunePasses.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEAPPLYBEST
#include "dltune/Transforms/AutotunePasses.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

namespace {
struct ApplyBestPass : public dltune::impl::DLTuneApplyBestBase<ApplyBestPass> {
  using DLTuneApplyBestBase::DLTuneApplyBestBase;
  void runOnOperation() override {
    llvm::Expected<int> n = applyBestFromDatabase(getOperation(), db, target);
    if (!n) {
      getOperation().emitError() << "dltune-apply-best: " << llvm::toString(n.takeError());
      return signalPassFailure();
    }
  }
};
} // namespace
