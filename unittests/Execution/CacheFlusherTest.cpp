//===- CacheFlusherTest.cpp - Cold-cache timing hooks ---------------------===//

#include "dltune/Execution/CacheFlusher.h"
#include "dltune/Execution/CpuKernel.h"

#include "gtest/gtest.h"

#include <vector>

using namespace mlir::dltune;

TEST(CacheFlusher, DefaultCoversTheLastLevelCacheTwice) {
  // At least 2 MiB: any machine this runs on has a cache of 1 MiB or more
  // (or the 64 MiB fallback applies).
  EXPECT_GE(CacheFlusher::getDefaultBytes(), size_t(2) << 20);
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
