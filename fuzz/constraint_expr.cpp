//===- constraint_expr.cpp - Fuzz target: constraint expressions ----------===//
//
// Parses the input as a constraint; what parses must evaluate (any values,
// int64 extremes included) without a trap, parse again from its text to the
// same identifiers, and give a space that enumerates and samples.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dltune/Tuning/Space/SearchSpace.h"

using namespace mlir::dltune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<ConstraintExpr> e = ConstraintExpr::parse(text);
  if (!e) {
    llvm::consumeError(e.takeError());
    return 0;
  }
  size_t n = e->getIdentifiers().size();
  for (int64_t v : {int64_t(0), int64_t(1), int64_t(-1), int64_t(7), INT64_MAX, INT64_MIN}) {
    std::vector<int64_t> values(n, v);
    int64_t result;
    (void)e->evaluate(values, result);
  }
  llvm::Expected<ConstraintExpr> again = ConstraintExpr::parse(e->getText());
  FUZZ_CHECK(static_cast<bool>(again), llvm::toString(again.takeError()));
  FUZZ_CHECK(again->getIdentifiers() == e->getIdentifiers(), e->getText());

  // Every identifier a knob: always a valid space.
  std::vector<Knob> knobs;
  for (const std::string &id : e->getIdentifiers())
    knobs.push_back({id, {-2, 0, 1, 3, INT64_MAX}});
  llvm::Expected<SearchSpace> space =
      SearchSpace::create(knobs, {}, {std::string(e->getText())});
  FUZZ_CHECK(static_cast<bool>(space), llvm::toString(space.takeError()));
  uint64_t valid = 0;
  space->enumerate([&](const Config &c) {
    FUZZ_CHECK(space->isValid(c), space->formatConfig(c));
    return ++valid < 1000;
  }, /*maxSteps=*/100000);
  llvm::Expected<SearchSpace> back =
      SearchSpace::parseCanonicalString(space->getCanonicalString());
  FUZZ_CHECK(static_cast<bool>(back), llvm::toString(back.takeError()));
  FUZZ_CHECK(back->getCanonicalString() == space->getCanonicalString(),
             space->getCanonicalString());
  return 0;
}
