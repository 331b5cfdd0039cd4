//===- SearchStrategy.cpp - The strategies a run can name -----------------===//
//
// The factory of the SearchStrategy interface: one place that knows every
// strategy name, each strategy defined in its own file.
//
//===----------------------------------------------------------------------===//

#include "SearchStrategy/ModelBasedSearch.h"

#include "dltune/Tuning/Support/Error.h"

using namespace mlir::dltune;

llvm::Expected<std::unique_ptr<SearchStrategy>>
mlir::dltune::createSearchStrategy(llvm::StringRef name, const StrategyOptions &options) {
  if (name == "random" || name == "grid") {
    // A model the user asked for would be silently unused.
    if (!options.costModel.empty() || options.makeCostModel)
      return makeError("strategy '" + name + "' uses no cost model (cost model '" +
                       options.costModel + "' given); use sa, evolutionary or bo");
    if (name == "random")
      return createRandomSearch();
    return createGridSearch();
  }
  if (name == "sa" || name == "evolutionary" || name == "bo")
    return createModelBasedStrategy(name, options);
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "unknown search strategy '%s' (known: random, grid, sa, evolutionary, bo)",
      name.str().c_str());
}
