//===- ReplayOptions.h - Options of replay and replay-model -----*- C++ -*-===//
//
// Defined in ReplayCommand.cpp, registered on both subcommands.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_TOOLS_DLTUNE_REPLAYOPTIONS_H
#define DLTUNE_TOOLS_DLTUNE_REPLAYOPTIONS_H

#include "llvm/Support/CommandLine.h"

#include <fstream>

namespace dltune_tool {
extern llvm::cl::opt<std::string> costModel, report, coldFilter;
extern llvm::cl::opt<unsigned> planSize, firstFit;
extern llvm::cl::opt<int> seeds;
extern llvm::cl::opt<double> timeBudget, coldFactor;
extern llvm::cl::opt<bool> stochastic;

/// Opens --report (when given) and writes the CSV header; `out` is null
/// without --report. False when the file cannot be written.
bool openReport(std::ofstream &file, std::ostream *&out, const char *header);
/// Closes the --report file; 1 (after the error) when a write failed.
int closeReport(std::ofstream &file);
} // namespace dltune_tool

#endif
