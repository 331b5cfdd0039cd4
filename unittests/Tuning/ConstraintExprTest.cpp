//===- ConstraintExprTest.cpp - Constraint expression parser tests --------===//

#include "dltune/Tuning/ConstraintExpr.h"

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
