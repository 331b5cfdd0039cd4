//===- MallocPolicy.h - Keep freed heap memory between kernel calls -*- C++ -*-===//
//
// A model allocates its intermediates (megabytes) and frees them on every
// call. glibc's malloc serves large blocks with fresh mmaps and trims the
// heap top when much of it is free, so each call page-faults its buffers in
// again: a library built by `dltune compile` ran ResNet-18 at 82 ms and
// MobileNet-v2 at 40 ms per call in a fresh process, against 65 and 15 ms
// with the policy below (and with the JIT inside `dltune run`, whose heap
// happened not to shrink). The policy: serve blocks up to 32 MiB (glibc's
// largest mmap threshold) from the heap and trim it only above 2 GiB free, so freed memory
// is reused, as PyTorch's and oneDNN's own allocators do.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_MALLOCPOLICY_H
#define DLTUNE_EXECUTION_MALLOCPOLICY_H

namespace mlir {
class ModuleOp;
namespace dltune {

/// glibc's mallopt parameters and the values the policy sets.
inline constexpr int kMallocTrimThresholdParam = -1; // M_TRIM_THRESHOLD
inline constexpr int kMallocMmapThresholdParam = -3; // M_MMAP_THRESHOLD
inline constexpr int kKeptMmapThreshold = 32 << 20;
inline constexpr int kKeptTrimThreshold = 0x7fffffff;

/// Applies the policy to this process (dltune's timing and the tuner's
/// measuring workers).
void keepFreedMemoryInProcess();

/// Adds a global constructor applying the policy to a module lowered to the
/// LLVM dialect, so that a shared library built from it sets it when
/// loaded (a process-wide setting of its host: docs/import.md).
void addKeepFreedMemoryConstructor(ModuleOp module);

} // namespace dltune
} // namespace mlir

#endif // DLTUNE_EXECUTION_MALLOCPOLICY_H
