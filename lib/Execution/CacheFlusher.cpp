//===- CacheFlusher.cpp - Evict a kernel's data between timed calls -------===//

#include "dltune/Execution/CacheFlusher.h"

#include "dltune/Tuning/Device/HostCpu.h"

#include <algorithm>

using namespace mlir::dltune;

namespace {
constexpr size_t kLineWords = 64 / sizeof(uint64_t);
} // namespace

CacheFlusher::CacheFlusher(size_t bytes)
    : buffer(std::max<size_t>(bytes / sizeof(uint64_t), kLineWords), 0) {}

size_t CacheFlusher::getDefaultBytes() {
  HostCpu cpu = HostCpu::detect();
  int64_t last = cpu.l3Bytes > 0 ? cpu.l3Bytes : cpu.l2Bytes;
  return last > 0 ? static_cast<size_t>(2 * last) : size_t(64) << 20;
}

void CacheFlusher::flush() {
  ++flushes;
  volatile uint64_t *words = buffer.data();
  for (size_t i = 0; i < buffer.size(); i += kLineWords)
    words[i] = flushes + i;
}
