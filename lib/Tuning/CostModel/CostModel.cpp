//===- CostModel.cpp - The cost models a run can name ---------------------===//
//
// The factory of the CostModel interface: one place that knows every model
// name, each model defined in its own file.
//
//===----------------------------------------------------------------------===//

#include "dltune/Tuning/CostModel/CostModel.h"
#include "dltune/Tuning/CostModel/GaussianProcessCostModel.h"

using namespace mlir::dltune;

llvm::Expected<std::unique_ptr<CostModel>>
mlir::dltune::createCostModel(llvm::StringRef name, uint64_t seed, int planSize) {
  if (name == "xgb")
    return createXGBoostCostModel(/*rank=*/true, seed, planSize);
  if (name == "xgb-reg")
    return createXGBoostCostModel(/*rank=*/false, seed, planSize);
  if (name == "rf")
    return createRandomForestCostModel(seed);
  if (name == "dgp") {
    DeepGPOptions options;
    options.seed = seed;
    return createDeepGPCostModel(options);
  }
  if (name == "gp") {
    ExactGPOptions options;
    options.seed = seed;
    return createExactGPCostModel(options);
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown cost model '%s' (known: xgb, xgb-reg, rf, dgp, gp)",
                                 name.str().c_str());
}
