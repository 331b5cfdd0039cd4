//===- InitAllPasses.h - Register every dltune pass and pipeline -*- C++ -*-===//
#ifndef DLTUNE_INITALLPASSES_H
#define DLTUNE_INITALLPASSES_H

#include "dltune/Transforms/AutotunePasses.h"
#include "dltune/Transforms/Passes.h"

namespace mlir::dltune {
inline void registerAllDLTunePassesAndPipelines() {
  registerAllDLTunePasses();
  registerDLTuneAutotunePasses();
  registerDLTuneTuningPipeline();
}
} // namespace mlir::dltune

#endif // DLTUNE_INITALLPASSES_H
