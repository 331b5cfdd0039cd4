//===- ConstraintExprTest.cpp - Constraint expression parser tests --------===//

#include "dltune/Tuning/Space/ConstraintExpr.h"

#include "gtest/gtest.h"

using namespace mlir::dltune;

static int64_t eval(const char *text, std::vector<int64_t> values = {}) {
  llvm::Expected<ConstraintExpr> e = ConstraintExpr::parse(text);
  EXPECT_TRUE(static_cast<bool>(e)) << (e ? "" : llvm::toString(e.takeError()));
  int64_t r = -12345;
  EXPECT_TRUE(e->evaluate(values, r));
  return r;
}

TEST(ConstraintExpr, PrecedenceAndAssociativity) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("10 - 4 - 3"), 3);
  EXPECT_EQ(eval("100 / 10 / 5"), 2);
  EXPECT_EQ(eval("17 % 5 * 2"), 4);
  EXPECT_EQ(eval("-3 + 5"), 2);
  EXPECT_EQ(eval("1 < 2 == 1"), 1);
  EXPECT_EQ(eval("1 + 1 == 2 && 3 > 4 || 5 >= 5"), 1);
  EXPECT_EQ(eval("!0 && !(2 != 2)"), 1);
  EXPECT_EQ(eval("min(3, 8) + max(3, 8)"), 11);
}

TEST(ConstraintExpr, IdentifiersInFirstUseOrder) {
  llvm::Expected<ConstraintExpr> e =
      ConstraintExpr::parse("tile_m % reg_m == 0 && tile_m <= M");
  ASSERT_TRUE(static_cast<bool>(e));
  ASSERT_EQ(e->getIdentifiers().size(), 3u);
  EXPECT_EQ(e->getIdentifiers()[0], "tile_m");
  EXPECT_EQ(e->getIdentifiers()[1], "reg_m");
  EXPECT_EQ(e->getIdentifiers()[2], "M");
  EXPECT_TRUE(e->holds({32, 8, 64}));
  EXPECT_FALSE(e->holds({32, 6, 64}));
  EXPECT_FALSE(e->holds({128, 8, 64}));
}

TEST(ConstraintExpr, DivisionByZeroIsAViolation) {
  llvm::Expected<ConstraintExpr> e = ConstraintExpr::parse("a / b >= 0");
  ASSERT_TRUE(static_cast<bool>(e));
  int64_t r;
  EXPECT_FALSE(e->evaluate({4, 0}, r));
  EXPECT_FALSE(e->holds({4, 0}));
  EXPECT_TRUE(e->holds({4, 2}));
  llvm::Expected<ConstraintExpr> m = ConstraintExpr::parse("a % b == 0");
  ASSERT_TRUE(static_cast<bool>(m));
  EXPECT_FALSE(m->holds({4, 0}));
}

TEST(ConstraintExpr, ParseErrorsNameTheProblem) {
  for (const char *bad : {"", "1 +", "(a", "a $ b", "min(a)", "a b", "99999999999999999999"}) {
    llvm::Expected<ConstraintExpr> e = ConstraintExpr::parse(bad);
    ASSERT_FALSE(static_cast<bool>(e)) << bad;
    std::string msg = llvm::toString(e.takeError());
    EXPECT_FALSE(msg.empty());
  }
  llvm::Expected<ConstraintExpr> e = ConstraintExpr::parse("a $ b");
  ASSERT_FALSE(static_cast<bool>(e));
  EXPECT_NE(llvm::toString(e.takeError()).find("column 3"), std::string::npos);
}

TEST(ConstraintExpr, OverflowIsAViolationNotAWrappedValue) {
  llvm::Expected<ConstraintExpr> e = ConstraintExpr::parse("a * b <= 4096");
  ASSERT_TRUE(static_cast<bool>(e));
  int64_t r = -1;
  // 2^62 * 4 wraps to 0 in two's complement, which would satisfy the bound.
  EXPECT_FALSE(e->evaluate({int64_t(1) << 62, 4}, r));
  EXPECT_FALSE(e->holds({int64_t(1) << 62, 4}));
  EXPECT_TRUE(e->holds({64, 64}));
  for (const char *text : {"a + a", "0 - a - a", "-(0 - a - 1)"}) {
    llvm::Expected<ConstraintExpr> x = ConstraintExpr::parse(text);
    ASSERT_TRUE(static_cast<bool>(x)) << text;
    EXPECT_FALSE(x->evaluate({INT64_MAX}, r)) << text;
  }
}

TEST(ConstraintExpr, MinDividedByMinusOneDoesNotTrap) {
  llvm::Expected<ConstraintExpr> e = ConstraintExpr::parse("a / b");
  ASSERT_TRUE(static_cast<bool>(e));
  int64_t r = 0;
  EXPECT_FALSE(e->evaluate({INT64_MIN, -1}, r)); // SIGFPE on x86 if computed
  llvm::Expected<ConstraintExpr> rem = ConstraintExpr::parse("a % b == 0");
  ASSERT_TRUE(static_cast<bool>(rem));
  EXPECT_TRUE(rem->holds({INT64_MIN, -1}));
}

TEST(ConstraintExpr, DeepExpressionsAreRefusedNotOverflowingTheStack) {
  // Both the parser (parentheses) and the evaluator (a long chain) recurse
  // once per level.
  std::string parens = std::string(1000000, '(') + "1" + std::string(1000000, ')');
  llvm::Expected<ConstraintExpr> e = ConstraintExpr::parse(parens);
  ASSERT_FALSE(static_cast<bool>(e));
  EXPECT_NE(llvm::toString(e.takeError()).find("nested deeper than 256 levels"),
            std::string::npos);
  std::string chain = "1";
  for (int i = 0; i < 1000000; ++i)
    chain += "+1";
  llvm::Expected<ConstraintExpr> c = ConstraintExpr::parse(chain);
  ASSERT_FALSE(static_cast<bool>(c));
  llvm::consumeError(c.takeError());
  std::string minus(1000000, '-');
  llvm::Expected<ConstraintExpr> m = ConstraintExpr::parse(minus + "1");
  ASSERT_FALSE(static_cast<bool>(m));
  llvm::consumeError(m.takeError());
  // 200 levels are fine.
  EXPECT_EQ(eval((std::string(100, '(') + "1" + std::string(100, ')') + "+1").c_str()), 2);
}
