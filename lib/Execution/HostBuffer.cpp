//===- HostBuffer.cpp - Typed host buffers for kernel arguments -----------===//

#include "dltune/Execution/HostBuffer.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace mlir::dltune;

int64_t BufferType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

size_t BufferType::getElementBytes() const {
  switch (element) {
  case ElementKind::I8:
    return 1;
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  }
  return 4;
}

bool BufferType::isFloat() const {
  return element == ElementKind::F16 || element == ElementKind::BF16 ||
         element == ElementKind::F32 || element == ElementKind::F64;
}

std::string BufferType::str() const {
  static const char *names[] = {"f16", "f32", "f64", "i8", "i16", "i32", "i64", "bf16"};
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + names[static_cast<int>(element)];
}

void HostBuffer::Free::operator()(void *p) const { std::free(p); }

HostBuffer::HostBuffer(BufferType t) : type(std::move(t)) {
  // Sizes come from user input (shapes, .npy headers): an overflow or a
  // failed allocation is an out-of-memory error (the worker's handler exits
  // with out_of_memory, dltune's with a diagnostic), never a write through
  // a null pointer.
  uint64_t elements = 1, bytes = 0;
  bool overflow = false;
  for (int64_t d : type.shape)
    overflow |= d < 0 || __builtin_mul_overflow(elements, uint64_t(d), &elements);
  overflow |= __builtin_mul_overflow(elements, uint64_t(type.getElementBytes()), &bytes) ||
              bytes > (uint64_t(1) << 62);
  if (!overflow) {
    bytes = std::max<uint64_t>(64, (bytes + 63) / 64 * 64);
    storage.reset(std::aligned_alloc(64, bytes));
  }
  if (!storage) {
    std::string reason = "cannot allocate a " + type.str() + " buffer (" +
                         (overflow ? std::string("its size overflows")
                                   : std::to_string(bytes) + " bytes") +
                         ")";
    llvm::report_bad_alloc_error(reason.c_str());
  }
  std::memset(storage.get(), 0, bytes);
}

HostBuffer::HostBuffer(const HostBuffer &other) : HostBuffer(other.type) {
  std::memcpy(storage.get(), other.storage.get(), type.getBytes());
}

static uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = ((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = (x >> 13) & 0x3ff;
  if (exp <= 0)
    return sign;
  if (exp >= 31)
    return sign | 0x7c00;
  return sign | (exp << 10) | mant;
}

static float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t x;
  if (exp == 31) // infinity or NaN
    x = sign | 0x7f800000 | (mant << 13);
  else if (exp == 0) // zero or subnormal: mant * 2^-24
    return (sign ? -1.0f : 1.0f) * std::ldexp(static_cast<float>(mant), -24);
  else
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// bfloat16 is the upper half of an f32; round to nearest even.
static uint16_t floatToBFloat(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

static float bfloatToFloat(uint16_t b) {
  uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

void HostBuffer::fillRandom(uint64_t seed) {
  // SplitMix64: fast, and the same sequence everywhere.
  uint64_t state = seed * 0x9e3779b97f4a7c15ULL + 1;
  auto next = [&]() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  int64_t n = type.getNumElements();
  char *p = static_cast<char *>(data());
  for (int64_t i = 0; i < n; ++i) {
    uint64_t r = next();
    double u = static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0);
    double f = 2.0 * u - 1.0;
    int64_t k = static_cast<int64_t>(r % 17) - 8;
    switch (type.element) {
    case ElementKind::F16:
      reinterpret_cast<uint16_t *>(p)[i] = floatToHalf(static_cast<float>(f));
      break;
    case ElementKind::BF16:
      reinterpret_cast<uint16_t *>(p)[i] = floatToBFloat(static_cast<float>(f));
      break;
    case ElementKind::F32:
      reinterpret_cast<float *>(p)[i] = static_cast<float>(f);
      break;
    case ElementKind::F64:
      reinterpret_cast<double *>(p)[i] = f;
      break;
    case ElementKind::I8:
      reinterpret_cast<int8_t *>(p)[i] = static_cast<int8_t>(k);
      break;
    case ElementKind::I16:
      reinterpret_cast<int16_t *>(p)[i] = static_cast<int16_t>(k);
      break;
    case ElementKind::I32:
      reinterpret_cast<int32_t *>(p)[i] = static_cast<int32_t>(k);
      break;
    case ElementKind::I64:
      reinterpret_cast<int64_t *>(p)[i] = k;
      break;
    }
  }
}

double HostBuffer::getAsDouble(int64_t i) const {
  const char *p = static_cast<const char *>(data());
  switch (type.element) {
  case ElementKind::F16:
    return halfToFloat(reinterpret_cast<const uint16_t *>(p)[i]);
  case ElementKind::BF16:
    return bfloatToFloat(reinterpret_cast<const uint16_t *>(p)[i]);
  case ElementKind::F32:
    return reinterpret_cast<const float *>(p)[i];
  case ElementKind::F64:
    return reinterpret_cast<const double *>(p)[i];
  case ElementKind::I8:
    return reinterpret_cast<const int8_t *>(p)[i];
  case ElementKind::I16:
    return reinterpret_cast<const int16_t *>(p)[i];
  case ElementKind::I32:
    return reinterpret_cast<const int32_t *>(p)[i];
  case ElementKind::I64:
    return static_cast<double>(reinterpret_cast<const int64_t *>(p)[i]);
  }
  return 0;
}

Tolerance mlir::dltune::getTolerance(ElementKind element, double rtol, double atol) {
  Tolerance t;
  switch (element) {
  case ElementKind::F64:
    t.rtol = 1e-9;
    break;
  case ElementKind::F32:
    t.rtol = 1e-4;
    break;
  case ElementKind::F16:
    t.rtol = 1e-2;
    break;
  case ElementKind::BF16:
    t.rtol = 5e-2;
    break;
  case ElementKind::I8:
  case ElementKind::I16:
  case ElementKind::I32:
  case ElementKind::I64:
    t.rtol = 0;
    break;
  }
  if (rtol >= 0)
    t.rtol = rtol;
  if (atol >= 0)
    t.atol = atol;
  return t;
}

Comparison mlir::dltune::compareBuffers(const HostBuffer &actual,
                                        const HostBuffer &reference,
                                        std::optional<Tolerance> tolerance) {
  Comparison c;
  if (actual.getType().shape != reference.getType().shape ||
      actual.getType().element != reference.getType().element) {
    c.ok = false;
    c.message = "type mismatch: " + actual.getType().str() + " vs " +
                reference.getType().str();
    return c;
  }
  int64_t n = reference.getType().getNumElements();
  double maxRef = 0, maxDiff = 0;
  for (int64_t i = 0; i < n; ++i)
    maxRef = std::max(maxRef, std::fabs(reference.getAsDouble(i)));
  Tolerance t = tolerance ? *tolerance : getTolerance(reference.getType().element);
  double allowed = t.atol + t.rtol * maxRef;
  for (int64_t i = 0; i < n; ++i) {
    double a = actual.getAsDouble(i), b = reference.getAsDouble(i);
    double d = a == b ? 0 : std::fabs(a - b); // equal infinities differ by 0
    if (std::isnan(a) != std::isnan(b))
      d = INFINITY;
    if (d > maxDiff)
      maxDiff = d;
    if (d > allowed && c.firstMismatch < 0) {
      c.firstMismatch = i;
      c.message = "element " + std::to_string(i) + ": got " + std::to_string(a) +
                  ", expected " + std::to_string(b) + " (allowed difference " +
                  std::to_string(allowed) + ")";
    }
  }
  c.maxRelativeError = maxDiff / (maxRef + 1e-30);
  c.ok = c.firstMismatch < 0;
  return c;
}
