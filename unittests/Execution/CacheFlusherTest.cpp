//===- CacheFlusherTest.cpp - Cold-cache timing hooks ---------------------===//

#include "dltune/Execution/CacheFlusher.h"
#include "dltune/Execution/CpuKernel.h"
#include "dltune/Tuning/Device/HostCpu.h"

#include "gtest/gtest.h"

#include <vector>

using namespace mlir::dltune;

TEST(CacheFlusher, DefaultCoversTheLastLevelCacheTwice) {
  HostCpu cpu = HostCpu::detect();
  EXPECT_GE(CacheFlusher::getDefaultBytes(), size_t(32) << 20);
  EXPECT_GE(CacheFlusher::getDefaultBytes(), static_cast<size_t>(2 * cpu.l3Bytes));
  CacheFlusher tiny(1);
  EXPECT_EQ(tiny.getBytes(), 64u); // one cache line at least
}

TEST(CacheFlusher, FlushRunsBeforeEachTimedCallOnly) {
  CacheFlusher flusher(1 << 16);
  int calls = 0;
  std::vector<uint64_t> flushesAtCall;
  llvm::Expected<TimingStats> stats = timeRepeated(
      [&]() -> llvm::Error {
        ++calls;
        flushesAtCall.push_back(flusher.getFlushCount());
        return llvm::Error::success();
      },
      /*warmup=*/2, /*repeats=*/5, [&] { flusher.flush(); });
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(stats->repeats, 5);
  EXPECT_EQ(flusher.getFlushCount(), 5u);
  // Warm-up calls see no flush; each timed call follows its own.
  EXPECT_EQ(flushesAtCall, (std::vector<uint64_t>{0, 0, 1, 2, 3, 4, 5}));
}
