//===- CountConfigsPass.cpp - The example's own pass ----------------------===//

#include "CountConfigsPass.h"

#include "dltune/DLTune.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct RequireConfigsPass : public PassWrapper<RequireConfigsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RequireConfigsPass)
  StringRef getArgument() const final { return "my-require-configs"; }
  StringRef getDescription() const final {
    return "Fail unless every op with a dltune space has a chosen config";
  }
  void runOnOperation() override {
    int64_t spaces = 0, configured = 0;
    getOperation().walk([&](Operation *op) {
      if (!op->hasAttr(dltune::DLTuneDialect::kSpaceAttrName))
        return;
      ++spaces;
      if (op->hasAttr(dltune::DLTuneDialect::kConfigAttrName))
        ++configured;
      else
        op->emitError() << "my-require-configs: no dltune configuration";
    });
    getOperation().emitRemark() << "my-require-configs: " << configured << " of " << spaces
                                << " tunable ops configured";
    if (configured != spaces)
      signalPassFailure();
  }
};
} // namespace

void my::registerRequireConfigsPass() { PassRegistration<RequireConfigsPass>(); }
