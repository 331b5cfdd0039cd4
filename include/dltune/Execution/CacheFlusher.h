//===- CacheFlusher.h - Evict a kernel's data between timed calls -*- C++ -*-===//
//
// A kernel timed in a loop finds its inputs, weights and output in cache
// from the previous call; inside a model it reads them from memory (the
// previous op wrote megabytes since). MobileNet-v2's stride-2 depthwise conv
// (114x114x96 in) took 0.31 ms hot and 1.33 ms with the caches flushed
// before each call (2026-11-26): per-task times measured hot explain a
// model's time only for compute-bound ops. Writing a buffer larger than the
// last-level cache before each timed call evicts the kernel's data (the
// cold-cache timing of TVM's runners, `enable_cpu_cache_flush`).
//
//===----------------------------------------------------------------------===//

#ifndef DLTUNE_EXECUTION_CACHEFLUSHER_H
#define DLTUNE_EXECUTION_CACHEFLUSHER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlir::dltune {

class CacheFlusher {
public:
  /// A flusher writing `bytes` (at least one cache line) per flush.
  explicit CacheFlusher(size_t bytes);

  /// Twice this machine's last-level cache (L3, else L2), at least 32 MiB
  /// (also where the sizes cannot be read).
  static size_t getDefaultBytes();

  /// Writes one word in every 64-byte line of the buffer (a new value each
  /// time, so no write is skipped), evicting whatever else was cached.
  void flush();

  size_t getBytes() const { return buffer.size() * sizeof(uint64_t); }
  /// How many flushes ran (tests: the hook was called).
  uint64_t getFlushCount() const { return flushes; }

private:
  std::vector<uint64_t> buffer;
  uint64_t flushes = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_CACHEFLUSHER_H
