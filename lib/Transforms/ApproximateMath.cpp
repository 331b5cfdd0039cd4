//===- ApproximateMath.cpp - Polynomial exp and erf -----------------------===//
//
// math.erf has no LLVM intrinsic, and libm's erff and expf take no vectors:
// LLVM scalarizes a vector exp into one expf call per lane. Upstream's
// polynomial approximations instead, which vectorize.
//
//===----------------------------------------------------------------------===//

#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNEAPPROXIMATEMATH
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;

namespace {
struct ApproximateMathPass
    : public dltune::impl::DLTuneApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) { return name == "math.exp"; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
