//===- ConstraintExpr.cpp - Integer constraint expressions ----------------===//

#include "dltune/Tuning/Space/ConstraintExpr.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

using namespace mlir::dltune;
using llvm::StringRef;

namespace mlir::dltune {
/// Recursive-descent parser with C precedence.
class ConstraintParser {
public:
  ConstraintParser(StringRef text, ConstraintExpr &out) : text(text), out(out) {}

  llvm::Error run() {
    int root = parseOr();
    depths.clear();
    if (root < 0)
      return takeError();
    skipSpace();
    if (pos != text.size())
      return fail("unexpected '" + text.substr(pos, 1).str() + "'");
    // Evaluation walks from the root, which must be the last node.
    if (root != static_cast<int>(out.nodes.size()) - 1)
      out.nodes.push_back(out.nodes[root]);
    return llvm::Error::success();
  }

private:
  using Kind = ConstraintExpr::NodeKind;
  StringRef text;
  ConstraintExpr &out;
  size_t pos = 0;
  std::string error;
  // Parsing and evaluation recurse once per level of the tree (a chain
  // "a+a+...+a" is as deep as it is long), so depth is bounded to keep the
  // stack bounded.
  static constexpr int kMaxDepth = 256;
  int nesting = 0;         // open parseOr/parseUnary calls
  std::vector<int> depths; // depth of each node

  llvm::Error takeError() {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "in constraint '%s': %s",
                                   text.str().c_str(), error.c_str());
  }
  llvm::Error fail(const std::string &msg) {
    error = msg + " at column " + std::to_string(pos + 1);
    return takeError();
  }
  int failNode(const std::string &msg) {
    if (error.empty())
      error = msg + " at column " + std::to_string(pos + 1);
    return -1;
  }

  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(StringRef tok) {
    skipSpace();
    if (text.substr(pos).starts_with(tok)) {
      pos += tok.size();
      return true;
    }
    return false;
  }
  int add(Kind k, int lhs = -1, int rhs = -1, int64_t value = 0) {
    int depth = 1 + std::max(lhs < 0 ? 0 : depths[lhs], rhs < 0 ? 0 : depths[rhs]);
    if (depth > kMaxDepth)
      return failNode("expression nested deeper than " + std::to_string(kMaxDepth) +
                      " levels");
    out.nodes.push_back({k, value, lhs, rhs});
    depths.push_back(depth);
    return static_cast<int>(out.nodes.size()) - 1;
  }
  /// Counts one level of parser recursion; false (with an error) past the bound.
  struct Nest {
    ConstraintParser &p;
    bool ok;
    explicit Nest(ConstraintParser &p) : p(p), ok(++p.nesting <= kMaxDepth) {
      if (!ok)
        p.failNode("expression nested deeper than " + std::to_string(kMaxDepth) +
                   " levels");
    }
    ~Nest() { --p.nesting; }
  };

  int parseOr() {
    Nest nest(*this);
    if (!nest.ok)
      return -1;
    int lhs = parseAnd();
    while (lhs >= 0 && consume("||")) {
      int rhs = parseAnd();
      if (rhs < 0)
        return -1;
      lhs = add(Kind::Or, lhs, rhs);
    }
    return lhs;
  }
  int parseAnd() {
    int lhs = parseCmp();
    while (lhs >= 0 && consume("&&")) {
      int rhs = parseCmp();
      if (rhs < 0)
        return -1;
      lhs = add(Kind::And, lhs, rhs);
    }
    return lhs;
  }
  int parseCmp() {
    int lhs = parseAdd();
    while (lhs >= 0) {
      Kind k;
      if (consume("=="))
        k = Kind::Eq;
      else if (consume("!="))
        k = Kind::Ne;
      else if (consume("<="))
        k = Kind::Le;
      else if (consume(">="))
        k = Kind::Ge;
      else if (consume("<"))
        k = Kind::Lt;
      else if (consume(">"))
        k = Kind::Gt;
      else
        break;
      int rhs = parseAdd();
      if (rhs < 0)
        return -1;
      lhs = add(k, lhs, rhs);
    }
    return lhs;
  }
  int parseAdd() {
    int lhs = parseMul();
    while (lhs >= 0) {
      Kind k;
      if (consume("+"))
        k = Kind::Add;
      else if (consume("-"))
        k = Kind::Sub;
      else
        break;
      int rhs = parseMul();
      if (rhs < 0)
        return -1;
      lhs = add(k, lhs, rhs);
    }
    return lhs;
  }
  int parseMul() {
    int lhs = parseUnary();
    while (lhs >= 0) {
      Kind k;
      if (consume("*"))
        k = Kind::Mul;
      else if (consume("/"))
        k = Kind::Div;
      else if (consume("%"))
        k = Kind::Rem;
      else
        break;
      int rhs = parseUnary();
      if (rhs < 0)
        return -1;
      lhs = add(k, lhs, rhs);
    }
    return lhs;
  }
  int parseUnary() {
    Nest nest(*this);
    if (!nest.ok)
      return -1;
    if (consume("-")) {
      int v = parseUnary();
      return v < 0 ? -1 : add(Kind::Neg, v);
    }
    // `!` but not `!=`, which cannot start an operand anyway.
    if (consume("!")) {
      int v = parseUnary();
      return v < 0 ? -1 : add(Kind::Not, v);
    }
    return parsePrimary();
  }
  int parsePrimary() {
    skipSpace();
    if (pos >= text.size())
      return failNode("expected an operand");
    char c = text[pos];
    if (c == '(') {
      ++pos;
      int v = parseOr();
      if (v < 0)
        return -1;
      if (!consume(")"))
        return failNode("expected ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = pos;
      while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
        ++pos;
      int64_t value = 0;
      if (text.substr(start, pos - start).getAsInteger(10, value))
        return failNode("integer literal out of range");
      return add(Kind::Literal, -1, -1, value);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos;
      while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) ||
                                   text[pos] == '_'))
        ++pos;
      std::string name = text.substr(start, pos - start).str();
      if (name == "min" || name == "max") {
        if (!consume("("))
          return failNode("expected '(' after " + name);
        int a = parseOr();
        if (a < 0)
          return -1;
        if (!consume(","))
          return failNode("expected ','");
        int b = parseOr();
        if (b < 0)
          return -1;
        if (!consume(")"))
          return failNode("expected ')'");
        return add(name == "min" ? Kind::Min : Kind::Max, a, b);
      }
      auto it = std::find(out.identifiers.begin(), out.identifiers.end(), name);
      int64_t index = it - out.identifiers.begin();
      if (it == out.identifiers.end())
        out.identifiers.push_back(name);
      return add(Kind::Identifier, -1, -1, index);
    }
    return failNode(std::string("unexpected '") + c + "'");
  }
};
} // namespace mlir::dltune

llvm::Expected<ConstraintExpr> ConstraintExpr::parse(StringRef text) {
  ConstraintExpr expr;
  expr.text = text.trim().str();
  if (expr.text.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "empty constraint");
  ConstraintParser parser(expr.text, expr);
  if (llvm::Error err = parser.run())
    return std::move(err);
  return expr;
}

namespace {
struct Evaluator {
  const std::vector<ConstraintExpr::Node> &nodes;
  llvm::ArrayRef<int64_t> values;
  bool ok = true;

  int64_t eval(int index) {
    using Kind = ConstraintExpr::NodeKind;
    const ConstraintExpr::Node &n = nodes[index];
    switch (n.kind) {
    case Kind::Literal:
      return n.value;
    case Kind::Identifier:
      return values[n.value];
    case Kind::Neg: {
      int64_t a = eval(n.lhs);
      if (a == INT64_MIN)
        return ok = false, 0;
      return -a;
    }
    case Kind::Not:
      return eval(n.lhs) == 0;
    case Kind::And:
      return eval(n.lhs) != 0 && eval(n.rhs) != 0;
    case Kind::Or:
      return eval(n.lhs) != 0 || eval(n.rhs) != 0;
    default:
      break;
    }
    int64_t a = eval(n.lhs), b = eval(n.rhs), r = 0;
    switch (n.kind) {
    case Kind::Mul:
      if (__builtin_mul_overflow(a, b, &r))
        return ok = false, 0;
      return r;
    case Kind::Div:
      if (b == 0 || (a == INT64_MIN && b == -1))
        return ok = false, 0;
      return a / b;
    case Kind::Rem:
      if (b == 0)
        return ok = false, 0;
      return b == -1 ? 0 : a % b; // INT64_MIN % -1 traps on x86
    case Kind::Add:
      if (__builtin_add_overflow(a, b, &r))
        return ok = false, 0;
      return r;
    case Kind::Sub:
      if (__builtin_sub_overflow(a, b, &r))
        return ok = false, 0;
      return r;
    case Kind::Eq:
      return a == b;
    case Kind::Ne:
      return a != b;
    case Kind::Lt:
      return a < b;
    case Kind::Le:
      return a <= b;
    case Kind::Gt:
      return a > b;
    case Kind::Ge:
      return a >= b;
    case Kind::Min:
      return std::min(a, b);
    case Kind::Max:
      return std::max(a, b);
    default:
      return 0;
    }
  }
};
} // namespace

bool ConstraintExpr::evaluate(llvm::ArrayRef<int64_t> identifierValues,
                              int64_t &result) const {
  Evaluator ev{nodes, identifierValues};
  int64_t r = ev.eval(static_cast<int>(nodes.size()) - 1);
  if (!ev.ok)
    return false;
  result = r;
  return true;
}
