//===- CacheFlusher.cpp - Evict a kernel's data between timed calls -------===//

#include "dltune/Execution/CacheFlusher.h"

#include "dltune/Tuning/Device/HostCpu.h"

#include <algorithm>

using namespace mlir::dltune;

namespace {
constexpr size_t kLineWords = 64 / sizeof(uint64_t);
/// Where the cache sizes cannot be read (or are small), still more than
/// most last-level caches.
constexpr size_t kMinimumBytes = size_t(32) << 20;
} // namespace

CacheFlusher::CacheFlusher(size_t bytes)
    : buffer(std::max<size_t>(bytes / sizeof(uint64_t), kLineWords), 0) {}

size_t CacheFlusher::getDefaultBytes() {
  HostCpu cpu = HostCpu::detect();
  int64_t last = cpu.l3Bytes > 0 ? cpu.l3Bytes : cpu.l2Bytes;
  return std::max(static_cast<size_t>(2 * std::max<int64_t>(last, 0)), kMinimumBytes);
}

void CacheFlusher::flush() {
  ++flushes;
  volatile uint64_t *words = buffer.data();
  for (size_t i = 0; i < buffer.size(); i += kLineWords)
    words[i] = flushes + i;
}
