//===- WorkerProtocol.cpp - Fault injection for workers -------------------===//

#include "dltune/Tuning/Process/WorkerProtocol.h"
#include "dltune/Tuning/Space/SearchSpace.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdlib>

using namespace mlir::dltune;

bool worker::shouldInjectFault(llvm::StringRef kind, llvm::StringRef config) {
  const char *spec = std::getenv("DLTUNE_INJECT_FAULT");
  if (!spec || !*spec)
    return false;
  const char *seed = std::getenv("DLTUNE_INJECT_SEED");
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(spec).split(parts, ',', -1, false);
  for (llvm::StringRef part : parts) {
    auto [name, prob] = part.trim().split(':');
    if (name != kind)
      continue;
    double p = 1.0;
    if (!prob.empty())
      p = std::atof(prob.str().c_str());
    std::string key = std::string(seed ? seed : "0") + "|" + kind.str() + "|" + config.str();
    double u = static_cast<double>(stableHash(key) >> 11) * (1.0 / 9007199254740992.0);
    return u < p;
  }
  return false;
}
