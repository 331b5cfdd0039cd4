//===- MemRefDescriptors.h - Host buffers as memref descriptors -*- C++ -*-===//
//
// A ranked memref descriptor is {allocated ptr, aligned ptr, offset,
// sizes[rank], strides[rank]}: 3 + 2*rank 64-bit words. Both the packed JIT
// wrapper and the C interface (`_mlir_ciface_*`) of compiled kernels take
// them; this packs arguments and copies returned memrefs out.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_MEMREFDESCRIPTORS_H
#define DLTUNE_EXECUTION_MEMREFDESCRIPTORS_H

#include "dltune/Execution/CpuKernel.h"

namespace mlir::dltune {

/// Descriptor words of every argument, one descriptor after the other.
struct PackedDescriptors {
  std::vector<int64_t> words;
  std::vector<size_t> offsets; // start of each argument's descriptor
  void *get(size_t i) { return &words[offsets[i]]; }
};

llvm::Expected<PackedDescriptors> packArguments(const KernelSignature &signature,
                                                std::vector<HostBuffer> &args);

/// Number of words the results of `signature` occupy (at least 1).
size_t getResultWords(const KernelSignature &signature);

/// Copies the memrefs described by `resultWords` into `results` (when
/// given) and frees those the kernel allocated (not aliasing an argument,
/// not a global).
void takeResults(const KernelSignature &signature, const int64_t *resultWords,
                 const std::vector<HostBuffer> &args, std::vector<HostBuffer> *results);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_MEMREFDESCRIPTORS_H
