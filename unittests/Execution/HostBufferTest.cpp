//===- HostBufferTest.cpp - Host buffer fill and compare tests ------------===//

#include "dltune/Execution/HostBuffer.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::dltune;

TEST(HostBuffer, FillIsDeterministicAndBounded) {
  BufferType t{ElementKind::F32, {17, 5}};
  HostBuffer a(t), b(t), c(t);
  a.fillRandom(7);
  b.fillRandom(7);
  c.fillRandom(8);
  EXPECT_TRUE(compareBuffers(a, b, 0).ok);
  EXPECT_FALSE(compareBuffers(a, c).ok);
  double sum = 0;
  for (int64_t i = 0; i < t.getNumElements(); ++i) {
    double v = a.getAsDouble(i);
    EXPECT_GE(v, -1.0);
    EXPECT_LE(v, 1.0);
    sum += v;
  }
  EXPECT_LT(std::fabs(sum / t.getNumElements()), 0.3);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data()) % 64, 0u);
}

TEST(HostBuffer, CompareUsesRelativeToleranceForFloats) {
  BufferType t{ElementKind::F32, {4}};
  HostBuffer ref(t), out(t);
  float *r = static_cast<float *>(ref.data());
  float *o = static_cast<float *>(out.data());
  for (int i = 0; i < 4; ++i)
    r[i] = o[i] = 100.0f * (i + 1);
  o[2] += 0.01f; // 2.5e-5 of max |ref| = 400
  Comparison ok = compareBuffers(out, ref, 1e-4);
  EXPECT_TRUE(ok.ok);
  EXPECT_NEAR(ok.maxRelativeError, 0.01 / 400, 1e-6);
  o[2] += 1.0f;
  Comparison bad = compareBuffers(out, ref, 1e-4);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.firstMismatch, 2);
  o[2] = NAN;
  EXPECT_FALSE(compareBuffers(out, ref, 1e-4).ok);
}

TEST(HostBuffer, IntegersMustMatchExactly) {
  BufferType t{ElementKind::I32, {3}};
  HostBuffer ref(t), out(t);
  ref.fillRandom(1);
  HostBuffer copy(ref);
  EXPECT_TRUE(compareBuffers(copy, ref).ok);
  static_cast<int32_t *>(copy.data())[1] += 1;
  EXPECT_FALSE(compareBuffers(copy, ref).ok);
  BufferType other{ElementKind::I32, {4}};
  EXPECT_FALSE(compareBuffers(HostBuffer(other), ref).ok);
}
