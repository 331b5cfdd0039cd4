//===- ChildProcessTest.cpp - Running commands under limits ---------------===//

#include "dltune/Tuning/Process/ChildProcess.h"

#include "gtest/gtest.h"

#include <csignal>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mlir::dltune;

TEST(ChildProcess, CapturesOutputAndExitCode) {
  auto r = runChild({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, {10, 0});
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->exitCode, 3);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_FALSE(r->timedOut);
  EXPECT_FALSE(r->succeeded());
}

TEST(ChildProcess, KillsTheWholeGroupAtTheDeadline) {
  // The shell's own child (sleep) must die too, or it would keep the pipe open.
  auto r = runChild({"/bin/sh", "-c", "sleep 30 & sleep 30"}, {0.5, 0});
  ASSERT_TRUE(static_cast<bool>(r));
  EXPECT_TRUE(r->timedOut);
  EXPECT_LT(r->wallSeconds, 5);
}

TEST(ChildProcess, ReportsSignals) {
  auto r = runChild({"/bin/sh", "-c", "kill -SEGV $$"}, {10, 0});
  ASSERT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(r->signal, SIGSEGV);
  EXPECT_FALSE(r->timedOut);
}

TEST(ChildProcess, AppliesTheMemoryLimit) {
  // ASan builds give children ASan's hard_rss_limit_mb instead of RLIMIT_AS
  // (lib/Tuning/Process/ChildProcess.cpp), which binds only sanitized programs.
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "no RLIMIT_AS in AddressSanitizer builds";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "no RLIMIT_AS in AddressSanitizer builds";
#endif
#endif
  // 64 MiB of address space cannot hold a 256 MiB allocation.
  auto r = runChild({"/bin/sh", "-c", "head -c 268435456 /dev/zero | tr '\\0' 'a' | "
                                      "{ v=$(cat); echo ${#v}; }"},
                    {20, 64ull << 20});
  ASSERT_TRUE(static_cast<bool>(r));
  EXPECT_FALSE(r->succeeded());
}

TEST(ChildProcess, RunsSeveralInParallelAndKeepsOrder) {
  std::vector<std::vector<std::string>> argvs;
  for (int i = 0; i < 5; ++i)
    argvs.push_back({"/bin/sh", "-c", "sleep 0.2; echo " + std::to_string(i)});
  auto results = runChildren(argvs, {10, 0}, 5);
  ASSERT_EQ(results.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(static_cast<bool>(results[i]));
    EXPECT_EQ(results[i]->out, std::to_string(i) + "\n");
    EXPECT_LT(results[i]->wallSeconds, 2);
  }
  auto missing = runChild({"/nonexistent/program"}, {5, 0});
  ASSERT_TRUE(static_cast<bool>(missing));
  EXPECT_EQ(missing->exitCode, 127);
}

namespace {
/// Whether process `pid` is gone or a zombie (killed, not yet reaped by
/// whoever adopted it).
bool isDead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    return true;
  size_t close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}
} // namespace

TEST(ChildProcess, DiesWithAKilledParent) {
  // A helper process starts a child that would sleep for a minute, reports
  // the child's pid and is killed with SIGKILL, as a tuner killed
  // mid-measurement is: the child must not outlive it.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t helper = fork();
  ASSERT_GE(helper, 0);
  if (helper == 0) {
    close(fds[0]);
    std::string script = "echo $$ >&" + std::to_string(fds[1]) + "; exec sleep 60";
    auto r = runChild({"/bin/sh", "-c", script}, {120, 0});
    _exit(r ? 0 : 1);
  }
  close(fds[1]);
  char buffer[32] = {};
  ssize_t n = read(fds[0], buffer, sizeof(buffer) - 1);
  close(fds[0]);
  pid_t child = n > 0 ? static_cast<pid_t>(std::atol(buffer)) : 0;
  bool aliveBefore = child > 0 && !isDead(child);
  // The helper is killed on every path, as the tuner is.
  kill(helper, SIGKILL);
  waitpid(helper, nullptr, 0);
  ASSERT_GT(child, 0);
  EXPECT_TRUE(aliveBefore);
  bool dead = false;
  for (int i = 0; i < 100 && !dead; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    dead = isDead(child);
  }
  EXPECT_TRUE(dead) << "child " << child << " outlived its killed parent";
  if (!dead)
    kill(child, SIGKILL);
}
