//===- OutputFile.h - Writing files that are complete or absent -*- C++ -*-===//
//
// Exports and reports are written beside their destination and renamed into
// place once every byte is on disk, so a failed or killed write never leaves
// a truncated file, and never truncates what was there (a database given as
// the output by mistake). Write errors (a full disk, /dev/full) are errors.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TUNING_SUPPORT_OUTPUTFILE_H
#define DLTUNE_TUNING_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <ostream>
#include <string>

namespace mlir::dltune {

/// Writes `path` through `write`: "-" is standard output; an existing file
/// that is not a regular file (a device, a pipe) is written in place; any
/// other path gets a temporary file in its directory, flushed, synced and
/// renamed over it only when `write` succeeded and no write failed.
llvm::Error writeFileAtomically(const std::string &path,
                                llvm::function_ref<llvm::Error(std::ostream &)> write);

/// Whether `a` and `b` name the same file: the same existing file (links
/// followed), or the same absolute path (which need not exist yet).
bool isSameFile(const std::string &a, const std::string &b);

} // namespace mlir::dltune

#endif // DLTUNE_TUNING_SUPPORT_OUTPUTFILE_H
