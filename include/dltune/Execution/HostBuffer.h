//===- HostBuffer.h - Typed host buffers for kernel arguments ---*- C++ -*-===//
#ifndef DLTUNE_EXECUTION_HOSTBUFFER_H
#define DLTUNE_EXECUTION_HOSTBUFFER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::dltune {

enum class ElementKind { F16, F32, F64, I8, I16, I32, I64, BF16 };

/// Shape and element type of one kernel argument or result.
struct BufferType {
  ElementKind element = ElementKind::F32;
  std::vector<int64_t> shape;

  int64_t getNumElements() const;
  size_t getElementBytes() const;
  size_t getBytes() const { return getNumElements() * getElementBytes(); }
  bool isFloat() const;
  std::string str() const; // e.g. "512x512xf32"
};

/// A 64-byte aligned host buffer of one BufferType.
class HostBuffer {
public:
  explicit HostBuffer(BufferType type);
  HostBuffer(const HostBuffer &other);
  HostBuffer &operator=(const HostBuffer &) = delete;

  const BufferType &getType() const { return type; }
  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }

  /// Deterministic pseudo-random contents from `seed`: floats in [-1, 1],
  /// integers in [-8, 8].
  void fillRandom(uint64_t seed);
  double getAsDouble(int64_t index) const;

private:
  struct Free {
    void operator()(void *p) const;
  };
  BufferType type;
  std::unique_ptr<void, Free> storage;
};

/// Result of comparing an output against the reference.
struct Comparison {
  bool ok = true;
  double maxRelativeError = 0; // max |a-b| / (max |ref| + tiny)
  int64_t firstMismatch = -1;
  std::string message;
};

/// How far a tuned output may be from the untuned one: |a - b| <= atol +
/// rtol * max |ref| for every element.
struct Tolerance {
  double rtol = 1e-4, atol = 0;
};

/// The default tolerance of an element type - reassociated sums differ by
/// a few units in the last place of the largest magnitude: f64 1e-9, f32
/// 1e-4, f16 1e-2, bf16 5e-2 (relative); integers exact. Non-negative
/// `rtol`/`atol` override it (for integers too).
Tolerance getTolerance(ElementKind element, double rtol = -1, double atol = -1);

/// Compares every element with `tolerance`, by default the element type's
/// (getTolerance): integers exactly.
Comparison compareBuffers(const HostBuffer &actual, const HostBuffer &reference,
                          std::optional<Tolerance> tolerance = std::nullopt);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_HOSTBUFFER_H
