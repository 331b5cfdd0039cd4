//===- Common.cpp - Shared pieces of the dltune subcommands ---------------===//

#include "Common.h"

#include "dltune/InitAllDialects.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace mlir;

namespace dltune_tool {

std::string getDefaultConfigPipeline(int threads, bool winograd) {
  std::string count = std::to_string(threads);
  return (winograd ? "dltune-winograd{threads=" + count + "}," : std::string()) +
         "dltune-annotate{default-config=true threads=" + count + "}";
}

std::string formatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

int fail(const llvm::Twine &msg) {
  llvm::errs() << "dltune: error: " << msg << "\n";
  return 1;
}

void CliStrategyObserver::onModelError(llvm::Error error) {
  llvm::errs() << "dltune: warning: cost model: " << llvm::toString(std::move(error))
               << " (proposing at random until the next fit)\n";
}

void setUpContext(MLIRContext &ctx) {
  DialectRegistry registry;
  dltune::registerAllDLTuneDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
}

OwningOpRef<ModuleOp> parseFile(const std::string &path, MLIRContext &ctx) {
  std::string error;
  auto buffer = openInputFile(path, &error);
  if (!buffer) {
    llvm::errs() << "dltune: error: " << error << "\n";
    return {};
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? NAN : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

} // namespace dltune_tool
