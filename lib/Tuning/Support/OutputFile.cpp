//===- OutputFile.cpp - Writing files that are complete or absent ---------===//

#include "dltune/Tuning/Support/OutputFile.h"
#include "dltune/Tuning/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::dltune;

/// `path` made absolute, without "." and ".." parts.
static std::string getCanonicalPath(const std::string &path) {
  llvm::SmallString<256> p(path);
  (void)llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p);
}

bool mlir::dltune::isSameFile(const std::string &a, const std::string &b) {
  bool same = false;
  if (!llvm::sys::fs::equivalent(a, b, same) && same)
    return true;
  return getCanonicalPath(a) == getCanonicalPath(b);
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

/// Opens `file` (truncating it), writes it through `write` and closes it;
/// errors name `shownPath`, the file the user asked for.
static llvm::Error writeFile(const std::string &file, const std::string &shownPath,
                             llvm::function_ref<llvm::Error(std::ostream &)> write) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out)
    return makeError("cannot open '" + file + "': " + std::strerror(errno));
  if (llvm::Error e = writeAndCheck(out, shownPath, write))
    return e;
  out.close();
  if (!out)
    return makeError("cannot write '" + shownPath + "': " + std::strerror(errno));
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
    return writeFile(path, path, write);
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
  if (llvm::Error e = writeFile(tempPath, path, write))
    return fail(std::move(e));
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
