//===- ConstraintExpr.h - Integer constraint expressions --------*- C++ -*-===//
//
// A small integer expression language used by search-space constraints, e.g.
// "tile_m % reg_m == 0" or "(tile_m / thr_m) * (tile_n / thr_n) <= 1024".
// Kept free of MLIR so that search and cost-model code can use it directly.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_SPACE_CONSTRAINTEXPR_H
#define DLTUNE_TUNING_SPACE_CONSTRAINTEXPR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::dltune {

/// A parsed constraint. Supports integer literals, identifiers, unary -/!,
/// * / % + -, comparisons (== != < <= > >=), && and ||, min(a,b), max(a,b)
/// and parentheses. A comparison yields 0 or 1; a constraint holds when the
/// whole expression is non-zero.
class ConstraintExpr {
public:
  /// Parses `text`; the error names the offending position. Expressions
  /// nested deeper than 256 levels are refused (evaluation recurses).
  static llvm::Expected<ConstraintExpr> parse(llvm::StringRef text);

  /// Distinct identifiers in order of first use; `evaluate` takes one value
  /// per identifier in this order.
  llvm::ArrayRef<std::string> getIdentifiers() const { return identifiers; }
  llvm::StringRef getText() const { return text; }

  /// Evaluates the expression. Returns false (and leaves `result` unset) on
  /// division or remainder by zero and on 64-bit overflow, which callers
  /// treat as a violation.
  bool evaluate(llvm::ArrayRef<int64_t> identifierValues,
                int64_t &result) const;

  /// Convenience: evaluates and tests for non-zero; division by zero fails.
  bool holds(llvm::ArrayRef<int64_t> identifierValues) const {
    int64_t r = 0;
    return evaluate(identifierValues, r) && r != 0;
  }

  enum class NodeKind : uint8_t {
    Literal, Identifier, Neg, Not, Mul, Div, Rem, Add, Sub,
    Eq, Ne, Lt, Le, Gt, Ge, And, Or, Min, Max
  };
  struct Node {
    NodeKind kind;
    int64_t value = 0; // literal value or identifier index
    int lhs = -1, rhs = -1;
  };

private:
  friend class ConstraintParser;
  std::string text;
  std::vector<std::string> identifiers;
  std::vector<Node> nodes; // root is nodes.back()
};

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SPACE_CONSTRAINTEXPR_H
