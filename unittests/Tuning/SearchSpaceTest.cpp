//===- SearchSpaceTest.cpp - Search space library tests -------------------===//

#include "dltune/Tuning/Space/SearchSpace.h"

#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace mlir::dltune;

static SearchSpace makeSpace(std::vector<Knob> knobs, std::vector<SpaceParam> params,
                             std::vector<std::string> constraints) {
  llvm::Expected<SearchSpace> s =
      SearchSpace::create(std::move(knobs), std::move(params), std::move(constraints));
  EXPECT_TRUE(static_cast<bool>(s)) << (s ? "" : llvm::toString(s.takeError()));
  return std::move(*s);
}

/// A GPU-like space with divisibility, bound and product constraints.
static SearchSpace gpuLikeSpace() {
  return makeSpace({{"block_m", {8, 16, 32, 64, 128}},
                    {"block_n", {8, 16, 32, 64, 128}},
                    {"thread_m", {1, 2, 4, 8}},
                    {"thread_n", {1, 2, 4, 8}},
                    {"tile_k", {4, 8, 16, 32}}},
                   {{"M", 96}, {"N", 128}, {"max_threads", 256}, {"smem", 8192}},
                   {"M % block_m == 0", "N % block_n == 0",
                    "block_m % thread_m == 0", "block_n % thread_n == 0",
                    "(block_m / thread_m) * (block_n / thread_n) <= max_threads",
                    "(block_m + block_n) * tile_k * 4 <= smem"});
}

/// Brute force over the cartesian product, as the ground truth.
static std::vector<Config> bruteForce(const SearchSpace &space) {
  std::vector<Config> all;
  llvm::ArrayRef<Knob> knobs = space.getKnobs();
  std::vector<size_t> idx(knobs.size(), 0);
  while (true) {
    Config c;
    for (size_t i = 0; i < knobs.size(); ++i)
      c.push_back(knobs[i].values[idx[i]]);
    if (space.isValid(c))
      all.push_back(c);
    size_t k = knobs.size();
    while (k > 0) {
      --k;
      if (++idx[k] < knobs[k].values.size())
        break;
      idx[k] = 0;
      if (k == 0)
        return all;
    }
    if (knobs.empty())
      return all;
  }
}

TEST(SearchSpace, EnumerationMatchesBruteForce) {
  SearchSpace space = gpuLikeSpace();
  std::vector<Config> expected = bruteForce(space);
  std::vector<Config> got;
  space.enumerate([&](const Config &c) {
    got.push_back(c);
    return true;
  });
  EXPECT_EQ(got, expected);
  EXPECT_EQ(space.countValid(), expected.size());
  EXPECT_GT(expected.size(), 10u);
  EXPECT_LT(expected.size(), space.getCartesianSize());
  EXPECT_EQ(space.countValid(5), 5u);
}

TEST(SearchSpace, SamplingIsValidAndCoversTheSpace) {
  SearchSpace space = gpuLikeSpace();
  std::vector<Config> all = bruteForce(space);
  std::mt19937_64 rng(42);
  std::map<Config, int> counts;
  const int draws = 200 * static_cast<int>(all.size());
  for (int i = 0; i < draws; ++i) {
    std::optional<Config> c = space.sample(rng);
    ASSERT_TRUE(c.has_value());
    ASSERT_TRUE(space.isValid(*c)) << space.formatConfig(*c);
    counts[*c]++;
  }
  // Uniform: every config appears, none far from the expected 200.
  EXPECT_EQ(counts.size(), all.size());
  for (auto &[c, n] : counts) {
    EXPECT_GT(n, 110) << space.formatConfig(c);
    EXPECT_LT(n, 300) << space.formatConfig(c);
  }
}

TEST(SearchSpace, SparseSpaceFallsBackToEnumeration) {
  // One valid config in 10^4: rejection sampling alone would give up.
  std::vector<int64_t> values;
  for (int i = 1; i <= 100; ++i)
    values.push_back(i);
  SearchSpace space = makeSpace({{"a", values}, {"b", values}}, {},
                                {"a == 37", "b == 73"});
  std::mt19937_64 rng(1);
  std::optional<Config> c = space.sample(rng);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, (Config{37, 73}));
  SearchSpace empty = makeSpace({{"a", {1, 2}}}, {}, {"a > 5"});
  EXPECT_FALSE(empty.sample(rng).has_value());
  EXPECT_EQ(empty.countValid(), 0u);
}

TEST(SearchSpace, NeighboursAreValidAdjacentMoves) {
  SearchSpace space = gpuLikeSpace();
  Config c = {32, 64, 4, 4, 8};
  ASSERT_TRUE(space.isValid(c));
  std::vector<Config> ns = space.getNeighbours(c);
  EXPECT_FALSE(ns.empty());
  std::set<Config> unique(ns.begin(), ns.end());
  EXPECT_EQ(unique.size(), ns.size());
  for (const Config &n : ns) {
    EXPECT_TRUE(space.isValid(n));
    int differing = 0;
    for (size_t i = 0; i < c.size(); ++i)
      if (n[i] != c[i]) {
        ++differing;
        std::optional<std::vector<size_t>> a = space.toIndices(c), b = space.toIndices(n);
        EXPECT_EQ(std::abs(static_cast<long>((*a)[i]) - static_cast<long>((*b)[i])), 1);
      }
    EXPECT_EQ(differing, 1);
  }
  // block_m 64 does not divide M = 96, so it is not a neighbour.
  EXPECT_EQ(std::count_if(ns.begin(), ns.end(), [](const Config &n) { return n[0] == 64; }), 0);
}

TEST(SearchSpace, CheckValidNamesKnobAndConstraint) {
  SearchSpace space = gpuLikeSpace();
  llvm::Error e1 = space.checkValid({32, 64, 3, 4, 8});
  ASSERT_TRUE(static_cast<bool>(e1));
  EXPECT_EQ(llvm::toString(std::move(e1)),
            "value 3 of knob 'thread_m' is not among its candidates");
  llvm::Error e2 = space.checkValid({64, 64, 4, 4, 8});
  ASSERT_TRUE(static_cast<bool>(e2));
  EXPECT_EQ(llvm::toString(std::move(e2)),
            "violates constraint 'M % block_m == 0' (M = 96, block_m = 64)");
  llvm::Error e3 = space.checkValid({32, 64});
  ASSERT_TRUE(static_cast<bool>(e3));
  llvm::consumeError(std::move(e3));
  EXPECT_FALSE(static_cast<bool>(space.checkValid({32, 64, 4, 4, 8})));
}

TEST(SearchSpace, CreateRejectsMalformedSpaces) {
  auto error = [](std::vector<Knob> k, std::vector<SpaceParam> p,
                  std::vector<std::string> c) {
    llvm::Expected<SearchSpace> s = SearchSpace::create(k, p, c);
    EXPECT_FALSE(static_cast<bool>(s));
    return s ? std::string() : llvm::toString(s.takeError());
  };
  EXPECT_EQ(error({{"a", {1}}, {"a", {2}}}, {}, {}), "knob 'a' is declared twice");
  EXPECT_EQ(error({{"a", {}}}, {}, {}), "knob 'a' has no candidate values");
  EXPECT_EQ(error({{"a", {1, 1}}}, {}, {}), "knob 'a' lists a candidate value twice");
  EXPECT_EQ(error({{"a", {1}}}, {{"a", 3}}, {}),
            "parameter 'a' has the same name as a knob or another parameter");
  EXPECT_EQ(error({{"a", {1}}}, {}, {"a < b"}),
            "constraint 'a < b' uses unknown name 'b' (neither a knob nor a parameter)");
  EXPECT_NE(error({{"a", {1}}}, {}, {"a <"}).find("expected an operand"), std::string::npos);
  // Such names would make config text ("a,b=1") ambiguous.
  EXPECT_EQ(error({{"a,b", {1}}}, {}, {}),
            "knob name 'a,b' may not contain spaces, control characters or any of , = ; [ ] { }");
  EXPECT_NE(error({{"a", {1}}}, {{"N=", 3}}, {}).find("parameter name 'N='"), std::string::npos);
}

TEST(SearchSpace, HashIsStableAndDiscriminating) {
  TaskDescriptor t{"linalg.matmul", {{96, 64}, {64, 128}, {96, 128}}, {"f32", "f32", "f32"},
                   "gpu", "linalg.generic {...} ins(A, B) outs(C)"};
  uint64_t h = t.getHash();
  EXPECT_EQ(h, TaskDescriptor(t).getHash());
  // FNV-1a of a fixed string is a fixed number on every platform.
  EXPECT_EQ(stableHash("dltune"), 0xf3d0940a4177bacbULL);
  TaskDescriptor other = t;
  other.computation += " ";
  EXPECT_NE(other.getHash(), h);
  other = t;
  other.target = "cpu";
  EXPECT_NE(other.getHash(), h);
  // Only the computation and the target identify a task: the readable
  // name and the report fields do not.
  other = t;
  other.opKind = "renamed";
  other.shapes[0][0] = 97;
  EXPECT_EQ(other.getHash(), h);
}

TEST(SearchSpace, EnumerationAndSamplingOfHugeSparseSpacesAreBounded) {
  // 64^10 configurations; the constraint reads the last knob, so nothing is
  // pruned early and none is valid. Unbounded, this walk never ends.
  std::vector<Knob> knobs;
  std::string sum;
  for (int k = 0; k < 10; ++k) {
    std::string name = "k" + std::to_string(k);
    Knob knob{name, {}};
    for (int v = 1; v <= 64; ++v)
      knob.values.push_back(v);
    knobs.push_back(std::move(knob));
    sum += (k ? " + " : "") + name;
  }
  SearchSpace space = makeSpace(knobs, {}, {sum + " == 3"});
  uint64_t visited = 0;
  EXPECT_FALSE(space.enumerate([&](const Config &) { return ++visited, true; }, 1000000));
  EXPECT_EQ(visited, 0u);
  std::mt19937_64 rng(3); // rejection, then the default-bounded walk

  EXPECT_FALSE(space.sample(rng).has_value());
  // A complete walk says so.
  EXPECT_TRUE(gpuLikeSpace().enumerate([](const Config &) { return true; }));
}

TEST(SearchSpace, CanonicalStringParsesBack) {
  SearchSpace space = gpuLikeSpace();
  llvm::Expected<SearchSpace> back = SearchSpace::parseCanonicalString(space.getCanonicalString());
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->getCanonicalString(), space.getCanonicalString());
  EXPECT_EQ(back->countValid(), space.countValid());
  SearchSpace negative = makeSpace({{"a", {-3, 0, 7}}}, {{"N", -1}}, {});
  back = SearchSpace::parseCanonicalString(negative.getCanonicalString());
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->getCanonicalString(), negative.getCanonicalString());
  for (const char *bad : {"", "knobs{a=[1];}", "knobs{a=[x];}params{}constraints{}",
                          "knobs{a=[1];}params{N=;}constraints{}",
                          "knobs{a=[1];}params{}constraints{b > 0;}",
                          "knobs{a=[1];}params{}constraints{}extra"}) {
    llvm::Expected<SearchSpace> s = SearchSpace::parseCanonicalString(bad);
    EXPECT_FALSE(static_cast<bool>(s)) << bad;
    if (!s)
      llvm::consumeError(s.takeError());
  }
}
