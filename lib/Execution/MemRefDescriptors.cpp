//===- MemRefDescriptors.cpp - Host buffers as memref descriptors ---------===//

#include "dltune/Execution/MemRefDescriptors.h"

#include <cstdlib>
#include <cstring>
#include <set>

using namespace mlir::dltune;

static std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

llvm::Expected<PackedDescriptors>
mlir::dltune::packArguments(const KernelSignature &signature, std::vector<HostBuffer> &args) {
  if (args.size() != signature.args.size())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "expected %zu arguments, got %zu",
                                   signature.args.size(), args.size());
  PackedDescriptors p;
  for (size_t i = 0; i < args.size(); ++i) {
    const BufferType &t = signature.args[i];
    if (args[i].getType().shape != t.shape)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "argument #%zu has the wrong shape", i);
    p.offsets.push_back(p.words.size());
    int64_t ptr = reinterpret_cast<int64_t>(args[i].data());
    p.words.push_back(ptr);
    p.words.push_back(ptr);
    p.words.push_back(0);
    for (int64_t d : t.shape)
      p.words.push_back(d);
    for (int64_t s : rowMajorStrides(t.shape))
      p.words.push_back(s);
  }
  return p;
}

size_t mlir::dltune::getResultWords(const KernelSignature &signature) {
  size_t words = 0;
  for (const BufferType &t : signature.results)
    words += 3 + 2 * t.shape.size();
  return std::max<size_t>(words, 1);
}

void mlir::dltune::takeResults(const KernelSignature &signature, const int64_t *words,
                               const std::vector<HostBuffer> &args,
                               std::vector<HostBuffer> *results) {
  std::set<int64_t> argPtrs, freed;
  for (const HostBuffer &a : args)
    argPtrs.insert(reinterpret_cast<int64_t>(a.data()));
  size_t r = 0;
  for (const BufferType &t : signature.results) {
    int64_t allocated = words[r], aligned = words[r + 1], offset = words[r + 2];
    size_t rank = t.shape.size();
    const int64_t *strides = words + r + 3 + rank;
    if (results) {
      HostBuffer out(t);
      size_t eb = t.getElementBytes();
      const char *base = reinterpret_cast<const char *>(aligned) + offset * eb;
      std::vector<int64_t> idx(rank, 0);
      int64_t n = t.getNumElements();
      for (int64_t lin = 0; lin < n; ++lin) {
        int64_t off = 0;
        for (size_t d = 0; d < rank; ++d)
          off += idx[d] * strides[d];
        std::memcpy(static_cast<char *>(out.data()) + lin * eb, base + off * eb, eb);
        for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
          if (++idx[d] < t.shape[d])
            break;
          idx[d] = 0;
        }
      }
      results->push_back(std::move(out));
    }
    // Lowered code marks memrefs of globals with 0xdeadbeef.
    if (allocated != 0xdeadbeef && !argPtrs.count(allocated) &&
        freed.insert(allocated).second)
      std::free(reinterpret_cast<void *>(allocated));
    r += 3 + 2 * rank;
  }
}
