//===- WorkerCommand.cpp - dltune worker (internal) -----------------------===//

#include "Common.h"

namespace cl = llvm::cl;

namespace dltune_tool {

cl::SubCommand workerCmd("worker", "Internal: build or measure one candidate in a child process");

int workerCommand() { return fail("worker: not available in this build"); }

} // namespace dltune_tool
