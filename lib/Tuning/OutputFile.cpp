//===- OutputFile.cpp - Writing files that are complete or absent ---------===//

#include "dltune/Tuning/OutputFile.h"
#include "dltune/Tuning/Error.h"

#include "llvm/Support/FileSystem.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::dltune;

bool mlir::dltune::isSameFile(const std::string &a, const std::string &b) {
  bool same = false;
  return !llvm::sys::fs::equivalent(a, b, same) && same;
}

/// Writes through `write` to an already open stream and says whether every
/// byte got out.
static llvm::Error writeAndCheck(std::ostream &out, const std::string &path,
                                 llvm::function_ref<llvm::Error(std::ostream &)> write) {
  if (llvm::Error e = write(out))
    return e;
  out.flush();
  if (!out)
    return makeError("cannot write '" + path + "': " + std::strerror(errno ? errno : EIO));
  return llvm::Error::success();
}

llvm::Error
mlir::dltune::writeFileAtomically(const std::string &path,
                                  llvm::function_ref<llvm::Error(std::ostream &)> write) {
  if (path.empty())
    return makeError("the output path is empty");
  if (path == "-") {
    if (llvm::Error e = writeAndCheck(std::cout, "standard output", write))
      return e;
    return std::fflush(stdout) == 0 ? llvm::Error::success()
                                    : makeError(std::string("cannot write standard output: ") +
                                                std::strerror(errno));
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode))
      return makeError("'" + path + "' is a directory");
    // A device or a pipe cannot be replaced by a rename.
    std::ofstream out(path, std::ios::binary);
    if (!out)
      return makeError("cannot open '" + path + "': " + std::strerror(errno));
    if (llvm::Error e = writeAndCheck(out, path, write))
      return e;
    out.close();
    return out ? llvm::Error::success()
               : makeError("cannot write '" + path + "': " + std::strerror(errno));
  }
  int fd = -1;
  llvm::SmallString<256> temp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temp))
    return makeError("cannot create a file beside '" + path + "': " + ec.message());
  ::close(fd);
  std::string tempPath(temp.str());
  auto fail = [&](llvm::Error e) {
    llvm::sys::fs::remove(tempPath);
    return e;
  };
  {
    std::ofstream out(tempPath, std::ios::binary | std::ios::trunc);
    if (!out)
      return fail(makeError("cannot open '" + tempPath + "': " + std::strerror(errno)));
    if (llvm::Error e = writeAndCheck(out, path, write))
      return fail(std::move(e));
    out.close();
    if (!out)
      return fail(makeError("cannot write '" + path + "': " + std::strerror(errno)));
  }
  // On disk before it replaces anything: a crash leaves the old file or
  // the whole new one.
  int syncFd = ::open(tempPath.c_str(), O_RDONLY);
  if (syncFd < 0 || ::fsync(syncFd) != 0) {
    int err = errno;
    if (syncFd >= 0)
      ::close(syncFd);
    return fail(makeError("cannot write '" + path + "': " + std::strerror(err)));
  }
  ::close(syncFd);
  if (std::error_code ec = llvm::sys::fs::rename(tempPath, path))
    return fail(makeError("cannot replace '" + path + "': " + ec.message()));
  return llvm::Error::success();
}
