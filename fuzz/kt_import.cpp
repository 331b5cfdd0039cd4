//===- kt_import.cpp - Fuzz target: Kernel Tuner caches -------------------===//
//
// Parses the input as a Kernel Tuner cache. An accepted cache must import
// every entry (one record each), give a space that holds exactly its
// entries, and export and import again unchanged.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dltune/Tuning/Replay/KernelTunerCache.h"

using namespace mlir::dltune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<KernelTunerCache> cache = KernelTunerCache::parse(text, "fuzz.json");
  if (!cache) {
    llvm::consumeError(cache.takeError());
    return 0;
  }
  FUZZ_CHECK(cache->getSpace().countValid() == cache->entries.size(),
             cache->getSpace().getCanonicalString());
  std::unique_ptr<Database> db = dltune_fuzz::openMemoryDatabase();
  llvm::Expected<ImportStats> stats = importKernelTunerCache(*db, *cache);
  FUZZ_CHECK(static_cast<bool>(stats), llvm::toString(stats.takeError()));
  FUZZ_CHECK(stats->inserted == static_cast<int64_t>(cache->entries.size()),
             "inserted " << stats->inserted);
  dltune_fuzz::checkExportRoundTrip(*db, *stats);
  return 0;
}
