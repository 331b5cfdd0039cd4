//===- HostBufferTest.cpp - Host buffer fill and compare tests ------------===//

#include "dltune/Execution/HostBuffer.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace mlir::dltune;

TEST(HostBuffer, FillIsDeterministicAndBounded) {
  BufferType t{ElementKind::F32, {17, 5}};
  HostBuffer a(t), b(t), c(t);
  a.fillRandom(7);
  b.fillRandom(7);
  c.fillRandom(8);
  EXPECT_TRUE(compareBuffers(a, b, Tolerance{0, 0}).ok);
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
  Comparison ok = compareBuffers(out, ref, Tolerance{1e-4, 0});
  EXPECT_TRUE(ok.ok);
  EXPECT_NEAR(ok.maxRelativeError, 0.01 / 400, 1e-6);
  o[2] += 1.0f;
  Comparison bad = compareBuffers(out, ref, Tolerance{1e-4, 0});
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.firstMismatch, 2);
  o[2] = NAN;
  EXPECT_FALSE(compareBuffers(out, ref, Tolerance{1e-4, 0}).ok);
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

TEST(HostBuffer, ToleranceFollowsTheElementType) {
  EXPECT_EQ(getTolerance(ElementKind::I8).rtol, 0);
  EXPECT_EQ(getTolerance(ElementKind::I32).rtol, 0);
  EXPECT_EQ(getTolerance(ElementKind::F32).rtol, 1e-4);
  EXPECT_GT(getTolerance(ElementKind::F16).rtol, getTolerance(ElementKind::F32).rtol);
  EXPECT_GT(getTolerance(ElementKind::BF16).rtol, getTolerance(ElementKind::F16).rtol);
  EXPECT_EQ(getTolerance(ElementKind::F32, 0.5, 2).rtol, 0.5);
  EXPECT_EQ(getTolerance(ElementKind::I32, -1, 2).atol, 2);

  // An f16 result off by 5 ulps at 1.0 (0.49%) passes by default; the same
  // relative error in f32 does not.
  BufferType h{ElementKind::F16, {2}};
  HostBuffer href(h), hout(h);
  uint16_t *hr = static_cast<uint16_t *>(href.data());
  uint16_t *ho = static_cast<uint16_t *>(hout.data());
  hr[0] = 0x3c00; // 1.0
  ho[0] = 0x3c05; // 1.0 + 5 * 2^-10
  hr[1] = ho[1] = 0x3800; // 0.5
  EXPECT_TRUE(compareBuffers(hout, href).ok);
  BufferType f{ElementKind::F32, {2}};
  HostBuffer fref(f), fout(f);
  float *fr = static_cast<float *>(fref.data());
  float *fo = static_cast<float *>(fout.data());
  fr[0] = 1.0f;
  fo[0] = 1.0f + 5.0f / 1024;
  fr[1] = fo[1] = 0.5f;
  EXPECT_FALSE(compareBuffers(fout, fref).ok);
  EXPECT_TRUE(compareBuffers(fout, fref, getTolerance(ElementKind::F32, 1e-2)).ok);
  // bf16 values round-trip through the buffer within their precision.
  BufferType b{ElementKind::BF16, {64}};
  HostBuffer bf(b);
  bf.fillRandom(5);
  for (int64_t i = 0; i < 64; ++i) {
    EXPECT_LE(std::fabs(bf.getAsDouble(i)), 1.0);
  }
  EXPECT_EQ(b.str(), "64xbf16");

  // Integers with an allowed absolute difference.
  BufferType it{ElementKind::I32, {1}};
  HostBuffer iref(it), iout(it);
  static_cast<int32_t *>(iout.data())[0] = 2;
  EXPECT_FALSE(compareBuffers(iout, iref).ok);
  EXPECT_TRUE(compareBuffers(iout, iref, getTolerance(ElementKind::I32, -1, 2)).ok);
}

TEST(HostBuffer, HalfConversionKeepsSpecialValues) {
  BufferType t{ElementKind::F16, {3}};
  HostBuffer h(t);
  uint16_t *p = static_cast<uint16_t *>(h.data());
  p[0] = 0x7c00; // +inf
  p[1] = 0x0001; // smallest subnormal, 2^-24
  p[2] = 0x7e00; // NaN
  EXPECT_TRUE(std::isinf(h.getAsDouble(0)));
  EXPECT_DOUBLE_EQ(h.getAsDouble(1), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isnan(h.getAsDouble(2)));
}
