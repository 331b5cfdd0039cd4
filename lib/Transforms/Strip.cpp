//===- Strip.cpp - Remove dltune attributes -------------------------------===//

#include "dltune/Dialect/DLTuneAttrs.h"
#include "dltune/Transforms/Passes.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNESTRIP
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;

namespace {
struct StripPass : public dltune::impl::DLTuneStripBase<StripPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      SmallVector<StringAttr> names;
      for (NamedAttribute attr : op->getDiscardableAttrs())
        // The team size a schedule left on its loops, the tile sizes it
        // left on a GPU matmul and the TF32 opt-in are part of the scheduled
        // code (the lowering reads them), not annotations.
        if (attr.getName().getValue().starts_with("dltune.") &&
            attr.getName() != dltune::DLTuneDialect::kNumThreadsAttrName &&
            attr.getName() != dltune::DLTuneDialect::kGpuKernelAttrName &&
            attr.getName() != dltune::DLTuneDialect::kAllowTf32AttrName)
          names.push_back(attr.getName());
      for (StringAttr name : names)
        op->removeAttr(name);
    });
  }
};
} // namespace
