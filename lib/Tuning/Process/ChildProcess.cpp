//===- ChildProcess.cpp - Running a command under limits ------------------===//

#include "dltune/Tuning/Process/ChildProcess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace mlir::dltune;

// AddressSanitizer reserves terabytes of shadow address space at start-up,
// which RLIMIT_AS and RLIMIT_DATA both refuse: sanitized children get ASan's
// own RSS limit instead (see startChild).
#if defined(__SANITIZE_ADDRESS__)
#define DLTUNE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DLTUNE_ASAN 1
#endif
#endif
#ifndef DLTUNE_ASAN
#define DLTUNE_ASAN 0
#endif

/// What ASan prints when hard_rss_limit_mb is exceeded.
static constexpr const char *kAsanRssLimitMessage = "hard rss limit exhausted";

namespace {
struct Running {
  pid_t pid = -1;
  int outFd = -1, errFd = -1;
  std::chrono::steady_clock::time_point start;
  ChildResult result;
  bool done = false;
  int status = 0;
};

llvm::Error startChild(const std::vector<std::string> &argv, const ChildLimits &limits,
                       const std::vector<std::string> &extraEnv, Running &r) {
  int outPipe[2], errPipe[2];
  if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "pipe: %s",
                                   std::strerror(errno));
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    env.push_back(*e);
  for (const std::string &e : extraEnv)
    env.push_back(e);
  if (DLTUNE_ASAN && limits.memoryBytes) {
    std::string rss = "hard_rss_limit_mb=" + std::to_string(limits.memoryBytes >> 20);
    auto it = std::find_if(env.begin(), env.end(), [](const std::string &e) {
      return e.rfind("ASAN_OPTIONS=", 0) == 0;
    });
    if (it == env.end())
      env.push_back("ASAN_OPTIONS=" + rss);
    else
      *it += ":" + rss;
  }
  std::vector<char *> cargv, cenv;
  for (const std::string &a : argv)
    cargv.push_back(const_cast<char *>(a.c_str()));
  cargv.push_back(nullptr);
  for (const std::string &e : env)
    cenv.push_back(const_cast<char *>(e.c_str()));
  cenv.push_back(nullptr);
  r.start = std::chrono::steady_clock::now();
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "fork: %s",
                                   std::strerror(errno));
  if (pid == 0) {
    // Own process group: a timeout kills the child and anything it started.
    setpgid(0, 0);
    // A tuner killed outright (SIGKILL, OOM) must not leave a hanging
    // candidate running: the child dies with the thread that started it
    // (dltune starts children from its one tuning thread).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127);
    dup2(outPipe[1], STDOUT_FILENO);
    dup2(errPipe[1], STDERR_FILENO);
    if (limits.memoryBytes && !DLTUNE_ASAN) {
      struct rlimit rl = {limits.memoryBytes, limits.memoryBytes};
      setrlimit(RLIMIT_AS, &rl);
    }
    struct rlimit core = {0, 0}; // crashing candidates must not fill the disk
    setrlimit(RLIMIT_CORE, &core);
    execve(cargv[0], cargv.data(), cenv.data());
    _exit(127);
  }
  setpgid(pid, pid);
  close(outPipe[1]);
  close(errPipe[1]);
  r.pid = pid;
  r.outFd = outPipe[0];
  r.errFd = errPipe[0];
  return llvm::Error::success();
}

/// Drains output, reaps, and enforces the deadline; returns true when done.
bool poll(Running &r, const ChildLimits &limits, int timeoutMs) {
  if (r.done)
    return true;
  struct pollfd fds[2] = {{r.outFd, POLLIN, 0}, {r.errFd, POLLIN, 0}};
  int nfds = 0;
  struct pollfd active[2];
  for (auto &f : fds)
    if (f.fd >= 0)
      active[nfds++] = f;
  if (nfds > 0 && ::poll(active, nfds, timeoutMs) > 0) {
    for (int i = 0; i < nfds; ++i) {
      if (!(active[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char buf[4096];
      ssize_t n = read(active[i].fd, buf, sizeof(buf));
      bool isOut = active[i].fd == r.outFd;
      if (n > 0) {
        std::string &dst = isOut ? r.result.out : r.result.err;
        if (dst.size() < (1u << 20)) // cap what a runaway child can print
          dst.append(buf, n);
      } else {
        close(active[i].fd);
        (isOut ? r.outFd : r.errFd) = -1;
      }
    }
  } else if (nfds == 0) {
    usleep(timeoutMs * 1000);
  }
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.start).count();
  int status;
  pid_t w = waitpid(r.pid, &status, WNOHANG);
  if (w == r.pid) {
    // Collect what is still buffered in the pipes.
    for (int *fd : {&r.outFd, &r.errFd}) {
      if (*fd < 0)
        continue;
      fcntl(*fd, F_SETFL, O_NONBLOCK);
      char buf[4096];
      ssize_t n;
      while ((n = read(*fd, buf, sizeof(buf))) > 0)
        (fd == &r.outFd ? r.result.out : r.result.err).append(buf, n);
      close(*fd);
      *fd = -1;
    }
    kill(-r.pid, SIGKILL); // leftovers of the group
    r.result.wallSeconds = elapsed;
    if (WIFSIGNALED(status))
      r.result.signal = r.result.timedOut ? r.result.signal : WTERMSIG(status);
    else if (WIFEXITED(status))
      r.result.exitCode = WEXITSTATUS(status);
    // Report ASan's memory limit like the kernel's OOM kill it stands in for.
    if (DLTUNE_ASAN && limits.memoryBytes && !r.result.timedOut &&
        r.result.err.find(kAsanRssLimitMessage) != std::string::npos) {
      r.result.signal = SIGKILL;
      r.result.exitCode = -1;
    }
    r.done = true;
    return true;
  }
  if (!r.result.timedOut && elapsed > limits.wallSeconds) {
    r.result.timedOut = true;
    kill(-r.pid, SIGKILL);
  }
  return false;
}
} // namespace

llvm::Expected<ChildResult> mlir::dltune::runChild(const std::vector<std::string> &argv,
                                                   const ChildLimits &limits,
                                                   const std::vector<std::string> &extraEnv) {
  Running r;
  if (llvm::Error e = startChild(argv, limits, extraEnv, r))
    return std::move(e);
  while (!poll(r, limits, 20)) {
  }
  if (r.result.timedOut)
    r.result.signal = 0;
  return r.result;
}

std::vector<llvm::Expected<ChildResult>>
mlir::dltune::runChildren(const std::vector<std::vector<std::string>> &argvs,
                          const ChildLimits &limits, unsigned parallelism,
                          const std::vector<std::string> &extraEnv) {
  std::vector<llvm::Expected<ChildResult>> results;
  std::vector<Running> running(argvs.size());
  std::vector<bool> started(argvs.size(), false), failed(argvs.size(), false);
  std::vector<std::string> startErrors(argvs.size());
  size_t next = 0, finished = 0;
  parallelism = std::max(1u, parallelism);
  while (finished < argvs.size()) {
    size_t active = 0;
    for (size_t i = 0; i < argvs.size(); ++i)
      if (started[i] && !running[i].done && !failed[i])
        ++active;
    while (active < parallelism && next < argvs.size()) {
      if (llvm::Error e = startChild(argvs[next], limits, extraEnv, running[next])) {
        failed[next] = true;
        startErrors[next] = llvm::toString(std::move(e));
        ++finished;
      } else {
        ++active;
      }
      started[next++] = true;
    }
    for (size_t i = 0; i < argvs.size(); ++i)
      if (started[i] && !failed[i] && !running[i].done && poll(running[i], limits, 5))
        ++finished;
  }
  for (size_t i = 0; i < argvs.size(); ++i) {
    if (failed[i]) {
      results.push_back(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                                startErrors[i]));
      continue;
    }
    if (running[i].result.timedOut)
      running[i].result.signal = 0;
    results.push_back(running[i].result);
  }
  return results;
}
